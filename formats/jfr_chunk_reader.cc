// Reading one JFR chunk into the profile model (see jfr_chunk_reader.h). survey(): metadata ->
// handlers -> walk event headers (count samples, cut slices, decode settings). decode(): a
// slice's samples with per-type compiled field ops, references collected per slice;
// read_stacks(): constant-pool index (once) -> the slice's stack traces read ahead
// (jfr_raw_stacks.h). resolve(): references through JfrResolver, which decodes each pool entry
// once.
#include "formats/jfr_chunk_reader.h"

#include "formats/jfr_constant_pool.h"
#include "formats/jfr_decoder.h"
#include "formats/jfr_event_table.h"
#include "formats/jfr_id_map.h"
#include "formats/jfr_metadata.h"
#include "formats/jfr_metadata_cache.h"
#include "formats/jfr_resolver.h"
#include "formats/jfr_unread_bytes.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <mutex>
#include <unordered_map>

namespace hotlines {

namespace {

// Slots an event's interesting fields are decoded into.
enum Slot : int8_t {
  kTime,
  kSampledThread,
  kEventThread,
  kStack,
  kWeightA,
  kWeightB,
  kState,
  kSlots
};

// How a time field is expressed (jdk.jfr.Timestamp / jdk.jfr.Timespan annotations).
enum class TimeUnit : uint8_t { ticks, nanos, micros, millis, seconds, raw };

TimeUnit timestamp_unit(const std::string *a) {
  if (!a || *a == "TICKS") return TimeUnit::ticks;
  if (*a == "NANOSECONDS_SINCE_EPOCH") return TimeUnit::nanos;
  if (*a == "MILLISECONDS_SINCE_EPOCH") return TimeUnit::millis;
  return TimeUnit::ticks;
}

TimeUnit timespan_unit(const std::string *a) {
  if (!a) return TimeUnit::raw;
  if (*a == "TICKS") return TimeUnit::ticks;
  if (*a == "NANOSECONDS") return TimeUnit::nanos;
  if (*a == "MICROSECONDS") return TimeUnit::micros;
  if (*a == "MILLISECONDS") return TimeUnit::millis;
  if (*a == "SECONDS") return TimeUnit::seconds;
  return TimeUnit::raw;
}

int64_t d2l(double d) { // Java's double-to-long: saturating, NaN is 0
  if (std::isnan(d)) return 0;
  if (d >= 9.223372036854775807e18) return INT64_MAX;
  if (d <= -9.223372036854775808e18) return INT64_MIN;
  return static_cast<int64_t>(d);
}

int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return r;
}

// "10 ms", "20ms", "1 s", "500 us", "5000000" -> nanoseconds; 0 when not a duration.
int64_t parse_period(std::string_view s) {
  int64_t n = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), n);
  if (r.ec != std::errc() || n < 0) return 0;
  std::string_view unit = s.substr(static_cast<size_t>(r.ptr - s.data()));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty() || unit == "ns") return n;
  if (unit == "us") return sat_mul(n, 1000);
  if (unit == "ms") return sat_mul(n, 1000000);
  if (unit == "s") return sat_mul(n, 1000000000);
  return 0;
}

constexpr uint32_t kNull = UINT32_MAX;

// One field of a sample event: how to read it and where it goes (slot -1: skipped).
struct Op {
  enum Fast : uint8_t { generic, skip_varint, read_varint };
  JfrDecoder::Code code;
  int8_t slot;
  bool array;
  int type;
  Fast fast = generic; // the common cases of compressed integers, decided once per type
};

struct Handler {
  enum Kind : uint8_t { sample, active_setting, jvm_information };
  Kind kind = sample;
  int cls = -1;
  const JfrEventRule *rule = nullptr;
  std::vector<Op> ops;
  bool all_varint = false;                             // every op is skip_varint or read_varint
  uint32_t varint_mask = 0;                            // then: the slots they read
  int ref_type[kSlots] = {-1, -1, -1, -1, -1, -1, -1}; // pool class of reference slots
  TimeUnit time_unit = TimeUnit::ticks;
  TimeUnit duration_unit = TimeUnit::raw;
  size_t range = SIZE_MAX; // index into the caller's column ranges
  uint8_t source = 0;      // index into its event's sources
  int64_t count = 0;       // survey: events of this type
  // settings: field indexes
  int f_name = -1, f_value = -1, f_id = -1;
};

} // namespace

struct JfrChunkReader::Impl {
  Impl(std::string_view bytes, const JfrChunkHeader &c, int64_t start, const LoadOptions &o,
       JfrMetadataCache *shared)
      : data(bytes), chunk(c), file_offset(c.offset), profile_start(start), options(o),
        cache(shared ? shared : &own_cache) {
    chunk.offset = 0; // offsets are in `data`, the chunk's own bytes
  }

  std::string_view data; // the chunk's bytes: every offset inside the reader is into them
  JfrChunkHeader chunk;
  size_t file_offset; // of the chunk in the file, added to the offsets the reader reports
  int64_t profile_start;
  const LoadOptions &options;
  JfrChunkInfo info;
  std::string error;
  int64_t error_offset = -1;

  bool prepared = false;
  std::once_flag pools_once; // the pools load once, on whichever thread needs them first
  bool pools_ok = false;
  JfrMetadataCache own_cache;
  JfrMetadataCache *cache;
  JfrMetadataCache::Entry types; // metadata and decoder, shared with other chunks
  const JfrMetadata *md = nullptr;
  const JfrDecoder *dec = nullptr;
  JfrConstantPools pools;
  std::vector<Handler> handlers;
  std::vector<uint32_t> direct;     // small type ids -> handler
  JfrIdMap<uint32_t> handler_of;    // other type ids -> handler
  std::vector<uint32_t> first_seen; // sample handlers in order of their first event

  // Clock: ticks -> ns since the profile start.
  int64_t chunk_start_rel = 0;
  double divisor = 1;
  bool unit_ticks = false; // one tick per nanosecond

  std::unique_ptr<JfrResolver> res; // pool references -> threads, stacks, text

  // Set by give_back_stack_pages(): how the bytes are read again, and whether the stack-trace
  // pools' pages are given back before every read_stacks() and resolve(). `pages` is made
  // once, by the first slice that reads stacks.
  JfrPoolPages::Reread reread;
  bool reread_always = false;
  bool pools_unread = false; // the attached bytes lack the stack-trace pools' whole pages
  // Set by read_later(): bytes not read yet, read as the pools are indexed, which gives back
  // the stack-trace pools' pages behind it (stack_pages_out) for `pages` to read again.
  std::unique_ptr<JfrUnreadBytes> unread;
  bool stack_pages_out = false;
  std::once_flag pages_once;
  std::unique_ptr<JfrPoolPages> pages;

  // Set by plan_stack_windows(): the stack-trace entries that samples can reference, in file
  // order, cut into windows (window w is in_order[window_first[w], window_first[w + 1])), and
  // the windows' bytes within the pools, which `pages` gives back window by window.
  struct PoolEntry {
    size_t offset = 0; // of the entry's value
    uint64_t key = 0;
    int cls = -1;
  };
  std::vector<PoolEntry> in_order;
  std::vector<size_t> window_first;
  std::vector<JfrConstantPools::Range> window_ranges;
  // Set by plan_stack_windows(only_wanted) and want_stacks(): the windows give only the
  // entries whose keys are wanted: bit k of `wanted_bits` for key k when the entries' keys are
  // below 64 times their number (the JDK's and async-profiler's count up from 1: a bit or two per
  // entry), else in `wanted`.
  bool only_wanted = false;
  std::vector<uint64_t> wanted_bits;
  JfrIdMap<char> wanted;
  void want(uint64_t key) {
    if (wanted_bits.empty())
      wanted.insert(key, 1);
    else if (key / 64 < wanted_bits.size()) // others are no entry's
      wanted_bits[key / 64] |= uint64_t{1} << (key % 64);
  }
  bool is_wanted(uint64_t key) const {
    if (wanted_bits.empty()) return wanted.find(key) != nullptr;
    return key / 64 < wanted_bits.size() && (wanted_bits[key / 64] >> (key % 64)) & 1;
  }

  // Settings seen in the chunk.
  std::string version, jvm_name, jvm_version;
  int64_t exec_type_id = -1;

  bool fail(std::string msg, int64_t at) {
    if (error.empty()) {
      error = std::move(msg);
      error_offset = at;
    }
    return false;
  }

  JfrInput input_at(size_t pos) const {
    JfrInput in(data, chunk.offset + JfrChunkHeader::kSize, chunk.end(),
                chunk.compressed_integers());
    in.seek(pos);
    return in;
  }

  bool load_pools() {
    std::call_once(pools_once, [&] {
      std::vector<char> give_back;
      if (unread) {
        give_back.assign(md->classes.size(), 0);
        for (int cls : stack_classes()) give_back[static_cast<size_t>(cls)] = 1;
      }
      pools_ok = pools.load(data, chunk, *dec, &error, &error_offset, unread.get(), give_back);
      stack_pages_out = unread && unread->given_back() > 0;
    });
    return pools_ok;
  }

  // The pool classes that samples' stacks reference.
  std::vector<int> stack_classes() const {
    std::vector<int> classes;
    for (const Handler &h : handlers)
      if (h.kind == Handler::sample && h.ref_type[kStack] >= 0 &&
          std::find(classes.begin(), classes.end(), h.ref_type[kStack]) == classes.end())
        classes.push_back(h.ref_type[kStack]);
    return classes;
  }

  // Where the entries of the pools that samples' stacks reference are, in file order, those
  // that overlap (checkpoints of a corrupt file can) merged; none when the pools are corrupt.
  std::vector<JfrConstantPools::Range> stack_ranges() {
    std::vector<JfrConstantPools::Range> ranges, merged;
    if (!load_pools()) return ranges;
    for (int cls : stack_classes())
      ranges.insert(ranges.end(), pools.ranges(cls).begin(), pools.ranges(cls).end());
    std::sort(ranges.begin(), ranges.end(),
              [](const auto &a, const auto &b) { return a.begin < b.begin; });
    for (const JfrConstantPools::Range &r : ranges)
      if (!merged.empty() && r.begin < merged.back().end)
        merged.back().end = std::max(merged.back().end, r.end);
      else
        merged.push_back(r);
    return merged;
  }

  size_t plan_stack_windows(size_t bytes, bool force, bool only) {
    only_wanted = only;
    const std::vector<JfrConstantPools::Range> ranges = stack_ranges();
    if (ranges.empty()) return 0;
    if (!force && (ranges.size() > 1 ||
                   (ranges[0].end - ranges[0].begin) * 4 < static_cast<size_t>(chunk.size)))
      return 0;
    const std::vector<int> classes = stack_classes();
    for (int cls : classes)
      for (const auto &[offset, key] : pools.in_file_order(cls))
        in_order.push_back(PoolEntry{offset, key, cls});
    if (classes.size() > 1)
      std::sort(in_order.begin(), in_order.end(),
                [](const PoolEntry &a, const PoolEntry &b) { return a.offset < b.offset; });
    if (in_order.empty()) return 0;
    uint64_t max_key = 0;
    for (const PoolEntry &e : in_order) max_key = std::max(max_key, e.key);
    if (only_wanted && max_key / 64 < in_order.size()) wanted_bits.assign(max_key / 64 + 1, 0);
    for (size_t i = 0; i < in_order.size(); i++)
      if (i == 0 || in_order[i].offset - in_order[window_first.back()].offset >= bytes)
        window_first.push_back(i);
    window_first.push_back(in_order.size());
    // Each window's bytes, [its first entry, the next window's), within the pools' ranges.
    size_t r = 0;
    for (size_t w = 0; w + 1 < window_first.size(); w++) {
      const size_t lo = in_order[window_first[w]].offset, hi = window_end(w);
      while (r < ranges.size() && ranges[r].end <= lo) r++;
      for (size_t q = r; q < ranges.size() && ranges[q].begin < hi; q++) {
        const size_t b = std::max(lo, ranges[q].begin), e = std::min(hi, ranges[q].end);
        if (b < e) window_ranges.push_back(JfrConstantPools::Range{b, e});
      }
    }
    if (stack_pages_out && !read_between_windows(ranges)) {
      in_order.clear();
      window_first.clear();
      window_ranges.clear();
      wanted_bits = {};
      return 0; // the pools' pages are read whole when needed
    }
    return window_first.size() - 1;
  }

  // With the stack-trace pools' pages given back as they were indexed, reads again those that
  // are in no window's whole pages (where one window ends and the next begins), which no
  // window reads: false when the file cannot be read.
  bool read_between_windows(const std::vector<JfrConstantPools::Range> &ranges) {
    std::string err;
    size_t w = 0;
    for (const JfrConstantPools::Range &r : ranges) {
      size_t at, end;
      JfrPoolPages::whole_pages(data.data(), data.size(), r, &at, &end);
      for (; w < window_ranges.size() && window_ranges[w].begin < r.end; w++) {
        size_t b, e;
        JfrPoolPages::whole_pages(data.data(), data.size(), window_ranges[w], &b, &e);
        if (b == e) continue;
        if (at < b && !unread->ensure(at, b, &err, false)) return false;
        at = std::max(at, e);
      }
      if (at < end && !unread->ensure(at, end, &err, false)) return false;
    }
    return true;
  }

  // Where window w's bytes end: at the next window's first entry, or the chunk's end.
  size_t window_end(size_t w) const {
    return w + 2 < window_first.size() ? in_order[window_first[w + 1]].offset : chunk.end();
  }

  void window_refs(size_t w, JfrSliceRefs *refs) const {
    refs->stacks.clear();
    refs->order.clear();
    for (size_t i = window_first[w]; i < window_first[w + 1]; i++) {
      const PoolEntry &e = in_order[i];
      if (only_wanted && !is_wanted(e.key)) continue;
      refs->order.push_back(3 * static_cast<uint32_t>(refs->stacks.size()));
      refs->stacks.push_back(JfrSliceRefs::Ref{e.cls, -1, e.key, 0, e.offset});
    }
  }

  // The stack-trace pools' pages, once the pools are loaded; nullptr when they stay resident.
  JfrPoolPages *stack_pages() {
    std::call_once(pages_once, [&] {
      if (!reread) return;
      // The reader's own buffer (give_back_stack_pages()): its pages may be given back and
      // written again with the same bytes.
      pages = std::make_unique<JfrPoolPages>(const_cast<char *>(data.data()), data.size(),
                                             window_ranges.empty() ? stack_ranges() : window_ranges,
                                             reread, pools_unread, !reread_always);
      res->set_pages(pages.get());
    });
    return pages.get();
  }

  // The stack-trace pools' pages (nullptr when they stay resident) and a use() of them, given
  // back first when the load asks for every read to be a reread.
  JfrPoolPages *use_stack_pages(std::shared_lock<std::shared_mutex> *use) {
    JfrPoolPages *const pp = stack_pages();
    if (!pp) return nullptr;
    if (reread_always) pp->release_all();
    *use = pp->use();
    return pp;
  }

  // ---- setup ------------------------------------------------------------------------------
  bool prepare() {
    if (prepared) return error.empty();
    prepared = true;
    chunk_start_rel = sat_add(chunk.start_nanos, -profile_start);
    divisor = static_cast<double>(chunk.ticks_per_second) / 1e9;
    unit_ticks = divisor == 1.0;
    types = cache->get(data, chunk, &error, &error_offset);
    if (!types.metadata) return false;
    md = types.metadata.get();
    dec = types.decoder.get();
    res = std::make_unique<JfrResolver>(data, chunk, *md, *dec);
    res->set_pools(
        [this]() -> const JfrConstantPools * { return load_pools() ? &pools : nullptr; });
    setup_handlers();
    return true;
  }

  // The table's rule for an event class, else the by-type rule when its events carry a stack.
  const JfrEventRule *sample_rule(int c) const {
    const JfrClass &cls = md->classes[c];
    if (const JfrEventRule *r = find_jfr_event_rule(cls.name)) return r;
    if (cls.super_type != "jdk.jfr.Event" || cls.name == "jdk.ActiveSetting" ||
        cls.name == "jdk.JVMInformation")
      return nullptr;
    if (md->field(c, "stackTrace") < 0) return nullptr;
    return jfr_event_rule_by_type(md->field(c, "duration") >= 0);
  }

  void setup_handlers() {
    for (size_t c = 0; c < md->classes.size(); c++) {
      const JfrClass &cls = md->classes[c];
      if (cls.name == "jdk.ExecutionSample") exec_type_id = cls.id;
      Handler h;
      h.cls = static_cast<int>(c);
      if (const JfrEventRule *r = sample_rule(static_cast<int>(c))) {
        h.kind = Handler::sample;
        h.rule = r;
        const auto &codes = dec->codes(h.cls);
        for (const JfrDecoder::FieldCode &fc : codes)
          h.ops.push_back(Op{fc.code, -1, fc.array, fc.type});
        auto put = [&](std::string_view name, Slot s) {
          int f = md->field(h.cls, name);
          if (f < 0) return f;
          Op &op = h.ops[f];
          if (op.array || op.code == JfrDecoder::kStruct || op.code == JfrDecoder::kString)
            return -1;
          op.slot = s;
          h.ref_type[s] = op.code == JfrDecoder::kRef ? op.type : -1;
          return f;
        };
        int t = put("startTime", kTime);
        if (t >= 0)
          h.time_unit =
              timestamp_unit(md->annotation(cls.fields[t].annotations, "jdk.jfr.Timestamp"));
        put("sampledThread", kSampledThread);
        put("eventThread", kEventThread);
        put("stackTrace", kStack);
        put("state", kState);
        switch (r->weight) {
        case JfrWeight::one:
          break;
        case JfrWeight::samples:
          put("samples", kWeightA);
          break;
        case JfrWeight::tlab_or_allocation:
          put("tlabSize", kWeightA);
          put("allocationSize", kWeightB);
          break;
        case JfrWeight::allocation_size:
          put("allocationSize", kWeightA);
          break;
        case JfrWeight::weight:
          put("weight", kWeightA);
          break;
        case JfrWeight::size:
          put("size", kWeightA);
          break;
        case JfrWeight::duration: {
          int d = put("duration", kWeightA);
          if (d >= 0)
            h.duration_unit =
                timespan_unit(md->annotation(cls.fields[d].annotations, "jdk.jfr.Timespan"));
          break;
        }
        }
        // Fields after the last one needed are skipped with the rest of the event.
        while (!h.ops.empty() && h.ops.back().slot < 0) h.ops.pop_back();
        if (chunk.compressed_integers())
          for (Op &op : h.ops) {
            const bool integer =
                !op.array && (op.code == JfrDecoder::kShort || op.code == JfrDecoder::kChar ||
                              op.code == JfrDecoder::kInt || op.code == JfrDecoder::kLong ||
                              op.code == JfrDecoder::kRef);
            if (integer && op.slot < 0)
              op.fast = Op::skip_varint;
            else if (!op.array && op.slot >= 0 &&
                     (op.code == JfrDecoder::kLong || op.code == JfrDecoder::kRef))
              op.fast = Op::read_varint;
          }
        h.all_varint = true;
        h.varint_mask = 0;
        for (const Op &op : h.ops) {
          if (op.fast == Op::generic) h.all_varint = false;
          if (op.fast == Op::read_varint) h.varint_mask |= 1u << op.slot;
        }
      } else if (cls.name == "jdk.ActiveSetting") {
        h.kind = Handler::active_setting;
        h.f_name = md->field(h.cls, "name");
        h.f_value = md->field(h.cls, "value");
        h.f_id = md->field(h.cls, "id");
      } else if (cls.name == "jdk.JVMInformation") {
        h.kind = Handler::jvm_information;
        h.f_name = md->field(h.cls, "jvmName");
        h.f_value = md->field(h.cls, "jvmVersion");
      } else {
        continue;
      }
      const uint32_t index = static_cast<uint32_t>(handlers.size());
      if (cls.id >= 0 && cls.id < 1024) {
        if (direct.empty()) direct.assign(1024, kNull);
        if (direct[static_cast<size_t>(cls.id)] == kNull)
          direct[static_cast<size_t>(cls.id)] = index;
      } else {
        handler_of.insert(static_cast<uint64_t>(cls.id), index);
      }
      handlers.push_back(std::move(h));
    }
    if (direct.empty()) direct.assign(1, kNull);
  }

  uint32_t handler_for(uint64_t type) const {
    if (type < direct.size()) return direct[type];
    if (const uint32_t *p = handler_of.find(type)) return *p;
    return kNull;
  }

  // ---- events -----------------------------------------------------------------------------
  int64_t timestamp(int64_t v, TimeUnit unit) const {
    int64_t rel; // ns since the profile start
    switch (unit) {
    case TimeUnit::nanos:
      rel = sat_add(v, -profile_start);
      break;
    case TimeUnit::millis:
      rel = sat_add(sat_mul(v, 1000000), -profile_start);
      break;
    default: {
      // As the JDK does: (long)((ticks - startTicks) / (ticksPerSecond / 1e9)).
      int64_t delta =
          static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(chunk.start_ticks));
      // Nanosecond ticks (the usual case) need no division: the result is the same.
      if (!(unit_ticks && delta < (int64_t{1} << 53) && delta > -(int64_t{1} << 53)))
        delta = d2l(static_cast<double>(delta) / divisor);
      rel = sat_add(chunk_start_rel, delta);
    }
    }
    return rel < 0 ? 0 : rel;
  }

  int64_t timespan(int64_t v, TimeUnit unit) const {
    switch (unit) {
    case TimeUnit::ticks:
      if (unit_ticks && v < (int64_t{1} << 53) && v > -(int64_t{1} << 53)) return v;
      return d2l(static_cast<double>(v) / divisor);
    case TimeUnit::micros:
      return sat_mul(v, 1000);
    case TimeUnit::millis:
      return sat_mul(v, 1000000);
    case TimeUnit::seconds:
      return sat_mul(v, 1000000000);
    default:
      return v;
    }
  }

  // Decodes the fields of a sample event in [p, ev_end) into v[slot] and returns the slots
  // found as a mask, or sets *bad_at to where the event is corrupt. Integer fields are decoded
  // on the raw pointer (bounded by the chunk end, checked against the event end afterwards);
  // the rare other kinds go through JfrInput. A type whose ops are all varints (every JDK and
  // async-profiler sample type) takes a tight loop whose mask is fixed per type.
  uint32_t decode(const Handler &h, const uint8_t *p, const uint8_t *ev_end, int64_t *v,
                  int64_t *bad_at) const {
    const uint8_t *const base = reinterpret_cast<const uint8_t *>(data.data());
    const uint8_t *const cend = base + chunk.end();
    if (h.all_varint) {
      for (const Op &op : h.ops) {
        uint64_t x = 0;
        p = op.fast == Op::skip_varint ? jfr_skip_varint(p, cend) : jfr_varint(p, cend, &x);
        if (!p) break;
        if (op.fast == Op::read_varint) v[op.slot] = static_cast<int64_t>(x);
      }
      if (!p || p > ev_end) {
        *bad_at = static_cast<int64_t>(ev_end - base);
        return 0;
      }
      return h.varint_mask;
    }
    uint32_t present = 0;
    for (const Op &op : h.ops) {
      if (op.fast == Op::skip_varint) {
        if (!(p = jfr_skip_varint(p, cend))) break;
        continue;
      }
      if (op.fast == Op::read_varint) {
        uint64_t x;
        if (!(p = jfr_varint(p, cend, &x))) break;
        v[op.slot] = static_cast<int64_t>(x);
        present |= 1u << op.slot;
        continue;
      }
      if (p > ev_end) break;
      JfrInput ev(data, static_cast<size_t>(p - base), static_cast<size_t>(ev_end - base),
                  chunk.compressed_integers());
      if (op.slot < 0) {
        dec->skip_field(JfrDecoder::FieldCode{op.code, op.array, op.type}, ev);
      } else {
        int64_t x = 0;
        switch (op.code) {
        case JfrDecoder::kBool:
          x = ev.u8() != 0;
          break;
        case JfrDecoder::kByte:
          x = static_cast<int8_t>(ev.u8());
          break;
        case JfrDecoder::kShort:
          x = ev.i16();
          break;
        case JfrDecoder::kChar:
          x = ev.u16();
          break;
        case JfrDecoder::kInt:
          x = ev.i32();
          break;
        case JfrDecoder::kLong:
        case JfrDecoder::kRef:
          x = ev.i64();
          break;
        case JfrDecoder::kFloat:
          x = d2l(ev.f32());
          break;
        case JfrDecoder::kDouble:
          x = d2l(ev.f64());
          break;
        default:
          break;
        }
        v[op.slot] = x;
        present |= 1u << op.slot;
      }
      if (!ev.ok()) {
        *bad_at = ev.fail_offset();
        return 0;
      }
      p = ev.ptr();
    }
    if (!p || p > ev_end) *bad_at = static_cast<int64_t>(ev_end - base);
    return present;
  }

  // A slice's references as they are collected: each distinct one gets the next index.
  struct RefIndex {
    struct ThreadKey {
      uint64_t key, key_b;
      int type, type_b;
      bool operator==(const ThreadKey &) const = default;
    };
    struct ThreadHash {
      size_t operator()(const ThreadKey &k) const {
        return std::hash<uint64_t>()(k.key * 0x9E3779B97F4A7C15ull ^ k.key_b ^
                                     (static_cast<uint64_t>(k.type) << 32) ^
                                     static_cast<uint64_t>(static_cast<uint32_t>(k.type_b)));
      }
    };
    JfrSliceRefs *refs = nullptr;
    std::unordered_map<ThreadKey, uint32_t, ThreadHash> threads;
    // The last lookups: consecutive events mostly come from one thread's buffer.
    int last_stack_type = -1;
    uint64_t last_stack_key = 0;
    uint32_t last_stack = kNull;
    ThreadKey last_thread{0, 0, -2, -2};
    uint32_t last_thread_index = kNull;

    uint32_t stack(int type, uint64_t key, size_t at) {
      if (type == last_stack_type && key == last_stack_key && last_stack != kNull)
        return last_stack;
      auto &keys = refs->stack_keys;
      size_t t = 0;
      while (t < keys.size() && keys[t].first != type) t++;
      if (t == keys.size()) keys.emplace_back(type, JfrIdMap<uint32_t>());
      const auto [index, added] =
          keys[t].second.insert(key, static_cast<uint32_t>(refs->stacks.size()));
      if (added) {
        refs->stacks.push_back(JfrSliceRefs::Ref{type, -1, key, 0, at});
        refs->order.push_back(3 * *index);
      }
      last_stack_type = type;
      last_stack_key = key;
      return last_stack = *index;
    }
    // A thread state: index + 1 into refs->states, 0 for none. Few distinct ones: a scan.
    uint32_t state(int type, uint64_t key, size_t at) {
      std::vector<JfrSliceRefs::Ref> &states = refs->states;
      for (size_t i = 0; i < states.size(); i++)
        if (states[i].key == key && states[i].type == type) return static_cast<uint32_t>(i + 1);
      refs->order.push_back(3 * static_cast<uint32_t>(states.size()) + 2);
      states.push_back(JfrSliceRefs::Ref{type, -1, key, 0, at});
      return static_cast<uint32_t>(states.size());
    }
    uint32_t thread(const ThreadKey &k, size_t at) {
      if (k == last_thread) return last_thread_index;
      const auto [it, added] = threads.try_emplace(k, static_cast<uint32_t>(refs->threads.size()));
      if (added) {
        refs->threads.push_back(JfrSliceRefs::Ref{k.type, k.type_b, k.key, k.key_b, at});
        refs->order.push_back(3 * it->second + 1);
      }
      last_thread = k;
      return last_thread_index = it->second;
    }
  };

  // Decodes one sample into its range; its thread and stack become indexes into the slice's
  // references.
  void on_sample(const Handler &h, const uint8_t *p, const uint8_t *ev_end, size_t at,
                 std::vector<JfrColumnRange> &ranges, RefIndex &index) const {
    int64_t v[kSlots];
    int64_t bad_at = -1;
    const uint32_t present = decode(h, p, ev_end, v, &bad_at);
    JfrSliceRefs &refs = *index.refs;
    if (bad_at >= 0) {
      if (refs.bad_events++ == 0) refs.bad_event_offset = bad_at;
      return;
    }
    auto has = [&](Slot s) { return (present >> s) & 1; };
    JfrColumnRange &r = ranges[h.range];
    if (r.written >= r.capacity) return; // cannot happen: the survey counted every event
    const size_t i = r.begin + r.written++;
    JfrEventColumns &c = *r.columns;
    if (!c.time.empty()) c.time[i] = has(kTime) ? timestamp(v[kTime], h.time_unit) : 0;
    if (!c.thread.empty()) {
      RefIndex::ThreadKey tk{0, 0, -1, -1};
      if (has(kSampledThread) && h.ref_type[kSampledThread] >= 0) {
        tk.type = h.ref_type[kSampledThread];
        tk.key = static_cast<uint64_t>(v[kSampledThread]);
      }
      if (has(kEventThread) && h.ref_type[kEventThread] >= 0) {
        tk.type_b = h.ref_type[kEventThread];
        tk.key_b = static_cast<uint64_t>(v[kEventThread]);
      }
      c.thread[i] = index.thread(tk, at);
    }
    StackId st = kNoStack;
    if (has(kStack) && h.ref_type[kStack] >= 0)
      st = index.stack(h.ref_type[kStack], static_cast<uint64_t>(v[kStack]), at);
    int64_t count = 1, value = 1;
    const int64_t a = has(kWeightA) ? v[kWeightA] : 0;
    switch (h.rule->weight) {
    case JfrWeight::one:
      break;
    case JfrWeight::samples:
      count = value = a > 1 ? a : 1;
      break;
    case JfrWeight::tlab_or_allocation:
      value = a != 0 ? a : (has(kWeightB) ? v[kWeightB] : 0);
      break;
    case JfrWeight::allocation_size:
    case JfrWeight::weight:
    case JfrWeight::size:
      value = a;
      break;
    case JfrWeight::duration:
      value = timespan(a, h.duration_unit);
      break;
    }
    c.stack[i] = st;
    if (!c.count.empty()) c.count[i] = count;
    if (!c.value.empty()) c.value[i] = value;
    if (!c.source.empty()) c.source[i] = h.source;
    if (!c.state.empty())
      c.state[i] = has(kState) && h.ref_type[kState] >= 0
                       ? index.state(h.ref_type[kState], static_cast<uint64_t>(v[kState]), at)
                       : 0;
  }

  void on_setting(const Handler &h, JfrInput &ev, size_t at) {
    std::string_view name, value;
    int64_t id = -1;
    const auto &codes = dec->codes(h.cls);
    for (size_t i = 0; i < codes.size() && ev.ok(); i++) {
      int fi = static_cast<int>(i);
      if (fi == h.f_name || fi == h.f_value || fi == h.f_id) {
        JfrValue v = dec->read_field(codes[i], ev);
        if (fi == h.f_name)
          name = res->text(v, at);
        else if (fi == h.f_value)
          value = res->text(v, at);
        else
          id = v.i;
      } else {
        dec->skip_field(codes[i], ev);
      }
    }
    if (!ev.ok()) return;
    if (h.kind == Handler::jvm_information) {
      if (jvm_name.empty()) jvm_name = name;
      if (jvm_version.empty()) jvm_version = value;
      return;
    }
    if (name == "event" && !value.empty() && info.exec_setting.empty())
      info.exec_setting = value;
    else if (name == "wall" && !value.empty() && info.wall_setting.empty())
      info.wall_setting = value;
    else if (name == "version" && version.empty())
      version = value;
    else if (name == "interval" && info.period_ns == 0)
      info.period_ns = parse_period(value);
    else if (name == "period" && id == exec_type_id && info.period_ns == 0)
      info.period_ns = parse_period(value);
  }

  // Reads the header of the event at p: its end and type, or nullptr when it is corrupt.
  const uint8_t *event_header(const uint8_t *p, const uint8_t **ev_end, uint64_t *type) const {
    const uint8_t *const base = reinterpret_cast<const uint8_t *>(data.data());
    const uint8_t *const cend = base + chunk.end();
    const uint8_t *const ev = p;
    uint64_t size = 0;
    if (chunk.compressed_integers()) {
      p = jfr_varint(p, cend, &size);
      if (p) p = jfr_varint(p, cend, type);
    } else {
      JfrInput in = input_at(static_cast<size_t>(ev - base));
      size = static_cast<uint64_t>(static_cast<int64_t>(in.i32()));
      *type = static_cast<uint64_t>(in.i64());
      p = in.ok() ? in.ptr() : nullptr;
    }
    if (!p || size == 0 || size > static_cast<uint64_t>(cend - ev) ||
        p > ev + static_cast<ptrdiff_t>(size))
      return nullptr;
    *ev_end = ev + static_cast<ptrdiff_t>(size);
    return p;
  }

  std::string corrupt_header(const uint8_t *ev) const {
    const uint8_t *const base = reinterpret_cast<const uint8_t *>(data.data());
    uint64_t size = 0;
    JfrInput in = input_at(static_cast<size_t>(ev - base));
    size = chunk.compressed_integers() ? in.varint() : static_cast<uint64_t>(in.i32());
    return "corrupt JFR event header (size " + std::to_string(static_cast<int64_t>(size)) + ")";
  }

  // Pass 1: walks the chunk's event headers: counts samples by type, cuts slices of about
  // slice_bytes, reads settings.
  bool walk(size_t slice_bytes) {
    const uint8_t *const base = reinterpret_cast<const uint8_t *>(data.data());
    const uint8_t *const cend = base + chunk.end();
    const uint8_t *p = base + chunk.offset + JfrChunkHeader::kSize;
    uint32_t until_check = 1 << 16;
    info.events = 0;
    info.slices.clear();
    std::vector<int64_t> slice_start_counts(handlers.size(), 0);
    std::vector<std::vector<std::pair<uint32_t, int64_t>>> slice_counts; // handler, events
    const uint8_t *slice_begin = p;
    auto close_slice = [&](const uint8_t *end) {
      JfrSlice sl;
      sl.begin = static_cast<size_t>(slice_begin - base);
      sl.end = static_cast<size_t>(end - base);
      info.slices.push_back(std::move(sl));
      slice_counts.emplace_back();
      for (uint32_t hi : first_seen)
        if (handlers[hi].count != slice_start_counts[hi]) {
          slice_counts.back().emplace_back(hi, handlers[hi].count - slice_start_counts[hi]);
          slice_start_counts[hi] = handlers[hi].count;
        }
      slice_begin = end;
    };
    while (p < cend) {
      const uint8_t *const ev = p;
      const uint8_t *ev_end = nullptr;
      uint64_t type = 0;
      if (!(p = event_header(ev, &ev_end, &type))) return fail(corrupt_header(ev), ev - base);
      info.events++;
      const uint32_t hi = handler_for(type);
      if (hi != kNull) {
        Handler &h = handlers[hi];
        if (h.kind == Handler::sample) {
          if (h.count++ == 0) first_seen.push_back(hi);
        } else {
          JfrInput in(data, static_cast<size_t>(p - base), static_cast<size_t>(ev_end - base),
                      chunk.compressed_integers());
          on_setting(h, in, static_cast<size_t>(ev - base));
          if (!error.empty()) return false; // constant pools were needed and are corrupt
        }
      }
      p = ev_end;
      if (static_cast<size_t>(p - slice_begin) >= slice_bytes) close_slice(p);
      if (--until_check == 0) {
        until_check = 1 << 16;
        if (options.cancelled()) return fail("cancelled", -1);
      }
    }
    if (p != slice_begin || info.slices.empty()) close_slice(p);
    info.sample_types.clear();
    for (uint32_t hi : first_seen)
      info.sample_types.push_back(JfrChunkInfo::SampleType{md->classes[handlers[hi].cls].name,
                                                           handlers[hi].count, handlers[hi].rule,
                                                           handlers[hi].ref_type[kState] >= 0});
    for (size_t k = 0; k < info.slices.size(); k++) {
      info.slices[k].counts.assign(first_seen.size(), 0);
      for (const auto &[hi, n] : slice_counts[k])
        for (size_t t = 0; t < first_seen.size(); t++)
          if (first_seen[t] == hi) info.slices[k].counts[t] = n;
    }
    return true;
  }

  // Pass 2: decodes the samples of one slice.
  bool decode_slice(size_t s, std::vector<JfrColumnRange> &ranges, JfrSliceRefs *refs) const {
    const uint8_t *const base = reinterpret_cast<const uint8_t *>(data.data());
    const JfrSlice &sl = info.slices[s];
    const uint8_t *p = base + sl.begin, *const end = base + sl.end;
    RefIndex index;
    index.refs = refs;
    for (auto &[type, keys] : refs->stack_keys) keys.clear();
    uint32_t until_check = 1 << 16;
    while (p < end) {
      const uint8_t *const ev = p;
      const uint8_t *ev_end = nullptr;
      uint64_t type = 0;
      if (!(p = event_header(ev, &ev_end, &type))) { // cannot happen: the survey walked them
        refs->error = corrupt_header(ev);
        refs->error_offset = ev - base;
        return false;
      }
      const uint32_t hi = handler_for(type);
      if (hi != kNull) {
        const Handler &h = handlers[hi];
        if (h.kind == Handler::sample && h.range < ranges.size())
          on_sample(h, p, ev_end, static_cast<size_t>(ev - base), ranges, index);
      }
      p = ev_end;
      if (--until_check == 0) {
        until_check = 1 << 16;
        if (options.cancelled()) {
          refs->error = "cancelled";
          return false;
        }
      }
    }
    return true;
  }

  bool survey(size_t slice_bytes) {
    if (!prepare()) return false;
    if (!walk(std::max<size_t>(slice_bytes, 1))) return false;
    bool async_profiler = false;
    for (const JfrClass &c : md->classes)
      if (c.name.starts_with("profiler.")) async_profiler = true;
    if (async_profiler) {
      info.producer = version.empty() ? "async-profiler" : "async-profiler " + version;
    } else if (!jvm_version.empty()) {
      std::string v = jvm_version;
      size_t open = v.find('('), close = v.find(')', open == std::string::npos ? 0 : open);
      if (open != std::string::npos && close != std::string::npos)
        v = v.substr(open + 1, close - open - 1);
      std::string vendor = jvm_name.substr(0, jvm_name.find(' '));
      info.producer = (vendor.empty() ? "JDK" : vendor) + " " + v;
    } else {
      info.producer = "JDK Flight Recorder";
    }
    return true;
  }

  void route(const std::vector<JfrRoute> &routes) {
    for (Handler &h : handlers) {
      h.range = SIZE_MAX;
      if (h.kind != Handler::sample) continue;
      for (const JfrRoute &r : routes)
        if (r.type == md->classes[h.cls].name) {
          h.range = r.range;
          h.source = r.source;
        }
    }
  }

  void read_stacks(const JfrSliceRefs &refs, JfrStackClaims *claims, uint32_t slice,
                   JfrRawStacks *raw) {
    raw->stacks.clear();
    if (!load_pools()) return; // resolve() reports it
    std::vector<JfrStackRef> wanted(refs.stacks.size());
    for (size_t i = 0; i < wanted.size(); i++)
      wanted[i] = JfrStackRef{refs.stacks[i].type, refs.stacks[i].key};
    if (claims) claims->claim(slice, wanted);
    std::shared_lock<std::shared_mutex> in_use;
    JfrPoolPages *const pp = use_stack_pages(&in_use);
    const JfrStackSource src{data,        chunk.offset + JfrChunkHeader::kSize,
                             chunk.end(), chunk.compressed_integers(),
                             md,          dec,
                             &pools,      pp};
    read_raw_stacks(src, wanted, raw);
  }

  bool resolve(const JfrSliceRefs &refs, const JfrRawStacks &raw, ProfileBuilder &tables,
               std::vector<JfrColumnRange> &ranges) {
    if (!load_pools()) return false;
    std::shared_lock<std::shared_mutex> in_use;
    JfrPoolPages *const pp = use_stack_pages(&in_use);
    res->set_builder(&tables);
    res->begin_slice(&raw);
    std::vector<StackId> stacks(refs.stacks.size());
    std::vector<ThreadId> threads(refs.threads.size());
    std::vector<uint32_t> states(refs.states.size() + 1, 0); // index 0: no state
    for (uint32_t o : refs.order) {
      if (o % 3 == 1) {
        const JfrSliceRefs::Ref &r = refs.threads[o / 3];
        ThreadId t = kNull;
        if (r.type >= 0) t = res->thread(r.type, r.key, r.at);
        if (t == kNull && r.type_b >= 0) t = res->thread(r.type_b, r.key_b, r.at);
        threads[o / 3] = t == kNull ? res->unknown_thread() : t;
      } else if (o % 3 == 2) {
        const JfrSliceRefs::Ref &r = refs.states[o / 3];
        JfrValue v;
        v.kind = JfrValue::reference;
        v.type = r.type;
        v.i = static_cast<int64_t>(r.key);
        states[o / 3 + 1] = tables.state(res->text(v, r.at));
      } else {
        const JfrSliceRefs::Ref &r = refs.stacks[o / 3];
        res->stack(r.type, r.key, r.at, o / 3, &stacks[o / 3]);
      }
    }
    res->build_stacks();
    res->begin_slice(nullptr);
    if (pp && !pp->error().empty())
      return fail(pp->error() + " (reading a stack-trace pool again)", pp->error_offset());
    for (JfrColumnRange &r : ranges) {
      if (!r.columns) continue;
      StackId *st = r.columns->stack.data() + r.begin;
      ThreadId *th = r.columns->thread.empty() ? nullptr : r.columns->thread.data() + r.begin;
      for (size_t i = 0; i < r.written; i++) {
        if (st[i] != kNoStack) st[i] = stacks[st[i]];
        if (th) th[i] = threads[th[i]];
      }
      if (!r.columns->state.empty()) {
        uint32_t *sa = r.columns->state.data() + r.begin;
        for (size_t i = 0; i < r.written; i++) sa[i] = states[sa[i]];
      }
    }
    return true;
  }

  void finish(ProfileBuilder &tables, int64_t bad_events, int64_t bad_event_offset) {
    if (bad_events)
      tables.warn(std::to_string(bad_events) +
                      " corrupt JFR event(s) skipped in the chunk at byte " +
                      std::to_string(file_offset),
                  bad_event_offset);
    if (res && res->missing_refs())
      tables.warn(std::to_string(res->missing_refs()) +
                      " reference(s) to missing constant-pool entries (first: " +
                      res->missing_ref_what() + ")",
                  in_file(res->missing_ref_offset()));
  }

  // An offset in the chunk as an offset in the file (-1, unknown, stays).
  int64_t in_file(int64_t at) const { return at < 0 ? at : at + static_cast<int64_t>(file_offset); }

  void attach(std::string_view bytes) {
    data = bytes;
    unread.reset();
    stack_pages_out = false;
    if (res) res->rebase(bytes);
  }
};

void JfrSliceRefs::clear() {
  stacks.clear();
  threads.clear();
  states.clear();
  order.clear();
  bad_events = 0;
  bad_event_offset = -1;
  error.clear();
  error_offset = -1; // stack_keys: decode() empties them before it uses them
}

JfrChunkReader::JfrChunkReader(std::string_view chunk_bytes, const JfrChunkHeader &chunk,
                               int64_t profile_start_ns, const LoadOptions &options,
                               JfrMetadataCache *cache)
    : impl_(std::make_unique<Impl>(chunk_bytes, chunk, profile_start_ns, options, cache)) {}

JfrChunkReader::~JfrChunkReader() = default;

bool JfrChunkReader::survey(size_t slice_bytes) {
  return impl_->survey(slice_bytes);
}
void JfrChunkReader::route(const std::vector<JfrRoute> &routes) {
  impl_->route(routes);
}
void JfrChunkReader::attach(std::string_view chunk_bytes) {
  impl_->attach(chunk_bytes);
}
std::vector<JfrConstantPools::Range> JfrChunkReader::stack_ranges() {
  return impl_->stack_ranges();
}
void JfrChunkReader::read_later(const std::vector<JfrConstantPools::Range> &skipped,
                                JfrPoolPages::Reread reread, size_t ahead, bool read_ahead) {
  impl_->unread =
      std::make_unique<JfrUnreadBytes>(const_cast<char *>(impl_->data.data()), impl_->data.size(),
                                       skipped, std::move(reread), ahead, read_ahead);
}
void JfrChunkReader::give_back_stack_pages(JfrPoolPages::Reread reread, bool unread, bool always) {
  impl_->reread = std::move(reread);
  impl_->pools_unread = unread || impl_->stack_pages_out;
  impl_->reread_always = always;
}
size_t JfrChunkReader::plan_stack_windows(size_t bytes, bool force, bool only_wanted) {
  return impl_->plan_stack_windows(bytes, force, only_wanted);
}
void JfrChunkReader::want_stacks(const JfrSliceRefs &refs) {
  for (const JfrSliceRefs::Ref &r : refs.stacks)
    if (r.type >= 0) impl_->want(r.key);
}
void JfrChunkReader::window_refs(size_t w, JfrSliceRefs *refs) const {
  impl_->window_refs(w, refs);
}
size_t JfrChunkReader::release_window(size_t w) {
  if (w + 2 >= impl_->window_first.size()) { // the last window
    impl_->wanted = {};
    impl_->wanted_bits = {};
  }
  JfrPoolPages *pages = impl_->pages.get(); // set by the window's read_stacks()
  // Waits for the reads of later windows, which touch none of these pages.
  return pages && w + 1 < impl_->window_first.size()
             ? pages->release_before(impl_->window_end(w), true)
             : 0;
}
size_t JfrChunkReader::release_stack_pages(size_t s) {
  JfrPoolPages *pages = impl_->pages.get(); // set before the first slice resolves
  return pages && s < impl_->info.slices.size() ? pages->release_before(impl_->info.slices[s].end)
                                                : 0;
}
bool JfrChunkReader::decode(size_t s, std::vector<JfrColumnRange> &ranges,
                            JfrSliceRefs *refs) const {
  const bool ok = impl_->decode_slice(s, ranges, refs);
  refs->error_offset = impl_->in_file(refs->error_offset);
  refs->bad_event_offset = impl_->in_file(refs->bad_event_offset);
  return ok;
}
void JfrChunkReader::read_stacks(const JfrSliceRefs &refs, JfrStackClaims *claims, uint32_t slice,
                                 JfrRawStacks *raw) {
  impl_->read_stacks(refs, claims, slice, raw);
}
bool JfrChunkReader::resolve(const JfrSliceRefs &refs, const JfrRawStacks &raw,
                             ProfileBuilder &tables, std::vector<JfrColumnRange> &ranges) {
  return impl_->resolve(refs, raw, tables, ranges);
}
void JfrChunkReader::finish(ProfileBuilder &tables, int64_t bad_events, int64_t bad_event_offset) {
  impl_->finish(tables, bad_events, bad_event_offset);
}
const JfrChunkInfo &JfrChunkReader::info() const {
  return impl_->info;
}
const std::string &JfrChunkReader::error() const {
  return impl_->error;
}
int64_t JfrChunkReader::error_offset() const {
  return impl_->in_file(impl_->error_offset);
}

} // namespace hotlines
