// Test helpers for the pprof tests: run `go tool pprof` and parse its -top / -list output into
// exact per-function and per-line flat/cum numbers, and compute the same numbers from the model
// (self = leaf frame, total = once per sample per key), keyed the way go tool pprof names its
// nodes. Used by pprof_gotool_test.cc and pprof_writer_test.cc.
#pragma once

#include "formats/pprof_sample_types.h"
#include "formats/profile.h"
#include "test_util.h"

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace hotlines::test {

struct FlatCum {
  int64_t flat = 0, cum = 0;
  bool operator==(const FlatCum &) const = default;
};
using Weights = std::map<std::string, FlatCum>;

inline std::ostream &operator<<(std::ostream &os, const FlatCum &w) {
  return os << "{flat " << w.flat << ", cum " << w.cum << "}";
}

enum class Granularity { functions, lines };

inline bool have_go_pprof() {
  int status = -1;
  run_command("go tool pprof -h >/dev/null 2>&1", &status);
  return status == 0 || status == 2; // -h exits 2 on some versions
}

inline std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs go tool pprof with `flags` on `file`, stderr merged into the output.
inline std::string go_pprof(const std::string &flags, const std::string &file, int *status) {
  return run_command("go tool pprof -symbolize=none " + flags + " " + shell_quote(file) + " 2>&1",
                     status);
}

// "1191527431ns" / "924248B" / "5050" / "." -> integer; false on anything inexact.
inline bool parse_amount(const std::string &tok, int64_t *out) {
  if (tok == ".") {
    *out = 0;
    return true;
  }
  size_t i = 0;
  if (i < tok.size() && tok[i] == '-') i++;
  size_t digits = i;
  while (i < tok.size() && isdigit(static_cast<unsigned char>(tok[i]))) i++;
  if (i == digits) return false;
  if (i < tok.size() && tok[i] == '.') return false; // rounded: not exact
  *out = std::strtoll(tok.substr(0, i).c_str(), nullptr, 10);
  return true;
}

inline std::string strip_inline(std::string name) {
  for (std::string suffix : {" (inline)", " (partial-inline)"})
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      name.resize(name.size() - suffix.size());
  return name;
}

// Parses `-top` output rows: flat flat% sum% cum cum% name. *error on unparsable rows.
inline Weights parse_top(const std::string &out, std::string *error) {
  Weights w;
  std::istringstream in(out);
  std::string line;
  bool table = false;
  while (std::getline(in, line)) {
    if (!table) {
      table = line.find("flat  flat%") != std::string::npos;
      continue;
    }
    std::istringstream row(line);
    std::string flat, flatp, sum, cum, cump;
    if (!(row >> flat >> flatp >> sum >> cum >> cump)) continue;
    std::string name;
    std::getline(row, name);
    size_t start = name.find_first_not_of(' ');
    name = start == std::string::npos ? "" : strip_inline(name.substr(start));
    FlatCum fc;
    if (!parse_amount(flat, &fc.flat) || !parse_amount(cum, &fc.cum)) {
      *error += "unparsable row: " + line + "\n";
      continue;
    }
    FlatCum &slot = w[name];
    slot.flat += fc.flat;
    slot.cum += fc.cum;
  }
  if (!table) *error += "no table in output:\n" + out;
  return w;
}

inline std::string base_name(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Parses `-list` output: per ROUTINE, rows "flat cum line:source", keyed
// "name basename(file):line". Rows shown as ". ." become zero entries. *routines gets the
// "name basename(file)" of every routine whose source was shown.
inline Weights parse_list(const std::string &out, std::set<std::string> *routines,
                          std::string *error) {
  Weights w;
  std::istringstream in(out);
  std::string line, routine;
  const std::string marker = "ROUTINE ======================== ";
  while (std::getline(in, line)) {
    if (line.rfind(marker, 0) == 0) {
      std::string rest = line.substr(marker.size());
      size_t in_at = rest.rfind(" in ");
      routine = rest.substr(0, in_at) + " " + base_name(rest.substr(in_at + 4));
      continue;
    }
    if (routine.empty()) continue;
    std::istringstream row(line);
    std::string flat, cum, lineno;
    if (!(row >> flat >> cum >> lineno)) continue;
    if (flat == "Error:" || cum == "(flat,") continue;
    size_t colon = lineno.find(':');
    if (colon == std::string::npos) continue;
    FlatCum fc;
    if (!parse_amount(flat, &fc.flat) || !parse_amount(cum, &fc.cum)) {
      *error += "unparsable list row: " + line + "\n";
      continue;
    }
    routines->insert(routine);
    FlatCum &slot = w[routine + ":" + lineno.substr(0, colon)];
    slot.flat += fc.flat;
    slot.cum += fc.cum;
  }
  return w;
}

// A model function as go tool pprof names its node (pprof's NodeInfo.NameComponents with the
// address aggregated away): unsymbolized `0x…` functions are `[library basename]`.
inline bool is_unsymbolized(const Profile &p, const Function &f) {
  std::string_view n = p.str(f.name);
  return n.size() > 2 && n.substr(0, 2) == "0x" && !f.file && !f.system_name && !f.start_line;
}

inline std::string node_name(const Profile &p, FrameId frame, Granularity g) {
  const Frame &fr = p.frames[frame];
  const Function &f = p.functions[fr.function];
  if (is_unsymbolized(p, f))
    return f.library ? "[" + base_name(std::string(p.str(f.library))) + "]" : "<unknown>";
  std::string name(p.str(f.name));
  if (g == Granularity::functions) return name;
  std::string file(p.str(f.file));
  if (fr.line != 0) return name + " " + file + ":" + std::to_string(fr.line);
  if (!file.empty()) return name + " " + file;
  return name;
}

// -list keys: "name basename(file):line", only for frames with a file and a line.
inline std::string list_key(const Profile &p, FrameId frame) {
  const Frame &fr = p.frames[frame];
  const Function &f = p.functions[fr.function];
  if (!f.file || fr.line == 0 || is_unsymbolized(p, f)) return {};
  return std::string(p.str(f.name)) + " " + base_name(std::string(p.str(f.file))) + ":" +
         std::to_string(fr.line);
}

// Flat/cum per node from the model for one sample type (an event's count or value column).
template <typename KeyFn>
Weights model_weights_by(const Profile &p, const PprofSampleType &t, KeyFn key) {
  Weights w;
  const SampleColumns &c = p.events[t.event].samples;
  std::set<std::string> seen;
  for (size_t i = 0; i < c.size(); i++) {
    int64_t v = t.count ? c.count_at(i) : c.value_at(i);
    if (v == 0) continue; // go tool pprof skips zero-weight samples
    seen.clear();
    bool leaf = true;
    for (StackId s = c.stack[i]; s != kNoStack; s = p.stack_parent[s]) {
      std::string k = key(p.stack_frame[s]);
      if (!k.empty() && seen.insert(k).second) w[k].cum += v;
      if (leaf && !k.empty()) w[k].flat += v;
      leaf = false;
    }
  }
  for (auto it = w.begin(); it != w.end();)
    it = it->second == FlatCum{} ? w.erase(it) : std::next(it);
  return w;
}

inline Weights model_weights(const Profile &p, const PprofSampleType &t, Granularity g) {
  return model_weights_by(p, t, [&](FrameId f) { return node_name(p, f, g); });
}

inline Weights model_list_weights(const Profile &p, const PprofSampleType &t) {
  return model_weights_by(p, t, [&](FrameId f) { return list_key(p, f); });
}

inline int64_t model_total(const Profile &p, const PprofSampleType &t) {
  const Event &e = p.events[t.event];
  return t.count ? e.total_count : e.total_value;
}

// Differences between two weight maps, for readable failures (empty when equal).
inline std::string diff_weights(const Weights &want, const Weights &got, size_t max_lines = 20) {
  std::string d;
  size_t n = 0;
  auto add = [&](const std::string &s) {
    if (n++ < max_lines) d += s + "\n";
  };
  for (const auto &[k, v] : want) {
    auto it = got.find(k);
    if (it == got.end())
      add("missing in go tool pprof: " + k + " flat " + std::to_string(v.flat) + " cum " +
          std::to_string(v.cum));
    else if (!(it->second == v))
      add("differs: " + k + " model flat " + std::to_string(v.flat) + " cum " +
          std::to_string(v.cum) + " / pprof flat " + std::to_string(it->second.flat) + " cum " +
          std::to_string(it->second.cum));
  }
  for (const auto &[k, v] : got)
    if (!want.count(k) && !(v == FlatCum{}))
      add("only in go tool pprof: " + k + " flat " + std::to_string(v.flat) + " cum " +
          std::to_string(v.cum));
  if (n > max_lines) d += "... " + std::to_string(n - max_lines) + " more\n";
  return d;
}

// The `-unit` that makes go tool pprof print this sample type's values unscaled.
inline std::string unit_flag(const std::string &unit) {
  return unit.empty() ? "" : "-unit=" + shell_quote(unit);
}

} // namespace hotlines::test
