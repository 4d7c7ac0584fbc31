// JFR reader: splits the file into chunks, surveys them (sample counts per event type, the
// recording's settings, and slices of a few MB of events), sizes the final sample columns
// exactly, then decodes the slices — in parallel when options.threads allows, even within one
// chunk — each straight into its own column ranges. A chunk's slices resolve their references
// into the chunk's tables one after another in file order (the first chunk's are the output's);
// the chunks' tables (strings, functions, frames, stacks, threads) are merged in file order.
// The profile is the same whatever the thread count and slice size. A truncated tail becomes a
// warning; corrupt data in a complete chunk is an error with its byte offset.
#include "formats/jfr_reader.h"

#include "formats/jfr_chunk.h"
#include "formats/jfr_chunk_reader.h"
#include "formats/jfr_event_table.h"
#include "formats/jfr_metadata_cache.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <sys/mman.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace hotlines {

namespace {

// Runs work(i) for i in [0, n) on `threads` workers and consume(i) on the calling thread in
// order of i. Workers stay a few items ahead of consume, which bounds what is held in memory.
// Stops early (returning false) when consume returns false. work must not throw; an exception
// from consume is rethrown once the workers are joined.
bool run_in_order(size_t n, unsigned threads, const std::function<void(size_t)> &work,
                  const std::function<bool(size_t)> &consume) {
  if (threads <= 1 || n <= 1) {
    for (size_t i = 0; i < n; i++) {
      work(i);
      if (!consume(i)) return false;
    }
    return true;
  }
  std::mutex mu;
  std::condition_variable cv;
  std::vector<char> done(n, 0);
  size_t next = 0, consumed = 0;
  bool stop = false;
  const size_t window = threads + 1;
  std::vector<std::thread> workers;
  auto worker = [&] {
    for (;;) {
      size_t i;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return stop || next >= n || next < consumed + window; });
        if (stop || next >= n) return;
        i = next++;
      }
      work(i);
      {
        std::lock_guard<std::mutex> lock(mu);
        done[i] = 1;
      }
      cv.notify_all();
    }
  };
  for (unsigned w = 0; w < threads; w++) {
    try {
      workers.emplace_back(worker);
    } catch (const std::system_error &) {
      break; // no more threads: the ones we have will do
    }
  }
  if (workers.empty()) return run_in_order(n, 1, work, consume);
  bool ok = true;
  std::exception_ptr failed;
  for (size_t i = 0; i < n && ok; i++) {
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return done[i] != 0; });
    }
    try {
      ok = consume(i);
    } catch (...) {
      failed = std::current_exception();
      ok = false;
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      consumed = i + 1;
      if (!ok) stop = true;
    }
    cv.notify_all();
  }
  for (std::thread &t : workers) t.join();
  if (failed) std::rethrow_exception(failed);
  return ok;
}

// A product event as planned from the survey.
struct PlannedEvent {
  std::string name, unit;
  std::vector<std::string> sources;
  bool count = false, value = false;
  size_t size = 0;
  JfrEventColumns columns;
  size_t cursor = 0; // samples kept so far, in file order
};

constexpr size_t kDefaultSliceBytes = size_t{4} << 20;

struct SliceWork {
  size_t chunk = 0, index = 0;        // info.slices[index] of chunks[chunk]
  std::vector<JfrColumnRange> ranges; // by event index
  std::string error;
  int64_t error_offset = -1;
  int64_t bad_events = 0, bad_event_offset = -1;
};

struct ChunkWork {
  JfrChunkInfo info;
  std::string error;
  int64_t error_offset = -1;
  std::unique_ptr<JfrChunkReader> reader;
  std::vector<std::pair<std::string, size_t>> range_of_type; // JFR type -> event index
  size_t first_slice = 0;                                    // index into JfrRead::slices
  std::unique_ptr<ProfileBuilder> builder;                   // chunks after the first
  std::unique_ptr<Profile> tables;
  // The slices resolve in order: `resolved` of them have, guarded by mu.
  std::mutex mu;
  std::condition_variable cv;
  size_t resolved = 0;
};

// Sizes a column. Large ones ask for transparent huge pages first: zero-filling hundreds of MB
// through one page fault per 4 KiB page costs more than the rest of the allocation (it is a
// hint; the kernel may ignore it).
template <class T> void size_column(std::vector<T> &v, size_t n) {
  v.reserve(n);
#ifdef MADV_HUGEPAGE
  const size_t huge = size_t{2} << 20, bytes = n * sizeof(T);
  if (bytes >= 2 * huge) {
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(v.data()) + huge - 1) & ~(huge - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(v.data()) + bytes) & ~(huge - 1);
    if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
  }
#endif
  v.resize(n);
}

template <class T> void move_down(std::vector<T> &v, size_t from, size_t to, size_t n) {
  if (!v.empty() && n) std::memmove(v.data() + to, v.data() + from, n * sizeof(T));
}

// Drops optional columns that hold only their defaults, as ProfileBuilder::add_sample does.
void drop_default_columns(JfrEventColumns &c) {
  auto all = [](const auto &v, auto x) {
    return std::all_of(v.begin(), v.end(), [&](auto y) { return y == x; });
  };
  if (!c.value.empty()) {
    bool same = true;
    for (size_t i = 0; i < c.value.size() && same; i++)
      same = c.value[i] == (c.count.empty() ? 1 : c.count[i]);
    if (same) std::vector<int64_t>().swap(c.value);
  }
  if (all(c.count, int64_t{1})) std::vector<int64_t>().swap(c.count);
  if (all(c.thread, ThreadId{0})) std::vector<ThreadId>().swap(c.thread);
  if (all(c.time, int64_t{0})) std::vector<int64_t>().swap(c.time);
}

// The event shown when the user picks none: the first of `name(0..n)` in order of preference.
template <class Name> size_t default_event(size_t n, Name name, const std::string &exec_name) {
  for (std::string_view preferred :
       {std::string_view("cpu"), std::string_view(exec_name), std::string_view("wall"),
        std::string_view("alloc"), std::string_view("lock"), std::string_view("live"),
        std::string_view("nativemem"), std::string_view("nativelock"), std::string_view("native"),
        std::string_view("trace")})
    for (size_t e = 0; e < n; e++)
      if (name(e) == preferred) return e;
  return 0;
}

} // namespace

namespace {

// The recording's time span: the earliest chunk start and the latest chunk end.
void recording_span(const JfrChunkList &list, int64_t *start, int64_t *end) {
  *start = INT64_MAX;
  *end = INT64_MIN;
  for (const JfrChunkHeader &c : list.chunks) {
    *start = std::min(*start, c.start_nanos);
    int64_t e;
    if (__builtin_add_overflow(c.start_nanos, std::max<int64_t>(0, c.duration_nanos), &e))
      e = INT64_MAX;
    *end = std::max(*end, e);
  }
}

// One read of a JFR file; its methods are the steps of read_chunks, in order.
struct JfrRead {
  JfrRead(std::string_view data, const LoadOptions &options, const JfrChunkList &list)
      : data(data), options(options), list(list), n(list.chunks.size()), chunks(n) {
    recording_span(list, &start, &end);
    threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::max(threads, 1u);
  }

  // Pass 1, on a worker: what chunk i holds.
  void survey_chunk(size_t i);
  // The slices of every chunk, in file order.
  void plan_slices();
  // Whether chunk i failed; if so, `failure` says how.
  bool chunk_failed(size_t i);
  // Product events in order of first appearance, and which event each chunk's types feed.
  void plan_events();
  // Drops the events options.only_event leaves out.
  void select_event();
  // Each slice's range in its events' columns, and the columns sized to hold them all.
  void plan_ranges();
  // Pass 2, on a worker: slice k decoded into its ranges, then, in its chunk's order, its
  // references resolved into the chunk's builder (the first chunk's is `out`).
  void read_slice(size_t k);
  // Pass 2, in file order: once slice k is its chunk's last, the chunk's tables merged into
  // `out`, its samples remapped to them and moved down over gaps. False (with `failure` set)
  // to stop.
  bool merge_slice(size_t k);
  // With options.discard_input, chunk i's bytes given back to the system: nothing reads them
  // once the chunk is merged.
  void release_chunk(size_t i);
  // The events into `out`, with optional columns dropped where they hold defaults. False
  // (with `failure` set) when an event's totals overflow.
  bool add_events();
  // The finished profile and its metadata.
  LoadResult finish();

  std::string_view data;
  const LoadOptions &options;
  const JfrChunkList &list;
  const size_t n;
  int64_t start, end;
  unsigned threads;
  std::vector<ChunkWork> chunks;
  std::vector<SliceWork> slices;
  JfrMetadataCache metadata_cache;
  LoadResult failure;
  std::vector<PlannedEvent> events;
  std::string exec_name = "cpu";
  ProfileBuilder out;
  std::vector<std::string> producers;
  int64_t period = 0;
  size_t done_bytes = 0;
};

void JfrRead::survey_chunk(size_t i) {
  try {
    ChunkWork &c = chunks[i];
    c.reader =
        std::make_unique<JfrChunkReader>(data, list.chunks[i], start, options, &metadata_cache);
    if (!c.reader->survey(options.jfr_slice_bytes ? options.jfr_slice_bytes : kDefaultSliceBytes)) {
      c.error = c.reader->error();
      c.error_offset = c.reader->error_offset();
    }
    c.info = c.reader->info();
  } catch (const std::exception &e) { // out of memory
    chunks[i].error = std::string("cannot read JFR chunk: ") + e.what();
    chunks[i].error_offset = static_cast<int64_t>(list.chunks[i].offset);
  }
}

bool JfrRead::chunk_failed(size_t i) {
  if (chunks[i].error.empty()) return false;
  failure = LoadResult::failure(chunks[i].error, chunks[i].error_offset);
  return true;
}

// jdk.ExecutionSample is named by the chunk's `event` setting, else by the previous chunk's.
// The TLAB events and jdk.ObjectAllocationSample estimate the same allocations: alloc takes
// the TLAB events when the recording has any, and the samples are then alloc-sample.
void JfrRead::plan_events() {
  bool has_tlab = false;
  for (const ChunkWork &c : chunks)
    for (const auto &[type, count] : c.info.sample_types) {
      const JfrEventRule *rule = find_jfr_event_rule(type);
      has_tlab |= count > 0 && rule && rule->weight == JfrWeight::tlab_or_allocation;
    }
  for (ChunkWork &c : chunks) {
    if (!c.info.exec_setting.empty()) exec_name = jfr_execution_event_name(c.info.exec_setting);
    for (const auto &[type, count] : c.info.sample_types) {
      const JfrEventRule *rule = find_jfr_event_rule(type);
      if (!rule) continue;
      std::string name = rule->event.empty() ? exec_name : std::string(rule->event);
      if (has_tlab && !rule->event_beside_tlab.empty()) name = rule->event_beside_tlab;
      size_t e = 0;
      while (e < events.size() && events[e].name != name) e++;
      if (e == events.size()) {
        events.emplace_back();
        events[e].name = name;
        events[e].unit = rule->unit;
      }
      PlannedEvent &ev = events[e];
      if (std::find(ev.sources.begin(), ev.sources.end(), type) == ev.sources.end())
        ev.sources.push_back(type);
      ev.count |= rule->weight == JfrWeight::samples;
      ev.value |= rule->weight != JfrWeight::samples && rule->weight != JfrWeight::one;
      c.range_of_type.emplace_back(type, e);
    }
  }
}

void JfrRead::select_event() {
  if (!options.only_event || events.empty()) return;
  const std::string &want = *options.only_event;
  size_t keep = events.size();
  if (want.empty())
    keep = default_event(
        events.size(), [&](size_t e) { return events[e].name; }, exec_name);
  for (size_t e = 0; e < events.size() && keep == events.size(); e++)
    if (events[e].name == want) keep = e;
  if (keep == events.size()) return; // no such event: load them all, so errors can list them
  PlannedEvent kept = std::move(events[keep]);
  events.clear();
  events.push_back(std::move(kept));
  for (ChunkWork &c : chunks)
    std::erase_if(c.range_of_type,
                  [&](const auto &type_event) { return type_event.second != keep; });
  for (ChunkWork &c : chunks)
    for (auto &type_event : c.range_of_type) type_event.second = 0;
}

void JfrRead::plan_slices() {
  for (size_t i = 0; i < n; i++) {
    chunks[i].first_slice = slices.size();
    for (size_t k = 0; k < chunks[i].info.slices.size(); k++) {
      slices.emplace_back();
      slices.back().chunk = i;
      slices.back().index = k;
    }
  }
}

void JfrRead::plan_ranges() {
  for (SliceWork &sw : slices) {
    const ChunkWork &c = chunks[sw.chunk];
    const JfrSlice &sl = c.info.slices[sw.index];
    sw.ranges.resize(events.size());
    for (const auto &[type, e] : c.range_of_type)
      for (size_t t = 0; t < c.info.sample_types.size(); t++)
        if (c.info.sample_types[t].first == type)
          sw.ranges[e].capacity += static_cast<size_t>(sl.counts[t]);
    for (size_t e = 0; e < events.size(); e++) {
      sw.ranges[e].columns = &events[e].columns;
      sw.ranges[e].begin = events[e].size;
      events[e].size += sw.ranges[e].capacity;
    }
  }
  for (ChunkWork &c : chunks) c.reader->route(c.range_of_type);
  for (PlannedEvent &ev : events) {
    size_column(ev.columns.stack, ev.size);
    size_column(ev.columns.thread, ev.size);
    size_column(ev.columns.time, ev.size);
    if (ev.count) size_column(ev.columns.count, ev.size);
    if (ev.value) size_column(ev.columns.value, ev.size);
  }
}

void JfrRead::read_slice(size_t k) {
  SliceWork &sw = slices[k];
  ChunkWork &c = chunks[sw.chunk];
  const bool last = sw.index + 1 == c.info.slices.size();
  JfrSliceRefs refs;
  bool decoded = false;
  try {
    decoded = c.reader->decode(sw.index, sw.ranges, &refs);
  } catch (const std::exception &e) { // out of memory
    refs.error = std::string("cannot read JFR chunk: ") + e.what();
  }
  sw.bad_events = refs.bad_events;
  sw.bad_event_offset = refs.bad_event_offset;
  if (!decoded) {
    sw.error = refs.error;
    sw.error_offset = refs.error_offset;
  }
  // This slice's turn: the slices before it in the chunk have resolved (or failed).
  std::unique_lock<std::mutex> lock(c.mu);
  c.cv.wait(lock, [&] { return c.resolved == sw.index; });
  lock.unlock();
  try {
    if (decoded && c.error.empty()) {
      ProfileBuilder *tables = &out;
      if (sw.chunk > 0) {
        if (!c.builder) c.builder = std::make_unique<ProfileBuilder>();
        tables = c.builder.get();
      }
      if (!c.reader->resolve(refs, *tables, sw.ranges)) {
        c.error = c.reader->error();
        c.error_offset = c.reader->error_offset();
      }
      if (last && c.error.empty()) {
        int64_t bad = 0, bad_at = -1;
        for (size_t j = c.first_slice; j <= k; j++) {
          if (slices[j].bad_events && bad == 0) bad_at = slices[j].bad_event_offset;
          bad += slices[j].bad_events;
        }
        c.reader->finish(*tables, bad, bad_at);
        if (c.builder) {
          c.tables = c.builder->finish();
          c.builder.reset();
        }
      }
    }
  } catch (const std::exception &e) { // out of memory
    if (c.error.empty()) {
      c.error = std::string("cannot read JFR chunk: ") + e.what();
      c.error_offset = static_cast<int64_t>(list.chunks[sw.chunk].offset);
    }
  }
  if (last) c.builder.reset();
  lock.lock();
  c.resolved++;
  lock.unlock();
  c.cv.notify_all();
}

void JfrRead::release_chunk(size_t i) {
  if (!options.discard_input) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t base = reinterpret_cast<uintptr_t>(data.data());
  const uintptr_t begin = (base + list.chunks[i].offset + page - 1) & ~(page - 1);
  const uintptr_t end = (base + list.chunks[i].end()) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

bool JfrRead::merge_slice(size_t k) {
  const SliceWork &sw = slices[k];
  const size_t i = sw.chunk;
  ChunkWork &c = chunks[i];
  if (!sw.error.empty() && c.error.empty()) {
    failure = LoadResult::failure(sw.error, sw.error_offset);
    return false;
  }
  if (sw.index + 1 < c.info.slices.size()) return true;
  if (chunk_failed(i)) return false;
  c.reader.reset();
  release_chunk(i);
  ProfileBuilder::IdMaps maps;
  if (c.tables) maps = out.add_tables(*c.tables);
  const std::vector<StackId> &stmap = maps.stacks;
  const std::vector<ThreadId> &tmap = maps.threads;
  c.tables.reset();
  for (size_t j = c.first_slice; j <= k; j++)
    for (size_t e = 0; e < events.size(); e++) {
      JfrColumnRange &r = slices[j].ranges[e];
      JfrEventColumns &col = events[e].columns;
      if (i > 0)
        for (size_t x = r.begin; x < r.begin + r.written; x++) {
          if (col.stack[x] != kNoStack) col.stack[x] = stmap[col.stack[x]];
          col.thread[x] = tmap[col.thread[x]];
        }
      const size_t to = events[e].cursor;
      if (to != r.begin) { // corrupt events left a gap before this range
        move_down(col.stack, r.begin, to, r.written);
        move_down(col.thread, r.begin, to, r.written);
        move_down(col.time, r.begin, to, r.written);
        move_down(col.count, r.begin, to, r.written);
        move_down(col.value, r.begin, to, r.written);
      }
      events[e].cursor += r.written;
    }
  if (std::find(producers.begin(), producers.end(), c.info.producer) == producers.end())
    producers.push_back(c.info.producer);
  if (period == 0) period = c.info.period_ns;
  done_bytes += static_cast<size_t>(list.chunks[i].size);
  if (options.progress) options.progress(static_cast<double>(done_bytes) / data.size());
  if (options.cancelled()) {
    failure = LoadResult::failure("cancelled");
    return false;
  }
  return true;
}

bool JfrRead::add_events() {
  for (PlannedEvent &ev : events) {
    JfrEventColumns &c = ev.columns;
    const size_t kept = ev.cursor;
    if (kept == 0) continue;
    if (kept < ev.size) {
      for (auto *v : {&c.time, &c.count, &c.value})
        if (!v->empty()) v->resize(kept);
      c.stack.resize(kept);
      c.thread.resize(kept);
    }
    drop_default_columns(c);
    int64_t total_count = 0, total_value = 0;
    bool overflow = false;
    for (size_t i = 0; i < kept && !overflow; i++) {
      const int64_t cnt = c.count.empty() ? 1 : c.count[i];
      overflow |= __builtin_add_overflow(total_count, cnt, &total_count);
      overflow |=
          __builtin_add_overflow(total_value, c.value.empty() ? cnt : c.value[i], &total_value);
    }
    if (overflow) {
      failure = LoadResult::failure("JFR event " + ev.name + ": values overflow a 64-bit total", 0);
      return false;
    }
    EventId id = out.event(ev.name, ev.unit);
    Event &e = out.event_at(id);
    for (const std::string &s : ev.sources) e.sources.push_back(out.intern(s));
    e.samples.stack = std::move(c.stack);
    // Packed one column at a time, each raw column freed once packed.
    e.samples.thread = PackedInts::pack(c.thread);
    std::vector<ThreadId>().swap(c.thread);
    for (auto [raw, packed] :
         {std::pair{&c.time, &e.samples.time}, std::pair{&c.count, &e.samples.count},
          std::pair{&c.value, &e.samples.value}}) {
      *packed = PackedInts::pack(*raw);
      std::vector<int64_t>().swap(*raw);
    }
  }
  return true;
}

LoadResult JfrRead::finish() {
  std::unique_ptr<Profile> profile = out.finish();
  Profile &p = *profile;
  Metadata &md = p.metadata;
  md.format = "jfr";
  md.producer.clear();
  for (const std::string &s : producers) md.producer += (md.producer.empty() ? "" : ", ") + s;
  md.start_time_ns = start;
  md.duration_ns = end > start ? end - start : 0;
  md.chunks = static_cast<uint32_t>(n);
  if (period > 0) {
    md.period = period;
    md.period_type = "nanoseconds";
  }
  if (!list.problem.empty())
    md.warnings.push_back(LoadWarning{list.problem + "; loaded the " + std::to_string(n) +
                                          " complete chunk(s) before it",
                                      list.problem_offset, -1});
  md.default_event = static_cast<int>(default_event(
      p.events.size(), [&](size_t e) { return p.str(p.events[e].name); }, exec_name));
  return LoadResult::success(std::move(profile));
}

LoadResult read_chunks(std::string_view data, const LoadOptions &options) {
  JfrChunkList list = scan_jfr_chunks(data);
  if (list.chunks.empty())
    return LoadResult::failure(list.problem.empty() ? "empty JFR file" : list.problem,
                               list.problem_offset < 0 ? 0 : list.problem_offset);
  JfrRead r(data, options, list);

  // Pass 1: what each chunk holds.
  run_in_order(
      r.n, static_cast<unsigned>(std::min<size_t>(r.threads, r.n)),
      [&](size_t i) { r.survey_chunk(i); }, [&](size_t i) { return !r.chunk_failed(i); });
  if (!r.failure.error.empty()) return std::move(r.failure);
  if (options.cancelled()) return LoadResult::failure("cancelled");

  // Plan: product events in order of first appearance, each chunk's range in their columns.
  r.plan_events();
  r.select_event();
  r.plan_slices();
  r.plan_ranges();

  // Pass 2: samples into their ranges, tables merged in file order. The first chunk builds
  // its tables in the output builder itself, so its ids need no mapping.
  run_in_order(
      r.slices.size(), static_cast<unsigned>(std::min<size_t>(r.threads, r.slices.size())),
      [&](size_t k) { r.read_slice(k); }, [&](size_t k) { return r.merge_slice(k); });
  if (!r.failure.error.empty()) return std::move(r.failure);

  if (!r.add_events()) return std::move(r.failure);
  return r.finish();
}

} // namespace

LoadResult read_jfr(std::string_view data, const LoadOptions &options) {
  try {
    return read_chunks(data, options);
  } catch (const std::exception &e) { // out of memory; readers never throw
    return LoadResult::failure(std::string("cannot read JFR data: ") + e.what(), 0);
  }
}

} // namespace hotlines
