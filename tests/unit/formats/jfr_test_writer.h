// A small JFR writer for tests: declares classes, writes the metadata event, constant pools
// spread over any number of chained checkpoints, and events, with compressed or fixed-width
// integers and any string encoding. Produces chunks byte for byte as the format describes, so
// the reader can be tested on what real producers rarely emit. Test-only; single-threaded.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace hotlines::test {

// Bytes with JFR integer encoding.
class JfrBytes {
public:
  explicit JfrBytes(bool compressed = true) : compressed_(compressed) {}
  std::string data;

  void u8(uint8_t v) { data.push_back(static_cast<char>(v)); }
  void be(uint64_t v, int n) {
    for (int i = n - 1; i >= 0; i--) u8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void varint(uint64_t v) {
    for (int i = 0; i < 8; i++) {
      if (v < 0x80) return u8(static_cast<uint8_t>(v));
      u8(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    u8(static_cast<uint8_t>(v));
  }
  void i16(int64_t v) {
    compressed_ ? varint(static_cast<uint64_t>(v)) : be(static_cast<uint64_t>(v), 2);
  }
  void i32(int64_t v) {
    compressed_ ? varint(static_cast<uint64_t>(static_cast<uint32_t>(v)))
                : be(static_cast<uint64_t>(v), 4);
  }
  void i64(int64_t v) {
    compressed_ ? varint(static_cast<uint64_t>(v)) : be(static_cast<uint64_t>(v), 8);
  }
  void boolean(bool b) { u8(b ? 1 : 0); }
  void f32(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    be(bits, 4);
  }
  void f64(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    be(bits, 8);
  }

  enum class Enc { null, empty, pool, utf8, utf16, latin1 };
  // A string in the given encoding; `pool_key` for Enc::pool.
  void str(const std::string &s, Enc enc = Enc::utf8, int64_t pool_key = 0) {
    switch (enc) {
    case Enc::null:
      return u8(0);
    case Enc::empty:
      return u8(1);
    case Enc::pool:
      u8(2);
      return i64(pool_key);
    case Enc::utf8:
      u8(3);
      i32(static_cast<int64_t>(s.size()));
      data += s;
      return;
    case Enc::latin1: { // s is UTF-8 with code points < 256
      std::string l1;
      for (size_t i = 0; i < s.size(); i++) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0xC0 && i + 1 < s.size()) {
          l1.push_back(
              static_cast<char>(((c & 0x1F) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3F)));
          i++;
        } else {
          l1.push_back(static_cast<char>(c));
        }
      }
      u8(5);
      i32(static_cast<int64_t>(l1.size()));
      data += l1;
      return;
    }
    case Enc::utf16: {
      std::u16string u = to_utf16(s);
      u8(4);
      i32(static_cast<int64_t>(u.size()));
      for (char16_t c : u) compressed_ ? varint(c) : be(c, 2);
      return;
    }
    }
  }

  bool compressed() const { return compressed_; }

  static std::u16string to_utf16(const std::string &s) {
    std::u16string out;
    for (size_t i = 0; i < s.size();) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      uint32_t cp;
      int n;
      if (c < 0x80)
        cp = c, n = 1;
      else if (c < 0xE0)
        cp = c & 0x1F, n = 2;
      else if (c < 0xF0)
        cp = c & 0x0F, n = 3;
      else
        cp = c & 0x07, n = 4;
      for (int k = 1; k < n; k++) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      i += n;
      if (cp >= 0x10000) {
        cp -= 0x10000;
        out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
        out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
      } else {
        out.push_back(static_cast<char16_t>(cp));
      }
    }
    return out;
  }

private:
  bool compressed_;
};

struct JfrTestField {
  JfrTestField(std::string n, std::string t, bool p = false, bool a = false,
               std::vector<std::pair<std::string, std::string>> ann = {})
      : name(std::move(n)), type(std::move(t)), pool(p), array(a), annotations(std::move(ann)) {}
  std::string name;
  std::string type; // class name
  bool pool = false;
  bool array = false;
  std::vector<std::pair<std::string, std::string>> annotations; // class name, value
};

struct JfrTestClass {
  int64_t id = 0;
  std::string name;
  std::string super_type;
  bool simple = false; // simpleType="true": a wrapper of its single field (Symbol, FrameType)
  std::vector<JfrTestField> fields;
};

// One chunk under construction.
class JfrTestChunk {
public:
  explicit JfrTestChunk(bool compressed = true) : compressed_(compressed), events_(compressed) {
    for (const char *p :
         {"boolean", "byte", "char", "short", "int", "long", "float", "double", "java.lang.String"})
      declare(p, {});
    // Annotation classes declare their members, as the JDK's own metadata does.
    declare("jdk.jfr.Timestamp", {JfrTestField("value", "java.lang.String")},
            "java.lang.annotation.Annotation");
    declare("jdk.jfr.Timespan", {JfrTestField("value", "java.lang.String")},
            "java.lang.annotation.Annotation");
  }

  int64_t start_nanos = 1'700'000'000'000'000'000;
  int64_t duration_nanos = 1'000'000'000;
  int64_t start_ticks = 5'000'000;
  int64_t ticks_per_second = 1'000'000'000;
  int checkpoints = 1; // pools are spread round-robin over this many checkpoints
  bool final_chunk = true;

  int64_t declare(const std::string &name, std::vector<JfrTestField> fields,
                  const std::string &super_type = "", bool simple = false) {
    JfrTestClass c;
    c.id = next_id_++;
    c.name = name;
    c.super_type = super_type;
    c.simple = simple;
    c.fields = std::move(fields);
    classes_.push_back(std::move(c));
    return classes_.back().id;
  }
  int64_t id(const std::string &name) const {
    for (const JfrTestClass &c : classes_)
      if (c.name == name) return c.id;
    return -1;
  }

  // A pool entry of class `cls` with key; `value` writes the value's bytes.
  void pool(const std::string &cls, int64_t key, const std::function<void(JfrBytes &)> &value) {
    pools_[cls].emplace_back(key, value);
  }
  // An event of class `cls`; `fields` writes its fields after size and type.
  void event(const std::string &cls, const std::function<void(JfrBytes &)> &fields) {
    JfrBytes body(compressed_);
    body.i64(id(cls));
    fields(body);
    append_sized(events_, body.data);
  }
  // Raw bytes appended to the event stream (for corrupt events).
  void raw_event_bytes(const std::string &bytes) { events_.data += bytes; }

  std::string bytes() const {
    JfrBytes out(compressed_);
    out.data.assign(68, '\0');
    const size_t metadata_at = out.data.size();
    append_sized(out, metadata_body());
    out.data += events_.data;
    // Checkpoints, each pointing back at the previous one.
    std::vector<std::string> bodies(std::max(1, checkpoints));
    std::vector<int> pool_counts(bodies.size(), 0);
    std::vector<JfrBytes> pool_bytes(bodies.size(), JfrBytes(compressed_));
    size_t k = 0;
    for (const auto &[cls, entries] : pools_) {
      size_t c = k++ % bodies.size();
      pool_bytes[c].i64(id(cls));
      pool_bytes[c].i32(static_cast<int64_t>(entries.size()));
      for (const auto &[key, write] : entries) {
        pool_bytes[c].i64(key);
        write(pool_bytes[c]);
      }
      pool_counts[c]++;
    }
    size_t prev = 0, last = 0;
    for (size_t c = 0; c < bodies.size(); c++) {
      const size_t at = out.data.size();
      JfrBytes body(compressed_);
      body.i64(1); // checkpoint type
      body.i64(start_ticks);
      body.i64(0);
      body.i64(c == 0 ? 0 : static_cast<int64_t>(prev) - static_cast<int64_t>(at));
      body.u8(c + 1 == bodies.size() ? 1 : 0);
      body.i32(pool_counts[c]);
      body.data += pool_bytes[c].data;
      append_sized(out, body.data);
      prev = at;
      last = at;
    }
    JfrBytes h(false);
    h.data = "FLR";
    h.u8(0);
    h.be(2, 2);
    h.be(1, 2);
    h.be(out.data.size(), 8);
    h.be(pools_.empty() && checkpoints == 0 ? 0 : last, 8);
    h.be(metadata_at, 8);
    h.be(static_cast<uint64_t>(start_nanos), 8);
    h.be(static_cast<uint64_t>(duration_nanos), 8);
    h.be(static_cast<uint64_t>(start_ticks), 8);
    h.be(static_cast<uint64_t>(ticks_per_second), 8);
    h.u8(0); // generation: finished
    h.u8(0);
    h.be((compressed_ ? 1 : 0) | (final_chunk ? 2 : 0), 2);
    out.data.replace(0, 68, h.data);
    return out.data;
  }

  // Appends a size-prefixed record (the size counts itself).
  static void append_sized(JfrBytes &out, const std::string &body) {
    if (!out.compressed()) {
      out.i32(static_cast<int64_t>(body.size() + 4));
      out.data += body;
      return;
    }
    uint64_t size = body.size() + 1;
    for (;;) {
      JfrBytes probe;
      probe.varint(size);
      if (probe.data.size() + body.size() == size) break;
      size = probe.data.size() + body.size();
    }
    out.varint(size);
    out.data += body;
  }

private:
  struct Element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attrs;
    std::vector<Element> children;
  };

  std::string metadata_body() const {
    Element root{"root", {}, {}};
    Element meta{"metadata", {}, {}};
    for (const JfrTestClass &c : classes_) {
      Element ce{"class", {{"id", std::to_string(c.id)}, {"name", c.name}}, {}};
      if (!c.super_type.empty()) ce.attrs.emplace_back("superType", c.super_type);
      if (c.simple) ce.attrs.emplace_back("simpleType", "true");
      for (const JfrTestField &f : c.fields) {
        Element fe{"field", {{"name", f.name}, {"class", std::to_string(id(f.type))}}, {}};
        if (f.pool) fe.attrs.emplace_back("constantPool", "true");
        if (f.array) fe.attrs.emplace_back("dimension", "1");
        for (const auto &[a, v] : f.annotations)
          fe.children.push_back(
              Element{"annotation", {{"class", std::to_string(id(a))}, {"value", v}}, {}});
        ce.children.push_back(std::move(fe));
      }
      meta.children.push_back(std::move(ce));
    }
    root.children.push_back(std::move(meta));
    root.children.push_back(Element{"region", {{"locale", "en_US"}, {"gmtOffset", "0"}}, {}});
    std::map<std::string, int> index;
    std::vector<std::string> table;
    std::function<void(const Element &)> collect = [&](const Element &e) {
      for (const std::string *s : {&e.name}) add(index, table, *s);
      for (const auto &[k, v] : e.attrs) {
        add(index, table, k);
        add(index, table, v);
      }
      for (const Element &c : e.children) collect(c);
    };
    collect(root);
    JfrBytes b(compressed_);
    b.i64(0); // type
    b.i64(start_ticks);
    b.i64(0);
    b.i64(1); // metadata id
    b.i32(static_cast<int64_t>(table.size()));
    for (const std::string &s : table) b.str(s);
    std::function<void(const Element &)> write = [&](const Element &e) {
      b.i32(index[e.name]);
      b.i32(static_cast<int64_t>(e.attrs.size()));
      for (const auto &[k, v] : e.attrs) {
        b.i32(index[k]);
        b.i32(index[v]);
      }
      b.i32(static_cast<int64_t>(e.children.size()));
      for (const Element &c : e.children) write(c);
    };
    write(root);
    return b.data;
  }

  static void add(std::map<std::string, int> &index, std::vector<std::string> &table,
                  const std::string &s) {
    if (index.emplace(s, static_cast<int>(table.size())).second) table.push_back(s);
  }

  bool compressed_;
  int64_t next_id_ = 10;
  std::vector<JfrTestClass> classes_;
  std::map<std::string, std::vector<std::pair<int64_t, std::function<void(JfrBytes &)>>>> pools_;
  JfrBytes events_;
};

} // namespace hotlines::test
