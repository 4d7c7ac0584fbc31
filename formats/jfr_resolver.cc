// Resolving a JFR chunk's constant-pool references into the profile model (see
// jfr_resolver.h). Class names of native frames are library names for async-profiler; Java
// frames get dotted display names with hidden classes normalized (jvm_names.h).
#include "formats/jfr_resolver.h"

#include "formats/jfr_text.h"
#include "formats/jvm_names.h"

#include <algorithm>

namespace hotlines {

namespace {

FrameKind frame_kind_of(std::string_view d) {
  if (d == "Interpreted") return FrameKind::interpreted;
  if (d == "JIT compiled") return FrameKind::jit;
  if (d == "Inlined") return FrameKind::inlined;
  if (d == "C1 compiled") return FrameKind::c1;
  if (d == "Native") return FrameKind::native;
  if (d == "C++") return FrameKind::cpp;
  if (d == "Kernel") return FrameKind::kernel;
  return FrameKind::unknown;
}

// async-profiler records the library of a native frame where a Java frame has its class
// (`libjvm.so`, `/usr/lib/libc.so.6`, `vdso`, "" for the kernel) and marks the method with the
// descriptor `()L;`; a JNI method of a Java class has a real descriptor. One rule for every
// library: the frame's function is the bare symbol, and the library is kept beside it.
bool is_library_method(std::string_view cls, std::string_view descriptor) {
  return descriptor == "()L;" || cls.empty() || cls.front() == '/' ||
         cls.find(".so") != std::string_view::npos || cls.ends_with(".dll") ||
         cls.ends_with(".dylib");
}

} // namespace

const JfrConstantPools &JfrResolver::pools() {
  static const JfrConstantPools none;
  if (!pools_ && load_pools_) pools_ = load_pools_();
  if (!pools_) {
    load_pools_ = nullptr; // corrupt: the caller has the error; nothing resolves
    return none;
  }
  return *pools_;
}

void JfrResolver::rebase(std::string_view data) {
  data_ = data;
  class_names_ = {};
  methods_ = {};
  method_infos_.clear();
  frame_memo_.clear(); // frames hold function ids from method_infos_
  raw_ = nullptr;
  raw_ids_.clear();
}

void JfrResolver::missing(int cls, uint64_t key, size_t at) {
  if (key == 0) return; // 0 is how writers say null
  if (missing_refs_++ == 0) {
    missing_ref_offset_ = static_cast<int64_t>(at);
    missing_ref_what_ = md_.classes[cls].name + " " + std::to_string(key);
  }
}

std::string_view JfrResolver::keep(std::string s) {
  arena_.push_back(std::move(s));
  return arena_.back();
}

std::string_view JfrResolver::text(const JfrValue &v, size_t at, int depth) {
  if (depth > 4) return {};
  if (v.kind == JfrValue::reference) {
    size_t off = pools().find(v.type, static_cast<uint64_t>(v.i));
    if (!off) {
      missing(v.type, static_cast<uint64_t>(v.i), at);
      return {};
    }
    JfrInput in = input_at(off);
    JfrValue inner = dec_.read_pool_scalar(v.type, in);
    return text(inner, off, depth + 1);
  }
  if (v.kind != JfrValue::string) return {};
  switch (v.encoding) {
  case 2: {
    JfrValue ref;
    ref.kind = JfrValue::reference;
    ref.type = dec_.string_class();
    ref.i = v.i;
    if (ref.type < 0) return {};
    return text(ref, at, depth + 1);
  }
  case 3: {
    std::string_view s(data_.data() + v.i, v.length);
    if (is_valid_utf8(s)) return s;
    std::string out;
    append_sanitized_utf8(&out, s);
    return keep(std::move(out));
  }
  case 5: {
    std::string_view s(data_.data() + v.i, v.length);
    bool ascii = true;
    for (char c : s) ascii &= static_cast<unsigned char>(c) < 0x80;
    if (ascii) return s;
    std::string out;
    append_latin1_as_utf8(&out, s);
    return keep(std::move(out));
  }
  case 4: {
    JfrInput in = input_at(static_cast<size_t>(v.i));
    std::u16string units;
    units.reserve(v.length);
    for (uint32_t i = 0; i < v.length && in.ok(); i++) units.push_back(in.u16());
    std::string out;
    append_utf16_as_utf8(&out, reinterpret_cast<const uint16_t *>(units.data()), units.size());
    return keep(std::move(out));
  }
  default:
    return {};
  }
}

// Slot map of class `cls` for the named fields (slot i for names[i]), cached in `cache`.
const int8_t *JfrResolver::slots_for(std::vector<std::vector<int8_t>> &cache, int cls,
                                     std::initializer_list<std::string_view> names) {
  if (cache.size() < md_.classes.size()) cache.resize(md_.classes.size());
  std::vector<int8_t> &s = cache[cls];
  if (s.empty()) {
    s.assign(md_.classes[cls].fields.size() + 1, -1); // +1: never empty once built
    int8_t slot = 0;
    for (std::string_view n : names) {
      int f = md_.field(cls, n);
      if (f >= 0) s[f] = slot;
      slot++;
    }
  }
  return s.data();
}

const int8_t *JfrResolver::frame_slots(int cls) {
  if (frame_slots_.size() < md_.classes.size()) frame_slots_.resize(md_.classes.size());
  std::vector<int8_t> &s = frame_slots_[cls];
  if (s.empty()) s = jfr_frame_slots(md_, cls);
  return s.data();
}

ThreadId JfrResolver::unknown_thread() {
  if (unknown_thread_ == kNull) unknown_thread_ = b_->thread("");
  return unknown_thread_;
}

// kNull when the reference is null or missing.
ThreadId JfrResolver::resolve_thread(int type, uint64_t key, size_t at) {
  if (const ThreadId *t = threads_.find(key)) {
    last_thread_key_ = key;
    return last_thread_ = *t;
  }
  ThreadId id = kNull;
  size_t off = pools().find(type, key);
  if (!off) {
    missing(type, key, at);
  } else if (md_.classes[type].kind == JfrKind::object) {
    JfrValue f[4];
    JfrInput in = input_at(off);
    dec_.read_fields(
        type, slots_for(thread_slots_, type, {"osName", "osThreadId", "javaName", "javaThreadId"}),
        in, f);
    std::string_view os_name = text(f[0], off), java_name = text(f[2], off);
    int64_t os_tid = f[1].kind == JfrValue::integer ? f[1].i : -1;
    int64_t java_tid = f[3].kind == JfrValue::integer ? f[3].i : -1;
    if (java_name.empty() && java_tid == 0) java_tid = -1;
    id = b_->thread(java_name.empty() ? os_name : java_name, os_tid, java_tid);
  }
  threads_.insert(key, id);
  last_thread_key_ = key;
  return last_thread_ = id;
}

std::string_view JfrResolver::class_name(const JfrValue &v, size_t at) {
  if (v.kind != JfrValue::reference) return text(v, at);
  uint64_t key = static_cast<uint64_t>(v.i);
  if (const std::string_view *s = class_names_.find(key)) return *s;
  std::string_view name;
  size_t off = pools().find(v.type, key);
  if (!off) {
    missing(v.type, key, at);
  } else if (md_.classes[v.type].kind == JfrKind::object) {
    JfrValue f[1];
    JfrInput in = input_at(off);
    dec_.read_fields(v.type, slots_for(class_slots_, v.type, {"name"}), in, f);
    name = text(f[0], off);
  } else {
    name = text(v, at);
  }
  class_names_.insert(key, name);
  return name;
}

JfrResolver::MethodInfo *JfrResolver::method(const JfrValue &v, size_t at) {
  if (v.kind != JfrValue::reference) return nullptr;
  uint64_t key = static_cast<uint64_t>(v.i);
  if (const uint32_t *m = methods_.find(key)) return *m == kNull ? nullptr : &method_infos_[*m];
  size_t off = pools().find(v.type, key);
  if (!off || md_.classes[v.type].kind != JfrKind::object) {
    if (!off) missing(v.type, key, at);
    methods_.insert(key, kNull);
    return nullptr;
  }
  JfrValue f[3];
  JfrInput in = input_at(off);
  dec_.read_fields(v.type, slots_for(method_slots_, v.type, {"type", "name", "descriptor"}), in, f);
  MethodInfo mi;
  mi.cls = class_name(f[0], off);
  mi.name = text(f[1], off);
  mi.descriptor = text(f[2], off);
  mi.library = is_library_method(mi.cls, mi.descriptor);
  methods_.insert(key, static_cast<uint32_t>(method_infos_.size()));
  method_infos_.push_back(mi);
  return &method_infos_.back();
}

FunctionId JfrResolver::function(MethodInfo *m, bool java) {
  if (!m) {
    if (unknown_function_ == kNull) {
      Function f;
      f.name = b_->intern("[unknown]");
      unknown_function_ = b_->function(f);
    }
    return unknown_function_;
  }
  FunctionId &slot = java ? m->java_fn : m->native_fn;
  if (slot != kNull) return slot;
  Function f;
  f.method = b_->intern(m->name);
  f.system_name = b_->intern(m->descriptor);
  if (java) {
    f.class_name = b_->intern(m->cls);
    f.name = b_->intern(jvm_display_name(m->cls, m->name));
  } else {
    f.library = b_->intern(m->cls);
    f.name = f.method;
  }
  slot = b_->function(f);
  return slot;
}

FrameKind JfrResolver::frame_kind(const JfrValue &v, size_t at) {
  if (v.kind == JfrValue::reference) {
    uint64_t key = static_cast<uint64_t>(v.i);
    if (const FrameKind *k = frame_kinds_.find(key)) return *k;
    FrameKind k = frame_kind_of(text(v, at));
    frame_kinds_.insert(key, k);
    return k;
  }
  return frame_kind_of(text(v, at));
}

// f: method, lineNumber, bytecodeIndex, type
FrameId JfrResolver::frame(const JfrValue *f, size_t at) {
  FrameKind kind = frame_kind(f[3], at);
  MethodInfo *m = method(f[0], at);
  bool java = kind != FrameKind::cpp && kind != FrameKind::kernel &&
              !(kind == FrameKind::native && m && m->library);
  Frame fr;
  fr.function = function(m, java);
  fr.kind = kind;
  if (java) {
    int64_t line = f[1].kind == JfrValue::integer ? f[1].i : 0;
    fr.line = line > 0 && line <= INT32_MAX ? static_cast<int32_t>(line) : 0;
    fr.bci = f[2].kind == JfrValue::integer ? static_cast<int32_t>(f[2].i) : -1;
  }
  return b_->frame(fr);
}

void JfrResolver::begin_slice(const JfrRawStacks *raw) {
  raw_ = raw;
  raw_ids_.assign(raw ? raw->frames.size() : 0, kNull);
}

void JfrResolver::stack(int type, uint64_t key, size_t at, size_t ref, StackId *out) {
  if (const StackId *s = stacks_.find(key)) {
    *out = *s;
    return;
  }
  if (const uint32_t *e = batch_index_.find(key)) {
    batch_outs_.emplace_back(*e, out);
    return;
  }
  if (raw_ && ref < raw_->stacks.size() && raw_->stacks[ref].begin != JfrRawStacks::kUnread) {
    raw_stack(raw_->stacks[ref]);
    add_to_batch(key, out);
    return;
  }
  const size_t off = pools().find(type, key);
  if (!off) {
    missing(type, key, at);
  } else if (md_.classes[type].kind == JfrKind::object && (!pages_ || pages_->ensure(off))) {
    const size_t begin = batch_frames_.size();
    if (decode_stack(type, off)) {
      add_to_batch(key, out);
      return;
    }
    batch_frames_.resize(begin);
  }
  stacks_.insert(key, kNoStack);
  *out = kNoStack;
}

void JfrResolver::add_to_batch(uint64_t key, StackId *out) {
  const uint32_t e = static_cast<uint32_t>(batch_ends_.size());
  batch_ends_.push_back(static_cast<uint32_t>(batch_frames_.size()));
  batch_keys_.push_back(key);
  batch_index_.insert(key, e);
  batch_outs_.emplace_back(e, out);
  // Batches stay small enough for 32-bit ends and 16 MB of frames; the bigger a batch, the
  // more of its stacks' prefixes stacks_from_leaf finds without a lookup (on deep-stacks-ap.jfr,
  // whose windows of stack traces hold a few M frames, 4 M frames did a little better than 1 M).
  if (batch_frames_.size() >= (size_t{1} << 22)) build_stacks();
}

void JfrResolver::raw_stack(JfrRawStacks::Span span) {
  for (uint32_t i = span.begin; i < span.end; i++) {
    const uint32_t f = raw_->refs[i];
    FrameId &id = raw_ids_[f];
    if (id == kNull) {
      const JfrRawStacks::Frame &fr = raw_->frames[f];
      FrameId *memo = frame_memo_.find_or_add(fr.key);
      if (*memo == kNull) { // new to the chunk: decode its fields
        // Its bytes are in a stack-trace pool, perhaps given back since they were read ahead.
        // When they cannot be read again, what is there is decoded and resolve() fails.
        if (pages_) pages_->ensure(fr.at);
        JfrValue v[4];
        JfrInput in = input_at(fr.at).sub(fr.at, fr.end - fr.at);
        dec_.read_fields(fr.cls, frame_slots(fr.cls), in, v);
        *memo = frame(v, fr.at);
      }
      id = *memo;
    }
    batch_frames_.push_back(id);
  }
}

void JfrResolver::build_stacks() {
  batch_ids_.resize(batch_ends_.size());
  b_->stacks_from_leaf(batch_frames_, batch_ends_, batch_ids_.data());
  for (size_t e = 0; e < batch_keys_.size(); e++) stacks_.insert(batch_keys_[e], batch_ids_[e]);
  for (const auto &[e, out] : batch_outs_) *out = batch_ids_[e];
  batch_frames_.clear();
  batch_ends_.clear();
  batch_keys_.clear();
  batch_index_.clear();
  batch_outs_.clear();
}

bool JfrResolver::decode_stack(int cls, size_t off) {
  if (frames_field_.size() < md_.classes.size()) frames_field_.assign(md_.classes.size(), -2);
  if (frames_field_[cls] == -2) frames_field_[cls] = md_.field(cls, "frames");
  const int ff = frames_field_[cls];
  JfrInput in = input_at(off);
  const auto &codes = dec_.codes(cls);
  for (size_t i = 0; i < codes.size() && in.ok(); i++) {
    const JfrDecoder::FieldCode &fc = codes[i];
    if (static_cast<int>(i) != ff || !fc.array ||
        (fc.code != JfrDecoder::kStruct && fc.code != JfrDecoder::kRef)) {
      dec_.skip_field(fc, in);
      continue;
    }
    uint32_t n = in.count(
        std::max<size_t>(1, dec_.min_size(JfrDecoder::FieldCode{fc.code, false, fc.type})));
    const int8_t *slots = frame_slots(fc.type);
    for (uint32_t k = 0; k < n && in.ok(); k++) {
      JfrValue f[4];
      size_t frame_at = in.pos();
      if (fc.code == JfrDecoder::kStruct) {
        dec_.read_fields(fc.type, slots, in, f);
      } else { // frames as references into a StackFrame pool
        uint64_t fkey = static_cast<uint64_t>(in.i64());
        size_t foff = pools().find(fc.type, fkey);
        if (!foff) {
          missing(fc.type, fkey, frame_at);
        } else if (md_.classes[fc.type].kind == JfrKind::object) {
          JfrInput fin = input_at(foff);
          dec_.read_fields(fc.type, slots, fin, f);
        }
      }
      if (in.ok()) batch_frames_.push_back(frame(f, frame_at));
    }
  }
  // Pool entries were walked once when indexed, so this cannot fail on its own; be safe.
  return in.ok();
}

} // namespace hotlines
