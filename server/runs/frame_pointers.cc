// Frame-pointer detection (see frame_pointers.h) with libelf: the FUNC symbols of .symtab (or
// .dynsym) in an executable section, the first bytes of each read from the file.
#include "server/runs/frame_pointers.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace hotlines {

namespace {

struct ElfFile {
  int fd = -1;
  Elf *elf = nullptr;
  ~ElfFile() {
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

} // namespace

FramePointers frame_pointers(const std::string &path, std::string *why) {
  auto unknown = [&](const char *reason) {
    if (why) *why = reason;
    return FramePointers::unknown;
  };
  elf_version(EV_CURRENT);
  ElfFile f;
  if ((f.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC)) < 0) return unknown("cannot read it");
  if (!(f.elf = elf_begin(f.fd, ELF_C_READ, nullptr)) || elf_kind(f.elf) != ELF_K_ELF)
    return unknown("not an ELF file");
  GElf_Ehdr eh;
  if (!gelf_getehdr(f.elf, &eh) || eh.e_machine != EM_X86_64) return unknown("not x86-64");
  Elf_Scn *symtab = nullptr, *dynsym = nullptr;
  for (Elf_Scn *s = nullptr; (s = elf_nextscn(f.elf, s));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(s, &sh)) continue;
    if (sh.sh_type == SHT_SYMTAB) symtab = s;
    if (sh.sh_type == SHT_DYNSYM) dynsym = s;
  }
  Elf_Scn *syms = symtab ? symtab : dynsym;
  if (!syms) return unknown("no symbol table");
  GElf_Shdr sh;
  Elf_Data *data = elf_getdata(syms, nullptr);
  if (!gelf_getshdr(syms, &sh) || !data || sh.sh_entsize == 0) return unknown("no symbols");
  size_t with = 0, without = 0;
  const size_t n = sh.sh_size / sh.sh_entsize;
  for (size_t i = 0; i < n && with + without < 2000; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
        sym.st_size < 16 || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
      continue;
    GElf_Shdr code;
    Elf_Scn *scn = elf_getscn(f.elf, sym.st_shndx);
    if (!scn || !gelf_getshdr(scn, &code) || code.sh_type != SHT_PROGBITS ||
        !(code.sh_flags & SHF_EXECINSTR) || sym.st_value < code.sh_addr ||
        sym.st_value - code.sh_addr + sym.st_size > code.sh_size)
      continue;
    // `push %rbp; mov %rsp,%rbp` near the start: after endbr64, or after the early exit of a
    // shrink-wrapped prologue.
    unsigned char b[64];
    const size_t n_read = static_cast<size_t>(std::min<uint64_t>(sym.st_size, sizeof b));
    if (pread(f.fd, b, n_read, static_cast<off_t>(code.sh_offset + sym.st_value - code.sh_addr)) !=
        static_cast<ssize_t>(n_read))
      continue;
    bool fp = memmem(b, n_read, "\x55\x48\x89\xe5", 4) != nullptr;
    (fp ? with : without)++;
  }
  if (with + without < 8) return unknown("fewer than 8 functions in its symbol table");
  if (why)
    *why = std::to_string(with) + " of " + std::to_string(with + without) +
           " functions set up a frame pointer";
  // Leaf functions need no frame even when built with -fno-omit-frame-pointer (GCC omits it),
  // but a build without frame pointers sets up almost none: a quarter is plenty.
  return with * 4 >= with + without ? FramePointers::yes : FramePointers::no;
}

} // namespace hotlines
