// Reading the JFR metadata event into JfrMetadata (see jfr_metadata.h). The event holds a
// string table and a tree of elements (root > metadata > class > field/annotation/setting)
// whose names and attributes are indexes into that table.
#include "formats/jfr_metadata.h"

#include "formats/jfr_text.h"

#include <charconv>

namespace hotlines {

int JfrMetadata::find(int64_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? -1 : it->second;
}

int JfrMetadata::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? -1 : it->second;
}

int JfrMetadata::field(int cls, std::string_view name) const {
  if (cls < 0 || static_cast<size_t>(cls) >= classes.size()) return -1;
  const auto &fields = classes[cls].fields;
  for (size_t i = 0; i < fields.size(); i++)
    if (fields[i].name == name) return static_cast<int>(i);
  return -1;
}

const std::string *JfrMetadata::annotation(const std::vector<JfrAnnotation> &annotations,
                                           std::string_view annotation_class) const {
  for (const JfrAnnotation &a : annotations) {
    int c = find(a.type_id);
    if (c >= 0 && classes[c].name == annotation_class) return &a.value;
  }
  return nullptr;
}

namespace {

JfrKind kind_of(std::string_view name) {
  if (name == "boolean") return JfrKind::boolean;
  if (name == "byte") return JfrKind::byte;
  if (name == "char") return JfrKind::char_;
  if (name == "short") return JfrKind::short_;
  if (name == "int") return JfrKind::int_;
  if (name == "long") return JfrKind::long_;
  if (name == "float") return JfrKind::float_;
  if (name == "double") return JfrKind::double_;
  if (name == "java.lang.String") return JfrKind::string;
  return JfrKind::object;
}

} // namespace

bool JfrMetadata::index(std::string *error) {
  by_id_.clear();
  by_name_.clear();
  for (size_t i = 0; i < classes.size(); i++) {
    classes[i].kind = kind_of(classes[i].name);
    by_id_.try_emplace(classes[i].id, static_cast<int>(i));
    by_name_.try_emplace(classes[i].name, static_cast<int>(i));
  }
  for (JfrClass &c : classes)
    for (JfrField &f : c.fields) {
      f.type = find(f.type_id);
      if (f.type < 0) {
        *error = "JFR metadata: field " + c.name + "." + f.name + " has undeclared type id " +
                 std::to_string(f.type_id);
        return false;
      }
    }
  return true;
}

namespace {

constexpr int kMaxDepth = 32;

// Parses the element tree straight into classes; only the parts the reader uses are kept.
class MetadataParser {
public:
  MetadataParser(JfrInput &in, JfrMetadata *out) : in_(in), out_(out) {}

  bool run(std::string *error) {
    in_.i32(); // size
    int64_t type = in_.i64();
    if (in_.ok() && type != 0)
      return fail("JFR metadata event has type " + std::to_string(type) + ", 0 expected", error);
    in_.i64(); // start
    in_.i64(); // duration
    in_.i64(); // metadata id
    uint32_t n = in_.count(1);
    if (!in_.ok()) return fail("JFR metadata: bad string table size", error);
    strings_.reserve(n);
    for (uint32_t i = 0; i < n && in_.ok(); i++) strings_.push_back(read_string());
    if (!in_.ok()) return fail("JFR metadata: bad string table", error);
    element(0, Context::root);
    if (!in_.ok()) return fail(why_.empty() ? "JFR metadata: bad element tree" : why_, error);
    return true;
  }

private:
  enum class Context { root, metadata, klass, field, other };

  bool fail(std::string msg, std::string *error) {
    if (in_.ok()) in_.fail();
    *error = std::move(msg);
    return false;
  }

  std::string read_string() {
    uint8_t enc = in_.u8();
    std::string s;
    switch (enc) {
    case 0:
    case 1:
      break;
    case 3:
    case 5: {
      uint32_t len = in_.count(1);
      if (!in_.ok()) break;
      std::string_view bytes(reinterpret_cast<const char *>(in_.ptr()), len);
      in_.skip(len);
      if (enc == 3)
        append_sanitized_utf8(&s, bytes);
      else
        append_latin1_as_utf8(&s, bytes);
      break;
    }
    case 4: {
      uint32_t len = in_.count(1);
      std::u16string units;
      for (uint32_t i = 0; i < len && in_.ok(); i++) units.push_back(in_.u16());
      append_utf16_as_utf8(&s, reinterpret_cast<const uint16_t *>(units.data()), units.size());
      break;
    }
    default:
      why_ = "JFR metadata: string with encoding " + std::to_string(enc);
      in_.fail_at(in_.pos() - 1);
    }
    return s;
  }

  const std::string &str() {
    static const std::string empty;
    int32_t i = in_.i32();
    if (!in_.ok()) return empty;
    if (i < 0 || static_cast<size_t>(i) >= strings_.size()) {
      why_ = "JFR metadata: string index " + std::to_string(i) + " out of range";
      in_.fail();
      return empty;
    }
    return strings_[i];
  }

  static bool parse_int(const std::string &s, int64_t *v) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
  }

  // Reads one element; `where` is what its parent was.
  void element(int depth, Context where) {
    if (depth > kMaxDepth) {
      why_ = "JFR metadata: elements nested too deeply";
      return in_.fail();
    }
    const std::string &name = str();
    Context self = Context::other;
    if (where == Context::root && name == "metadata")
      self = Context::metadata;
    else if (where == Context::metadata && name == "class")
      self = Context::klass;
    else if (where == Context::klass && name == "field")
      self = Context::field;
    else if (depth == 0)
      self = Context::root;
    bool annotation = (where == Context::klass || where == Context::field) && name == "annotation";

    JfrClass *cls = nullptr;
    JfrField *fld = nullptr;
    JfrAnnotation *ann = nullptr;
    if (self == Context::klass) {
      out_->classes.emplace_back();
      cls = &out_->classes.back();
    } else if (self == Context::field && !out_->classes.empty()) {
      out_->classes.back().fields.emplace_back();
      fld = &out_->classes.back().fields.back();
    } else if (annotation && !out_->classes.empty()) {
      JfrClass &c = out_->classes.back();
      auto &list = where == Context::field && !c.fields.empty() ? c.fields.back().annotations
                                                                : c.annotations;
      list.emplace_back();
      ann = &list.back();
    }

    uint32_t attrs = in_.count(2);
    for (uint32_t i = 0; i < attrs && in_.ok(); i++) {
      const std::string &key = str();
      const std::string &value = str();
      if (!in_.ok()) return;
      int64_t v = 0;
      if (cls) {
        if (key == "id") {
          if (!parse_int(value, &v)) return bad_attr(key, value);
          cls->id = v;
        } else if (key == "name") {
          cls->name = value;
        } else if (key == "superType") {
          cls->super_type = value;
        } else if (key == "simpleType") {
          cls->simple_type = value == "true";
        }
      } else if (fld) {
        if (key == "name") {
          fld->name = value;
        } else if (key == "class") {
          if (!parse_int(value, &v)) return bad_attr(key, value);
          fld->type_id = v;
        } else if (key == "constantPool") {
          fld->constant_pool = value == "true";
        } else if (key == "dimension") {
          if (!parse_int(value, &v) || v < 0 || v > 1) return bad_attr(key, value);
          fld->array = v == 1;
        }
      } else if (ann) {
        if (key == "class") {
          if (!parse_int(value, &v)) return bad_attr(key, value);
          ann->type_id = v;
        } else if (key == "value") {
          ann->value = value;
        }
      }
    }
    uint32_t children = in_.count(3);
    // Pointers into the vectors are invalid once children are added; they are not used below.
    for (uint32_t i = 0; i < children && in_.ok(); i++) element(depth + 1, self);
  }

  void bad_attr(const std::string &key, const std::string &value) {
    why_ = "JFR metadata: bad attribute " + key + "=\"" + value.substr(0, 40) + "\"";
    in_.fail();
  }

  JfrInput &in_;
  JfrMetadata *out_;
  std::vector<std::string> strings_;
  std::string why_;
};

} // namespace

bool read_jfr_metadata(JfrInput in, JfrMetadata *out, std::string *error, int64_t *error_offset) {
  size_t start = in.pos();
  // The event's own size bounds everything in it.
  JfrInput sized = in;
  int32_t size = sized.i32();
  if (!sized.ok() || size <= 0 || static_cast<size_t>(size) > in.remaining()) {
    *error = "JFR metadata event has a bad size";
    *error_offset = static_cast<int64_t>(start);
    return false;
  }
  JfrInput ev = in.sub(start, static_cast<size_t>(size));
  MetadataParser p(ev, out);
  if (!p.run(error)) {
    *error_offset = ev.fail_offset() >= 0 ? ev.fail_offset() : static_cast<int64_t>(start);
    return false;
  }
  if (!out->index(error)) {
    *error_offset = static_cast<int64_t>(start);
    return false;
  }
  return true;
}

} // namespace hotlines
