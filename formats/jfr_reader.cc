// JFR reader: splits the file into chunks, surveys them (sample counts per event type, the
// recording's settings, and slices of a few MB of events), then decodes the slices — in
// parallel when options.threads allows, even within one chunk — each into small raw columns of
// its own. The slices resolve their references into the one output builder in file order (a
// worker waits for its turn), and the caller's thread appends each slice's samples, packed, to
// the event's columns and frees it: the samples are never held unpacked in full, and a chunk's
// bytes can be given back once its last slice is in. The profile is the same whatever the
// thread count and slice size. A truncated tail becomes a warning; corrupt data in a complete
// chunk is an error with its byte offset.
#include "formats/jfr_reader.h"

#include "formats/jfr_chunk.h"
#include "formats/jfr_chunk_reader.h"
#include "formats/jfr_event_table.h"
#include "formats/jfr_input.h"
#include "formats/jfr_metadata_cache.h"
#include "formats/jfr_source.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>

namespace hotlines {

namespace {

// Runs work(i) for i in [0, n) on `threads` workers and consume(i) on the calling thread in order
// of i. Workers stay a few items ahead of consume, which bounds what is held in memory. Stops early
// (returning false) when consume returns false. work must not throw; an exception from consume
// is rethrown once the workers are joined.
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

// A product event as planned from the survey, and its columns as the slices are appended.
struct PlannedEvent {
  std::string name, unit;
  std::vector<std::string> sources;
  bool count = false, value = false; // whether a source has counts or values of its own
  bool state = false;                // whether a source has thread states
  std::string rule;                  // how the samples were chosen, when a type does not say
  // A type the table does not know, named by itself (jfr_event_rule_by_type): dropped when no
  // sample has a stack, counted when every duration is 0.
  bool by_type = false;
  // async-profiler 2.x's cpu and wall samples are both jdk.ExecutionSample: in the chunks that
  // recorded both (`split`), this event's samples with a thread state go to event `wall`.
  size_t wall = SIZE_MAX;
  uint8_t wall_source = 0; // the split type's index in the wall event's sources
  size_t size = 0;         // samples the survey counted
  SampleColumns columns;
  // LoadOptions::merge_samples: the samples of one stack and source are summed into one row,
  // at key (stack + 1) * sources + source (stack + 1: 0 for kNoStack) of merged_count and
  // merged_value, and appended as rows at the end. Keys from merged_keys up (stacks of a tree
  // of millions of nodes, where a stack has a few samples) keep a row per sample.
  bool merge = false;
  uint64_t merged_keys = 0;
  std::vector<int64_t> merged_count, merged_value;
  size_t single_rows = 0; // rows appended as they came (count 1), before the merged ones
  // The sources a merged key counts (a key's source is key % merged_sources()).
  uint64_t merged_sources() const { return std::max<size_t>(sources.size(), 1); }
  // Whether any sample has a thread other than 0, a time, a count other than 1, a value
  // other than its count, a state: the columns that hold only defaults are dropped at the end.
  bool any_thread = false, any_time = false, any_count = false, any_value = false,
       any_state = false, any_stack = false;
  int64_t total_count = 0, total_value = 0;
  bool overflow = false;
};

constexpr size_t kDefaultSliceBytes = size_t{4} << 20;
// A chunk read from a file of this size or more whose stack traces are one big pool reads them
// in file order (JfrChunkReader::plan_stack_windows).
constexpr int64_t kStacksInFileOrderBytes = int64_t{64} << 20;
// Merged samples (LoadOptions::merge_samples) of stack and source keys below this share rows:
// 4 MiB of sums at most.
constexpr uint64_t kDefaultMergedKeys = uint64_t{1} << 18;

struct SliceWork {
  // The events of a slice; a window of its chunk's stack traces, without events; or the events
  // of a slice decoded only for the stack traces they reference (ChunkWork::wanted).
  enum Kind { events, window, stacks_wanted };
  size_t chunk = 0, index = 0; // info.slices[index] of chunks[chunk], or its window
  Kind kind = events;
  std::vector<JfrEventColumns> raw;   // the slice's samples, by event index, until appended
  std::vector<JfrColumnRange> ranges; // into `raw`, by event index
  std::string error;
  int64_t error_offset = -1;
  int64_t bad_events = 0, bad_event_offset = -1;
};

struct ChunkWork {
  JfrChunkInfo info;
  std::string error;
  int64_t error_offset = -1;
  JfrSource::Held bytes; // while the chunk is surveyed, and from its first slice to its last
  // Held while the bytes are acquired in pass 2, which may wait for other chunks' release: one
  // per chunk, so that the slices of a chunk already held go on meanwhile.
  std::unique_ptr<std::mutex> bytes_mu = std::make_unique<std::mutex>();
  std::unique_ptr<JfrChunkReader> reader;
  // The stack traces each slice reads ahead, from its first slice to its last.
  std::unique_ptr<JfrStackClaims> claims = std::make_unique<JfrStackClaims>();
  std::vector<JfrRoute> routes; // JFR type -> event index (range) and source
  bool pages_given = false;     // the bytes of pass 2 are held and the reader told of them
  // The stack-trace pools that pass 2 leaves unread (JfrSource::acquire's `skip`).
  std::vector<JfrConstantPools::Range> skip;
  // The survey read the chunk without its big checkpoint, as it indexed the pools
  // (JfrRead::checkpoint_read_later): their stack-trace pages are to be read again.
  bool read_later = false;
  size_t first_slice = 0; // index into JfrRead::slices
  // Windows of stack traces read in file order before the chunk's slices (plan_stack_windows):
  // the slices then read none ahead.
  size_t windows = 0;
  // Whether the windows give only the stack traces of the events loaded (a load that leaves
  // some of the chunk's samples out): the chunk's slices are decoded first for them, before
  // the windows, which wait for those slices to resolve (the first `wanted_before` slices).
  bool wanted = false;
  size_t wanted_before = 0;
  bool split = false; // cpu and wall both as jdk.ExecutionSample (PlannedEvent::wall)
};

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
  JfrRead(JfrSource &source, const LoadOptions &options, const JfrChunkList &list)
      : source(source), options(options), list(list), n(list.chunks.size()), chunks(n) {
    recording_span(list, &start, &end);
    threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::max(threads, 1u);
    spare_stacks.reserve(spares()); // give_spare() never allocates
    spare_refs.reserve(spares());
    spare_columns.reserve(spares());
  }

  // Pass 1, on a worker: what chunk i holds.
  void survey_chunk(size_t i);
  // Chunk i's bytes that its survey reads as it indexes the pools, not at once: its last
  // checkpoint past the event header, when it holds a quarter of a big chunk or more
  // (async-profiler writes every pool in one, at the end), so that the chunk is never
  // resident whole; or any chunk's with LoadOptions::jfr_read_checkpoints_later. None else.
  std::vector<JfrConstantPools::Range> checkpoint_read_later(size_t i) const;
  // Reads chunk i's bytes [begin, begin + n) again, into `to`.
  JfrPoolPages::Reread reread(size_t i) {
    return [this, i](size_t begin, size_t n, char *to, std::string *err) {
      return source.reread(list.chunks[i], begin, n, to, err);
    };
  }
  // The slices of every chunk, in file order, after the windows of its stack traces when it
  // reads them in file order (plan_windows), and before those the slices decoded for the
  // stack traces the windows want.
  void plan_slices();
  // Whether chunk i may read its stack traces in file order (JfrChunkReader::
  // plan_stack_windows): a big chunk of a file, whose pages can be given back behind the
  // windows, or any with LoadOptions::jfr_stacks_in_file_order.
  bool may_read_stacks_in_file_order(size_t i) const {
    return options.jfr_stacks_in_file_order ||
           (source.rereads() && list.chunks[i].size >= kStacksInFileOrderBytes);
  }
  // After the routes: chunk i's windows, when it reads its stack traces in file order.
  void plan_windows(size_t i);
  size_t slice_bytes() const {
    return options.jfr_slice_bytes ? options.jfr_slice_bytes : kDefaultSliceBytes;
  }
  // Whether chunk i failed; if so, `failure` says how.
  bool chunk_failed(size_t i);
  // Product events in order of first appearance, and which event each chunk's types feed.
  void plan_events();
  // Drops the events options.only_event leaves out.
  void select_event();
  // Each slice's capacity in its events, the chunks' routes, the stack columns' room.
  void plan_ranges();
  // Whether chunk i is read from a file and held alone (the held limit or more): pass 2 reads
  // it without its stack-trace pools and gives their pages back behind the slices.
  bool held_alone(size_t i) const {
    return source.rereads() && static_cast<size_t>(list.chunks[i].size) >= source.held_limit();
  }
  // Pass 2, on a worker: the bytes of chunk i, acquired by its first slice. False (with
  // *error) when they cannot be read.
  bool chunk_bytes(size_t i, std::string *error);
  // Pass 2, on a worker: slice k decoded into raw columns of its own and its new stack traces
  // read ahead (those no earlier slice references), then, in file order, its references
  // resolved into `out`.
  void read_slice(size_t k);
  // Pass 2, on a worker: slice sw's events decoded into sw.raw; false (with refs->error) when
  // they are corrupt.
  bool decode_slice(SliceWork &sw, JfrSliceRefs *refs);
  // Pass 2, in file order: slice k's samples appended to the events' columns and freed; once
  // it is its chunk's last, the chunk's reader and bytes let go. False (with `failure` set)
  // to stop.
  bool merge_slice(size_t k);
  // The events into `out`, with optional columns dropped where they hold defaults. False
  // (with `failure` set) when an event's totals overflow.
  bool add_events();
  // One event into `out` (none when it has no samples, or is a type of its own without stacks).
  bool add_event(PlannedEvent &ev);
  // The finished profile and its metadata.
  LoadResult finish();

  JfrSource &source;
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
  std::string by_type; // the events named by their JFR type, for the load warning
  ProfileBuilder out;
  // The slices resolve into `out` in file order: `resolved` of them have, guarded by mu.
  std::mutex mu;
  std::condition_variable cv;
  size_t resolved = 0;
  // The buffers of merged slices, for the next slices to take (a fresh buffer costs a page
  // fault and a zeroing per page): as many sets as slices can be in flight (run_in_order's
  // window of threads + 1 slices read ahead, and the one being merged), freed after the last
  // slice. Guarded by spare_mu.
  size_t spares() const { return threads + 2; }
  std::mutex spare_mu;
  std::vector<JfrRawStacks> spare_stacks;
  std::vector<JfrSliceRefs> spare_refs;
  std::vector<std::vector<JfrEventColumns>> spare_columns;
  template <class T> T take_spare(std::vector<T> &from) {
    std::lock_guard<std::mutex> lock(spare_mu);
    if (from.empty()) return T();
    T t = std::move(from.back());
    from.pop_back();
    return t;
  }
  template <class T> void give_spare(std::vector<T> &to, T &&t) {
    std::lock_guard<std::mutex> lock(spare_mu);
    if (to.size() < spares()) to.push_back(std::move(t));
  }
  std::vector<std::string> producers;
  int64_t period = 0;
  size_t done_bytes = 0;
};

void JfrRead::survey_chunk(size_t i) {
  try {
    ChunkWork &c = chunks[i];
    const std::vector<JfrConstantPools::Range> later = checkpoint_read_later(i);
    if (!source.acquire(list.chunks[i], &c.bytes, &c.error, later)) {
      c.error_offset = options.cancelled() ? -1 : static_cast<int64_t>(list.chunks[i].offset);
      return;
    }
    c.reader = std::make_unique<JfrChunkReader>(c.bytes.bytes, list.chunks[i], start, options,
                                                &metadata_cache);
    c.read_later = !later.empty();
    // The pieces are read ahead on a core that the survey leaves idle (a file of one chunk).
    if (c.read_later) c.reader->read_later(later, reread(i), slice_bytes(), threads > n);
    if (!c.reader->survey(slice_bytes())) {
      c.error = c.reader->error();
      c.error_offset = c.reader->error_offset();
    }
    c.info = c.reader->info();
    // The pools indexed while the bytes are held, for plan_windows().
    if (c.error.empty() && (may_read_stacks_in_file_order(i) || c.read_later))
      c.reader->stack_ranges();
    // A file of several chunks is read again chunk by chunk in pass 2, into reused buffers;
    // one chunk alone keeps its bytes. A chunk held alone is read again without the pages of
    // its stack-trace pools (on deep-stack recordings most of its bytes), which are read as
    // slices need them (unless plan_windows() reads them in file order).
    if (source.rereads() && n > 1) {
      if (c.error.empty() && held_alone(i)) c.skip = c.reader->stack_ranges();
      c.reader->attach({}); // nothing of the buffer is read or given back till pass 2
      source.release(list.chunks[i], &c.bytes, false);
    }
  } catch (const std::exception &e) { // out of memory
    chunks[i].error = std::string("cannot read JFR chunk: ") + e.what();
    chunks[i].error_offset = static_cast<int64_t>(list.chunks[i].offset);
    if (chunks[i].bytes.held()) source.release(list.chunks[i], &chunks[i].bytes, false);
  }
}

std::vector<JfrConstantPools::Range> JfrRead::checkpoint_read_later(size_t i) const {
  const JfrChunkHeader &h = list.chunks[i];
  if (!source.rereads() || h.constant_pool_offset <= 0 || h.constant_pool_offset >= h.size ||
      (!options.jfr_read_checkpoints_later && !(held_alone(i) && may_read_stacks_in_file_order(i))))
    return {};
  const size_t at = static_cast<size_t>(h.constant_pool_offset);
  char head[16];
  const size_t n = std::min(sizeof head, static_cast<size_t>(h.size) - at);
  std::string error;
  if (!source.reread(h, at, n, head, &error)) return {}; // the survey reports it
  JfrInput in(std::string_view(head, n), 0, n, h.compressed_integers());
  const int64_t size = in.i32();
  if (!in.ok() || size <= 0 || size > h.size - h.constant_pool_offset ||
      (!options.jfr_read_checkpoints_later && size * 4 < h.size))
    return {};
  // Past the event's header (six integers: at most 47 bytes), which the survey reads.
  return {JfrConstantPools::Range{at + 64, at + static_cast<size_t>(size)}};
}

bool JfrRead::chunk_failed(size_t i) {
  if (chunks[i].error.empty()) return false;
  failure = LoadResult::failure(chunks[i].error, chunks[i].error_offset);
  return true;
}

// jdk.ExecutionSample is named by the chunk's `event` setting, else by the previous chunk's.
// async-profiler 2.x wrote its wall-clock samples as jdk.ExecutionSample too: when a chunk's
// settings have both a cpu `event` and a `wall` interval, its samples in a thread state are
// wall and the others (STATE_DEFAULT) cpu, as async-profiler's converter splits them.
// The TLAB events and jdk.ObjectAllocationSample estimate the same allocations: alloc takes
// the TLAB events when the recording has any, and the samples are then alloc-sample.
void JfrRead::plan_events() {
  bool has_tlab = false;
  for (const ChunkWork &c : chunks)
    for (const JfrChunkInfo::SampleType &t : c.info.sample_types)
      has_tlab |= t.count > 0 && t.rule->weight == JfrWeight::tlab_or_allocation;
  auto event_named = [&](const std::string &name, std::string_view unit) {
    size_t e = 0;
    while (e < events.size() && events[e].name != name) e++;
    if (e == events.size()) {
      events.emplace_back();
      events[e].name = name;
      events[e].unit = unit;
    }
    return e;
  };
  // The type's index in the event's sources (the source column holds a byte: the table
  // feeds no event from more than a few types, and a type named by itself is its own event).
  auto add_source = [](PlannedEvent &ev, const std::string &type) {
    auto it = std::find(ev.sources.begin(), ev.sources.end(), type);
    if (it == ev.sources.end()) it = ev.sources.insert(it, type);
    return static_cast<uint8_t>(it - ev.sources.begin());
  };
  std::string setting;
  for (ChunkWork &c : chunks) {
    if (!c.info.exec_setting.empty()) {
      exec_name = jfr_execution_event_name(c.info.exec_setting);
      setting = c.info.exec_setting;
    }
    c.split = exec_name == "cpu" && !c.info.wall_setting.empty();
    for (const JfrChunkInfo::SampleType &t : c.info.sample_types) {
      const std::string &type = t.type;
      const JfrEventRule *rule = t.rule;
      std::string name = rule->named_by_type   ? type
                         : rule->event.empty() ? exec_name
                                               : std::string(rule->event);
      if (has_tlab && !rule->event_beside_tlab.empty()) name = rule->event_beside_tlab;
      const size_t e = event_named(name, rule->unit);
      PlannedEvent &ev = events[e];
      const uint8_t source = add_source(ev, type);
      ev.by_type = rule->named_by_type;
      ev.count |= rule->weight == JfrWeight::samples;
      ev.value |= rule->weight != JfrWeight::samples && rule->weight != JfrWeight::one;
      ev.state |= t.state;
      if (rule->event.empty() && c.split) {
        const std::string both = ": async-profiler 2.x wrote cpu and wall samples as one type "
                                 "(settings event=" +
                                 setting + ", wall=" + c.info.wall_setting + ")";
        const size_t w = event_named("wall", rule->unit);
        events[w].state = events[e].state = true;
        events[e].wall_source = add_source(events[w], type);
        events[e].wall = w;
        if (events[e].rule.empty()) events[e].rule = type + " in STATE_DEFAULT" + both;
        if (events[w].rule.empty()) events[w].rule = type + " in other states" + both;
      } else if (rule->event.empty() && !setting.empty() && ev.rule.empty()) {
        ev.rule = type + ", named by the recording's setting event=" + setting;
      }
      c.routes.push_back(JfrRoute{type, e, source});
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
  // A JFR type's name picks the event it feeds (Profile::find_event), with its split pair.
  for (size_t e = 0; e < events.size() && keep == events.size(); e++)
    if (std::find(events[e].sources.begin(), events[e].sources.end(), want) !=
        events[e].sources.end())
      keep = e;
  // No such event or type: load them all, so errors can list them.
  if (keep == events.size()) return;
  // The kept event, and the one it splits samples with (the wall samples come from cpu's).
  std::vector<size_t> index(events.size(), SIZE_MAX);
  std::vector<PlannedEvent> kept;
  for (size_t e = 0; e < events.size(); e++)
    if (e == keep || events[keep].wall == e || events[e].wall == keep) {
      index[e] = kept.size();
      kept.push_back(std::move(events[e]));
    }
  for (PlannedEvent &ev : kept)
    if (ev.wall != SIZE_MAX) ev.wall = index[ev.wall];
  events = std::move(kept);
  for (ChunkWork &c : chunks) {
    std::erase_if(c.routes, [&](const JfrRoute &r) { return index[r.range] == SIZE_MAX; });
    for (JfrRoute &r : c.routes) r.range = index[r.range];
  }
}

void JfrRead::plan_windows(size_t i) {
  ChunkWork &c = chunks[i];
  if (!c.error.empty() || !may_read_stacks_in_file_order(i)) return;
  // Windows resolve every stack trace of the chunk, those of the events left out too
  // (only_event): worth it when the events loaded hold at least half of its samples, or when
  // the survey gave the stack-trace pages back (read_later): they are read from the file
  // again either way, and windows keep 16 MB of them resident, not all (deep-stacks-ap
  // `hot -e cpu`: peak 930 -> 447 MB, 5-15% slower).
  int64_t loaded = 0, all = 0;
  for (const JfrChunkInfo::SampleType &t : c.info.sample_types) {
    all += t.count;
    for (const JfrRoute &r : c.routes)
      if (r.type == t.type) loaded += t.count;
  }
  if (!options.jfr_stacks_in_file_order && !c.read_later && loaded * 2 < all) return;
  // Each window reads ahead every frame of the chunk anew: windows of 4 slices' bytes. Those
  // of a load that leaves samples out resolve only the stack traces of the samples it keeps
  // (deep-stacks-ap `hot -e alloc`, 280 k of its 2.28 M stack traces: 8.6-9.1 -> 2.7-2.9 s).
  c.wanted = loaded < all;
  c.windows =
      c.reader->plan_stack_windows(4 * slice_bytes(), options.jfr_stacks_in_file_order, c.wanted);
  if (c.windows > 0) c.skip = {}; // pages between two windows are in neither: read them all
  if (c.windows == 0) c.wanted = false;
}

void JfrRead::plan_slices() {
  for (size_t i = 0; i < n; i++) {
    plan_windows(i);
    ChunkWork &c = chunks[i];
    c.first_slice = slices.size();
    const auto add = [&](size_t index, SliceWork::Kind kind) {
      slices.emplace_back();
      slices.back().chunk = i;
      slices.back().index = index;
      slices.back().kind = kind;
    };
    if (c.wanted)
      for (size_t k = 0; k < c.info.slices.size(); k++) add(k, SliceWork::stacks_wanted);
    c.wanted_before = slices.size();
    for (size_t w = 0; w < c.windows; w++) add(w, SliceWork::window);
    for (size_t k = 0; k < c.info.slices.size(); k++) add(k, SliceWork::events);
  }
}

void JfrRead::plan_ranges() {
  for (SliceWork &sw : slices) {
    const ChunkWork &c = chunks[sw.chunk];
    sw.ranges.resize(events.size());
    if (sw.kind == SliceWork::window) continue;
    const JfrSlice &sl = c.info.slices[sw.index];
    for (const JfrRoute &r : c.routes)
      for (size_t t = 0; t < c.info.sample_types.size(); t++)
        if (c.info.sample_types[t].type == r.type)
          sw.ranges[r.range].capacity += static_cast<size_t>(sl.counts[t]);
    if (sw.kind == SliceWork::events)
      for (size_t e = 0; e < events.size(); e++) events[e].size += sw.ranges[e].capacity;
  }
  for (ChunkWork &c : chunks) c.reader->route(c.routes);
  for (PlannedEvent &ev : events) {
    // Rows differ by stack and source only when the load reads no threads and no times, and
    // the event has no counts of its own (a merged row's count is its number of samples) and
    // no states.
    ev.merge = options.merge_samples && !options.sample_threads && !options.sample_times &&
               !ev.count && !ev.state;
    ev.merged_keys = options.jfr_merged_keys ? options.jfr_merged_keys : kDefaultMergedKeys;
    // Address space only: a merged event touches what its rows take.
    ev.columns.stack.reserve(ev.size);
    if (options.sample_threads) ev.columns.thread.reserve(ev.size);
    if (options.sample_times) ev.columns.time.reserve(ev.size);
    if (ev.count) ev.columns.count.reserve(ev.size);
    if (ev.value) ev.columns.value.reserve(ev.size);
    if (ev.state) ev.columns.state.reserve(ev.size);
    if (ev.sources.size() > 1) ev.columns.source.reserve(ev.size);
  }
}

bool JfrRead::chunk_bytes(size_t i, std::string *error) {
  ChunkWork &c = chunks[i];
  std::lock_guard<std::mutex> lock(*c.bytes_mu);
  if (c.pages_given) return true;
  const bool unread = !c.bytes.held() && !c.skip.empty();
  if (!c.bytes.held()) {
    if (!source.acquire(list.chunks[i], &c.bytes, error, c.skip)) return false;
    c.reader->attach(c.bytes.bytes);
  }
  c.skip = {};
  // Bytes read from a file are the chunk's own buffer, which can be read again. Only a chunk
  // held alone takes enough memory to be worth giving back: a page given back costs a page
  // fault and a zeroing when it is read again. (Pools left unread are of such a chunk.)
  if (held_alone(i) || c.read_later || (source.rereads() && options.jfr_reread_stack_pools))
    c.reader->give_back_stack_pages(reread(i), unread, options.jfr_reread_stack_pools);
  c.pages_given = true;
  return true;
}

bool JfrRead::decode_slice(SliceWork &sw, JfrSliceRefs *refs) {
  sw.raw = take_spare(spare_columns);
  sw.raw.resize(events.size());
  for (size_t e = 0; e < events.size(); e++) {
    JfrEventColumns &raw = sw.raw[e];
    const size_t cap = sw.ranges[e].capacity;
    // Sized (decode() writes what is read), or empty when the event has no such column.
    // A column that grows takes a quarter more than it needs, so that the next slices, of
    // about the same size, reuse it instead of faulting in a fresh buffer each.
    const auto fit = [cap](auto &column, bool used) {
      const size_t n = used ? cap : 0;
      if (n > column.capacity()) {
        column = {};
        column.reserve(n + n / 4);
      }
      column.resize(n);
    };
    fit(raw.stack, true);
    fit(raw.thread, options.sample_threads);
    fit(raw.time, options.sample_times);
    fit(raw.count, events[e].count);
    fit(raw.value, events[e].value);
    fit(raw.state, events[e].state);
    fit(raw.source, events[e].sources.size() > 1);
    sw.ranges[e].columns = &raw;
  }
  return chunks[sw.chunk].reader->decode(sw.index, sw.ranges, refs);
}

void JfrRead::read_slice(size_t k) {
  SliceWork &sw = slices[k];
  ChunkWork &c = chunks[sw.chunk];
  JfrSliceRefs refs = take_spare(spare_refs);
  refs.clear();
  JfrRawStacks raw = take_spare(spare_stacks);
  bool decoded = false;
  try {
    const bool held = chunk_bytes(sw.chunk, &refs.error);
    if (held && sw.kind == SliceWork::window) {
      if (c.wanted) { // the stack traces wanted are all known once those slices resolved
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return resolved >= c.wanted_before; });
      }
      c.reader->window_refs(sw.index, &refs); // windows do not overlap: nothing to claim
      c.reader->read_stacks(refs, nullptr, static_cast<uint32_t>(k), &raw);
      decoded = true;
    } else if (held) {
      decoded = decode_slice(sw, &refs);
      // After windows, every stack trace the slice references is resolved already (a chunk
      // with slices decoded for the windows' wanted stack traces has windows).
      if (decoded && c.windows > 0)
        raw.stacks.clear();
      else if (decoded)
        c.reader->read_stacks(refs, c.claims.get(), static_cast<uint32_t>(k), &raw);
    } else if (!options.cancelled()) {
      refs.error_offset = static_cast<int64_t>(list.chunks[sw.chunk].offset);
    }
  } catch (const std::exception &e) { // out of memory
    refs.error = std::string("cannot read JFR chunk: ") + e.what();
    refs.error_offset = static_cast<int64_t>(list.chunks[sw.chunk].offset);
  }
  if (!decoded) {
    sw.error = refs.error;
    sw.error_offset = refs.error_offset;
  }
  if (sw.kind != SliceWork::stacks_wanted) {
    sw.bad_events = refs.bad_events;
    sw.bad_event_offset = refs.bad_event_offset;
  }
  // This slice's turn: every slice before it has resolved (or failed).
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return resolved == k; });
  lock.unlock();
  try {
    if (decoded && c.error.empty() && sw.kind == SliceWork::stacks_wanted) {
      c.reader->want_stacks(refs);
    } else if (decoded && c.error.empty()) {
      if (!c.reader->resolve(refs, raw, out, sw.ranges)) {
        c.error = c.reader->error();
        c.error_offset = c.reader->error_offset();
      } else if (sw.kind == SliceWork::window) {
        c.reader->release_window(sw.index);
      } else if (sw.index + 1 < c.info.slices.size()) {
        // A page given back costs a fault and a zeroing if it is read again: worth it once the
        // stack tree built so far takes a quarter of the chunk's bytes (deep stacks), not for
        // the few stacks of a few samples, whose tree keeps the peak low anyway.
        if (out.stack_count() * 2 * sizeof(StackId) >=
            static_cast<size_t>(list.chunks[sw.chunk].size) / 4)
          c.reader->release_stack_pages(sw.index);
      } else {
        int64_t bad = 0, bad_at = -1;
        for (size_t j = c.first_slice; j <= k; j++) {
          if (slices[j].bad_events && bad == 0) bad_at = slices[j].bad_event_offset;
          bad += slices[j].bad_events;
        }
        c.reader->finish(out, bad, bad_at);
      }
    }
  } catch (const std::exception &e) { // out of memory
    if (c.error.empty()) {
      c.error = std::string("cannot read JFR chunk: ") + e.what();
      c.error_offset = static_cast<int64_t>(list.chunks[sw.chunk].offset);
    }
  }
  raw.give_back_unused();
  give_spare(spare_stacks, std::move(raw));
  give_spare(spare_refs, std::move(refs));
  if (sw.kind == SliceWork::stacks_wanted) {
    give_spare(spare_columns, std::move(sw.raw));
    sw.raw = {};
  }
  lock.lock();
  resolved++;
  lock.unlock();
  cv.notify_all();
}

namespace {
// Sums `raw`'s first n samples (their `values`, or 1 each when null) into the merged rows of
// their stack and source; a sample whose key is past merged_keys is a row of its own.
void merge_samples(const JfrEventColumns &raw, size_t n, const int64_t *values, PlannedEvent &ev) {
  SampleColumns &c = ev.columns;
  const uint64_t sources = ev.merged_sources();
  for (size_t i = 0; i < n; i++) {
    const StackId s = raw.stack[i];
    const uint8_t source = raw.source.empty() ? 0 : raw.source[i];
    const uint64_t key = (s == kNoStack ? 0 : uint64_t{s} + 1) * sources + source;
    const int64_t value = values ? values[i] : 1;
    if (key >= ev.merged_keys) {
      c.stack.push_back(s);
      c.value.push_back(value);
      c.source.push_back(source);
      ev.single_rows++;
      continue;
    }
    if (key >= ev.merged_count.size()) {
      const size_t size = std::max<size_t>(key + 1, ev.merged_count.size() * 2);
      ev.merged_count.resize(size, 0);
      ev.merged_value.resize(size, 0);
    }
    ev.merged_count[key]++;
    ev.overflow |= __builtin_add_overflow(ev.merged_value[key], value, &ev.merged_value[key]);
  }
}

// Appends an event's merged rows, in key order, after its single rows: a row's count is its
// number of samples.
void build_merged(PlannedEvent &ev) {
  SampleColumns &c = ev.columns;
  const uint64_t sources = ev.merged_sources();
  c.count.append(ev.single_rows, 1);
  for (uint64_t key = 0; key < ev.merged_count.size(); key++) {
    if (ev.merged_count[key] == 0) continue;
    c.stack.push_back(key < sources ? kNoStack : static_cast<StackId>(key / sources - 1));
    c.count.push_back(ev.merged_count[key]);
    c.value.push_back(ev.merged_value[key]);
    c.source.push_back(static_cast<int64_t>(key % sources));
    ev.any_count |= ev.merged_count[key] != 1;
  }
  ev.merged_count = {};
  ev.merged_value = {};
}

// Appends `raw`'s first n samples to an event's columns (or sums them into its merged rows),
// noting which hold more than defaults and summing its totals.
void append_samples(const JfrEventColumns &raw, size_t n, PlannedEvent &ev) {
  SampleColumns &c = ev.columns;
  const bool keep = !ev.merge; // else only summed, by merge_samples()
  if (keep) c.stack.append(raw.stack.data(), n);
  bool thread = false, time = false, count = false, value = false, stack = false;
  for (size_t i = 0; i < n; i++) stack |= raw.stack[i] != kNoStack;
  if (!raw.thread.empty()) {
    c.thread.append(raw.thread.data(), n);
    for (size_t i = 0; i < n; i++) thread |= raw.thread[i] != 0;
  }
  if (!raw.time.empty()) {
    c.time.append(raw.time.data(), n);
    for (size_t i = 0; i < n; i++) time |= raw.time[i] != 0;
  }
  if (!raw.source.empty() && keep) c.source.append(raw.source.data(), n);
  const int64_t *counts = raw.count.empty() ? nullptr : raw.count.data();
  const int64_t *values = raw.value.empty() ? counts : raw.value.data();
  if (counts) {
    if (ev.count) c.count.append(counts, n);
    for (size_t i = 0; i < n; i++) {
      count |= counts[i] != 1;
      ev.overflow |= __builtin_add_overflow(ev.total_count, counts[i], &ev.total_count);
    }
  } else {
    if (ev.count) c.count.append(n, 1);
    ev.overflow |= __builtin_add_overflow(ev.total_count, static_cast<int64_t>(n), &ev.total_count);
  }
  if (values) {
    if (ev.value && keep) c.value.append(values, n);
    for (size_t i = 0; i < n; i++) {
      value |= values[i] != (counts ? counts[i] : 1);
      ev.overflow |= __builtin_add_overflow(ev.total_value, values[i], &ev.total_value);
    }
  } else {
    if (ev.value && keep) c.value.append(n, 1);
    ev.overflow |= __builtin_add_overflow(ev.total_value, static_cast<int64_t>(n), &ev.total_value);
  }
  if (ev.state) {
    if (raw.state.empty()) {
      c.state.append(n, 0);
    } else {
      c.state.append(raw.state.data(), n);
      for (size_t i = 0; i < n && !ev.any_state; i++) ev.any_state = raw.state[i] != 0;
    }
  }
  if (ev.merge) merge_samples(raw, n, values, ev);
  ev.any_stack |= stack;
  ev.any_thread |= thread;
  ev.any_time |= time;
  ev.any_count |= count;
  ev.any_value |= value;
}

// The first n samples of `raw` whose state is (`in_state`) or is not a thread state. When the
// event they go to, `to`, has a source column, their source is raw's own (source < 0) or
// `source`.
JfrEventColumns samples_by_state(const JfrEventColumns &raw, size_t n, bool in_state,
                                 const PlannedEvent &to, int source) {
  JfrEventColumns out;
  for (size_t i = 0; i < n; i++) {
    if ((raw.state[i] != 0) != in_state) continue;
    out.stack.push_back(raw.stack[i]);
    if (!raw.thread.empty()) out.thread.push_back(raw.thread[i]);
    if (!raw.time.empty()) out.time.push_back(raw.time[i]);
    if (!raw.count.empty()) out.count.push_back(raw.count[i]);
    if (!raw.value.empty()) out.value.push_back(raw.value[i]);
    out.state.push_back(raw.state[i]);
    if (to.sources.size() > 1)
      out.source.push_back(source < 0 ? raw.source[i] : static_cast<uint8_t>(source));
  }
  return out;
}
} // namespace

bool JfrRead::merge_slice(size_t k) {
  SliceWork &sw = slices[k];
  const size_t i = sw.chunk;
  ChunkWork &c = chunks[i];
  if (!sw.error.empty() && c.error.empty()) {
    failure = LoadResult::failure(sw.error, sw.error_offset);
    return false;
  }
  if (chunk_failed(i)) return false;
  if (sw.kind != SliceWork::events) return true; // no samples
  for (size_t e = 0; e < events.size(); e++) {
    const JfrEventColumns &raw = sw.raw[e];
    const size_t n = sw.ranges[e].written;
    if (c.split && events[e].wall != SIZE_MAX && !raw.state.empty()) {
      const PlannedEvent &wall = events[events[e].wall];
      const JfrEventColumns stateless = samples_by_state(raw, n, false, events[e], -1);
      const JfrEventColumns in_state = samples_by_state(raw, n, true, wall, events[e].wall_source);
      append_samples(stateless, stateless.stack.size(), events[e]);
      append_samples(in_state, in_state.stack.size(), events[events[e].wall]);
    } else {
      append_samples(raw, n, events[e]);
    }
  }
  give_spare(spare_columns, std::move(sw.raw));
  sw.raw = {};
  if (k + 1 == slices.size()) {
    std::lock_guard<std::mutex> lock(spare_mu);
    spare_stacks = {};
    spare_refs = {};
    spare_columns = {};
  }
  if (sw.index + 1 < c.info.slices.size()) return true;
  c.reader.reset();
  c.claims.reset();
  source.release(list.chunks[i], &c.bytes, true);
  if (std::find(producers.begin(), producers.end(), c.info.producer) == producers.end())
    producers.push_back(c.info.producer);
  if (period == 0) period = c.info.period_ns;
  done_bytes += static_cast<size_t>(list.chunks[i].size);
  if (options.progress)
    options.progress(static_cast<double>(done_bytes) / static_cast<double>(source.size()));
  if (options.cancelled()) {
    failure = LoadResult::failure("cancelled");
    return false;
  }
  return true;
}

bool JfrRead::add_events() {
  // The table's events first, then the types named by themselves, each in order of first
  // appearance.
  for (const bool own : {false, true})
    for (PlannedEvent &ev : events)
      if (ev.by_type == own && !add_event(ev)) return false;
  return true;
}

bool JfrRead::add_event(PlannedEvent &ev) {
  SampleColumns &c = ev.columns;
  if (ev.merge) build_merged(ev);
  if (c.size() == 0 || (ev.by_type && !ev.any_stack)) return true;
  if (ev.overflow) {
    failure = LoadResult::failure("JFR event " + ev.name + ": values overflow a 64-bit total", 0);
    return false;
  }
  // Columns that hold only their defaults are dropped, as ProfileBuilder::add_sample does.
  if (!ev.any_value) c.value.clear();
  if (!ev.any_count) c.count.clear();
  if (!ev.any_thread) c.thread.clear();
  if (!ev.any_time) c.time.clear();
  if (!ev.any_state) c.state.clear();
  if (ev.sources.size() < 2) c.source.clear();
  // A type of the user's whose events all last 0 ns (or are instants) is counted.
  if (ev.by_type && ev.value && ev.total_value == 0) {
    c.value.clear();
    ev.unit = "samples";
  }
  if (ev.by_type)
    by_type += (by_type.empty() ? "" : ", ") + ev.name + " (" + std::to_string(c.size()) +
               (c.size() == 1 ? " event)" : " events)");
  c.stack.shrink_to_fit();
  EventId id = out.event(ev.name, ev.unit);
  Event &e = out.event_at(id);
  for (const std::string &s : ev.sources) e.sources.push_back(out.intern(s));
  if (!ev.rule.empty()) e.rule = out.intern(ev.rule);
  e.samples = std::move(c);
  e.merged = ev.merge;
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
  if (!by_type.empty())
    md.warnings.push_back(LoadWarning{
        "JFR event types with stack traces that no hotlines event maps load as events of "
        "their own names (select one with its full name): " +
            by_type,
        -1, -1});
  if (!list.problem.empty())
    md.warnings.push_back(LoadWarning{list.problem + "; loaded the " + std::to_string(n) +
                                          " complete chunk(s) before it",
                                      list.problem_offset, -1});
  md.default_event = static_cast<int>(default_event(
      p.events.size(), [&](size_t e) { return p.str(p.events[e].name); }, exec_name));
  return LoadResult::success(std::move(profile));
}

LoadResult read_chunks(JfrSource &source, const LoadOptions &options) {
  JfrChunkList list = source.chunks();
  if (options.cancelled()) return LoadResult::failure("cancelled");
  if (list.chunks.empty())
    return LoadResult::failure(list.problem.empty() ? "empty JFR file" : list.problem,
                               list.problem_offset < 0 ? 0 : list.problem_offset);
  JfrRead r(source, options, list);

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

  // Pass 2: slices decoded on the workers, resolved into `out` in file order, appended to the
  // events' columns in file order.
  const unsigned workers = static_cast<unsigned>(std::min<size_t>(r.threads, r.slices.size()));
  // A worker may wait for the bytes of a chunk that only a merge lets go of: once merging
  // stops, the waits end.
  run_in_order(
      r.slices.size(), workers, [&](size_t k) { r.read_slice(k); },
      [&](size_t k) {
        bool go_on = false;
        try {
          go_on = r.merge_slice(k);
        } catch (...) {
          source.abandon();
          throw;
        }
        if (!go_on) source.abandon();
        return go_on;
      });
  if (!r.failure.error.empty()) return std::move(r.failure);

  if (!r.add_events()) return std::move(r.failure);
  return r.finish();
}

} // namespace

LoadResult read_jfr(std::string_view data, const LoadOptions &options) {
  try {
    JfrSource source(data, options.discard_input);
    return read_chunks(source, options);
  } catch (const std::exception &e) { // out of memory; readers never throw
    return LoadResult::failure(std::string("cannot read JFR data: ") + e.what(), 0);
  }
}

LoadResult read_jfr_file(const RegularFile &file, const LoadOptions &options) {
  try {
    JfrSource source(file, options.cancel,
                     options.threads ? options.threads : std::thread::hardware_concurrency(),
                     JfrSource::kSplitReadBytes,
                     options.jfr_held_bytes ? options.jfr_held_bytes : JfrSource::kHeldLimit);
    LoadResult r = read_chunks(source, options);
    if (file.changed()) return LoadResult::failure("the file changed while it was read");
    return r;
  } catch (const std::exception &e) { // out of memory; readers never throw
    return LoadResult::failure(std::string("cannot read JFR data: ") + e.what(), 0);
  }
}

} // namespace hotlines
