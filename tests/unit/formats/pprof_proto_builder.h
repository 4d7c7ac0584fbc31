// ProtoProfile: builds small pprof profiles for tests through the protoc-generated classes
// (strings interned, ids assigned), so tests can state exactly what a file holds, including
// malformed ones (edit the message after building).
#pragma once

#include "profile.pb.h"

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace hotlines::test {

class ProtoProfile {
public:
  perftools::profiles::Profile pb;

  ProtoProfile() { s(""); }

  int64_t s(const std::string &str) {
    auto it = strings_.find(str);
    if (it != strings_.end()) return it->second;
    int64_t id = pb.string_table_size();
    pb.add_string_table(str);
    strings_[str] = id;
    return id;
  }
  void type(const std::string &type, const std::string &unit) {
    auto *t = pb.add_sample_type();
    t->set_type(s(type));
    t->set_unit(s(unit));
  }
  uint64_t function(const std::string &name, const std::string &file = "", int64_t start = 0) {
    auto *f = pb.add_function();
    f->set_id(pb.function_size());
    f->set_name(s(name));
    f->set_system_name(s(name));
    f->set_filename(s(file));
    f->set_start_line(start);
    return f->id();
  }
  uint64_t mapping(const std::string &file) {
    auto *m = pb.add_mapping();
    m->set_id(pb.mapping_size());
    m->set_filename(s(file));
    return m->id();
  }
  // A location with lines (function id, line), innermost first; none: unsymbolized.
  uint64_t location(std::initializer_list<std::pair<uint64_t, int64_t>> lines, uint64_t address = 0,
                    uint64_t mapping = 0) {
    auto *l = pb.add_location();
    l->set_id(pb.location_size());
    l->set_address(address);
    l->set_mapping_id(mapping);
    for (auto [fn, line] : lines) {
      auto *ln = l->add_line();
      ln->set_function_id(fn);
      ln->set_line(line);
    }
    return l->id();
  }
  // Convenience: a function in a file plus a one-line location for it.
  uint64_t frame(const std::string &name, int64_t line, const std::string &file = "f.go") {
    return location({{function(name, file), line}});
  }
  perftools::profiles::Sample *sample(std::vector<uint64_t> locs_leaf_first,
                                      std::vector<int64_t> values) {
    auto *x = pb.add_sample();
    for (uint64_t l : locs_leaf_first) x->add_location_id(l);
    for (int64_t v : values) x->add_value(v);
    return x;
  }
  void label(perftools::profiles::Sample *x, const std::string &key, const std::string &str) {
    auto *l = x->add_label();
    l->set_key(s(key));
    l->set_str(s(str));
  }
  void num_label(perftools::profiles::Sample *x, const std::string &key, int64_t num,
                 const std::string &unit = "") {
    auto *l = x->add_label();
    l->set_key(s(key));
    l->set_num(num);
    if (!unit.empty()) l->set_num_unit(s(unit));
  }
  std::string bytes() const {
    std::string out;
    pb.SerializeToString(&out);
    return out;
  }

private:
  std::map<std::string, int64_t> strings_;
};

} // namespace hotlines::test
