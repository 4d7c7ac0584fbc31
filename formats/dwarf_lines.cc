// DWARF source lines (see dwarf_lines.h). A file is reported to libdwfl as an offline module
// (its module addresses are its virtual addresses plus the module's bias); an address's compile
// unit comes from .debug_aranges or, where the file has none, from the units' own ranges; its
// line from the unit's line table, inlined functions from a per-compile-unit index of the address
// ranges of DW_TAG_subprogram and DW_TAG_inlined_subroutine DIEs with each one's enclosing DIE.
#include "formats/dwarf_lines.h"

#include "formats/native_names.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <algorithm>
#include <unordered_map>

namespace hotlines {

namespace {

const Dwfl_Callbacks kCallbacks = {
    dwfl_build_id_find_elf,
    dwfl_standard_find_debuginfo,
    dwfl_offline_section_address,
    nullptr,
};

// A subprogram or inlined subroutine of a compile unit.
struct Scope {
  Dwarf_Off offset;
  int32_t parent; // the enclosing scope, -1 for none
  bool inlined;
};
struct ScopeRange {
  Dwarf_Addr lo, hi;
  uint32_t scope;
};

struct CuIndex {
  std::vector<Scope> scopes;
  std::vector<ScopeRange> ranges; // by lo; an inner range after the outer one it starts with
};

CuIndex index_cu(Dwarf_Die *cu) {
  CuIndex ix;
  struct Pending {
    Dwarf_Die die;
    int32_t parent;
  };
  std::vector<Pending> stack;
  Dwarf_Die child;
  if (dwarf_child(cu, &child) == 0) stack.push_back({child, -1});
  while (!stack.empty()) {
    Pending p = stack.back();
    stack.pop_back();
    Dwarf_Die sibling;
    if (dwarf_siblingof(&p.die, &sibling) == 0) stack.push_back({sibling, p.parent});
    int tag = dwarf_tag(&p.die);
    int32_t self = p.parent;
    if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
      Dwarf_Addr base, lo, hi;
      ptrdiff_t off = 0;
      const uint32_t id = static_cast<uint32_t>(ix.scopes.size());
      bool any = false;
      while ((off = dwarf_ranges(&p.die, off, &base, &lo, &hi)) > 0 &&
             ix.ranges.size() < (1u << 26))
        if (hi > lo) {
          ix.ranges.push_back({lo, hi, id});
          any = true;
        }
      if (any) {
        ix.scopes.push_back({dwarf_dieoffset(&p.die), p.parent, tag == DW_TAG_inlined_subroutine});
        self = static_cast<int32_t>(id);
      }
    }
    if (dwarf_haschildren(&p.die) && dwarf_child(&p.die, &child) == 0)
      stack.push_back({child, self});
  }
  std::stable_sort(ix.ranges.begin(), ix.ranges.end(),
                   [](const ScopeRange &a, const ScopeRange &b) { return a.lo < b.lo; });
  return ix;
}

std::string die_name(Dwarf_Die *die) {
  Dwarf_Attribute attr;
  for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name})
    if (dwarf_attr_integrate(die, at, &attr))
      if (const char *s = dwarf_formstring(&attr)) return demangle_native(s);
  if (dwarf_attr_integrate(die, DW_AT_name, &attr))
    if (const char *s = dwarf_formstring(&attr)) return s;
  return {};
}

} // namespace

struct DwarfLines::Module {
  std::string path;
  Dwfl *dwfl = nullptr;
  Dwfl_Module *mod = nullptr;
  Dwarf_Addr bias = 0; // module address - file address
  bool has_dwarf = false;
  bool rebuilt = false; // not the binary recorded, nor a copy of it: not read
  std::unordered_map<Dwarf_Off, CuIndex> cus;
  // The compile units by their address ranges (module addresses), for files without
  // .debug_aranges (clang's by default), where libdw 0.188 finds no unit.
  struct CuRange {
    Dwarf_Addr lo, hi;
    Dwarf_Die *cu;
    Dwarf_Addr bias;
  };
  std::vector<CuRange> cu_ranges;
  bool cu_ranges_read = false;

  // The compile unit holding module address `addr`, and its bias; null when none.
  Dwarf_Die *cu_at(Dwarf_Addr addr, Dwarf_Addr *cu_bias) {
    if (Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, cu_bias)) return cu;
    if (!cu_ranges_read) {
      cu_ranges_read = true;
      Dwarf_Addr b = 0;
      for (Dwarf_Die *cu = nullptr; (cu = dwfl_module_nextcu(mod, cu, &b)) != nullptr;) {
        Dwarf_Addr base, lo, hi;
        ptrdiff_t off = 0;
        while ((off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0 && cu_ranges.size() < (1u << 24))
          if (hi > lo) cu_ranges.push_back({lo + b, hi + b, cu, b});
      }
      std::sort(cu_ranges.begin(), cu_ranges.end(),
                [](const CuRange &x, const CuRange &y) { return x.lo < y.lo; });
    }
    auto r = std::upper_bound(cu_ranges.begin(), cu_ranges.end(), addr,
                              [](Dwarf_Addr v, const CuRange &c) { return v < c.lo; });
    if (r == cu_ranges.begin() || addr >= (--r)->hi) return nullptr;
    *cu_bias = r->bias;
    return r->cu;
  }

  ~Module() {
    if (dwfl) dwfl_end(dwfl);
  }
};

DwarfLines::DwarfLines() = default;
DwarfLines::~DwarfLines() = default;

DwarfLines::Module *DwarfLines::module(const std::string &path) {
  for (auto &m : modules_)
    if (m->path == path) return m.get();
  auto m = std::make_unique<Module>();
  m->path = path;
  const std::string &file = build_ids_.file_for(path);
  m->rebuilt = file.empty();
  if (!file.empty() && file[0] == '/' && (m->dwfl = dwfl_begin(&kCallbacks))) {
    dwfl_report_begin(m->dwfl);
    m->mod = dwfl_report_offline(m->dwfl, path.c_str(), file.c_str(), -1);
    dwfl_report_end(m->dwfl, nullptr, nullptr);
    if (m->mod) {
      Dwarf_Addr elf_bias = 0, dw_bias = 0;
      if (dwfl_module_getelf(m->mod, &elf_bias)) m->bias = elf_bias;
      m->has_dwarf = dwfl_module_getdwarf(m->mod, &dw_bias) != nullptr;
    }
  }
  modules_.push_back(std::move(m));
  return modules_.back().get();
}

std::vector<SourceFrame> DwarfLines::lookup(const std::string &path, uint64_t address) {
  std::vector<SourceFrame> out;
  Module *m = module(path);
  if (!m->has_dwarf) return out;
  const Dwarf_Addr addr = address + m->bias;
  Dwarf_Addr cu_bias = 0;
  Dwarf_Die *cu = m->cu_at(addr, &cu_bias);
  const Dwarf_Addr a = addr - cu_bias;
  Dwarf_Line *line = cu ? dwarf_getsrc_die(cu, a) : nullptr;
  if (!line) return out;
  SourceFrame leaf;
  int lineno = 0;
  if (const char *file = dwarf_linesrc(line, nullptr, nullptr)) leaf.file = file;
  if (dwarf_lineno(line, &lineno) == 0) leaf.line = lineno;

  auto [it, fresh] = m->cus.try_emplace(dwarf_dieoffset(cu));
  if (fresh) it->second = index_cu(cu);
  const CuIndex &ix = it->second;
  // The innermost scope holding `a`: the last range starting at or before it that holds it.
  auto r = std::upper_bound(ix.ranges.begin(), ix.ranges.end(), a,
                            [](Dwarf_Addr v, const ScopeRange &s) { return v < s.lo; });
  int32_t scope = -1;
  for (int steps = 0; r != ix.ranges.begin() && steps < 4096 && scope < 0; steps++) {
    --r;
    if (r->lo <= a && a < r->hi) scope = static_cast<int32_t>(r->scope);
  }
  Dwarf *dbg = dwarf_cu_getdwarf(cu->cu);
  Dwarf_Files *files = nullptr;
  size_t nfiles = 0;
  dwarf_getsrcfiles(cu, &files, &nfiles);
  out.push_back(std::move(leaf));
  // Each inlined scope: its function is the current frame's, its call site the caller's line.
  while (scope >= 0 && out.size() < 256) {
    const Scope &s = ix.scopes[static_cast<size_t>(scope)];
    Dwarf_Die die;
    if (!dbg || !dwarf_offdie(dbg, s.offset, &die)) break;
    out.back().function = die_name(&die);
    out.back().inlined = s.inlined;
    if (!s.inlined) break;
    SourceFrame caller;
    Dwarf_Attribute attr;
    Dwarf_Word v = 0;
    if (dwarf_attr(&die, DW_AT_call_file, &attr) && dwarf_formudata(&attr, &v) == 0 && files &&
        v < nfiles)
      if (const char *f = dwarf_filesrc(files, v, nullptr, nullptr)) caller.file = f;
    if (dwarf_attr(&die, DW_AT_call_line, &attr) && dwarf_formudata(&attr, &v) == 0 &&
        v <= INT32_MAX)
      caller.line = static_cast<int32_t>(v);
    out.push_back(std::move(caller));
    scope = s.parent;
  }
  return out;
}

std::vector<std::string> DwarfLines::files_without_dwarf(size_t max) const {
  std::vector<std::string> out;
  for (const auto &m : modules_)
    if (!m->has_dwarf && !m->rebuilt && !m->path.empty() && m->path[0] == '/' && out.size() < max)
      out.push_back(m->path);
  return out;
}

} // namespace hotlines
