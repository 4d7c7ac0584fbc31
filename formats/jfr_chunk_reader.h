// JfrChunkReader: reads one JFR chunk. survey() parses the metadata and the recording
// settings and walks the event headers, counting the samples of each JFR event type and
// cutting the events into slices of a few MB. Then the slices are decoded — in parallel, even
// within one chunk — each straight into its slot of the final sample columns, with the
// stacks and threads it references collected as indexes into a JfrSliceRefs; resolve() then
// turns those references into model ids, slice after slice in file order, through the
// chunk's constant pools (each pool entry decoded once) into one ProfileBuilder.
// A chunk read from a file may give back the pages of its stack-trace pools behind the slices
// and read them again when needed (give_back_stack_pages(), JfrPoolPages); a chunk whose stack
// traces are in one big pool reads them first, in file order, window by window
// (plan_stack_windows()).
// Threading: survey(), stack_ranges(), plan_stack_windows(), route(), want_stacks(), resolve(),
// release_stack_pages(), release_window() and finish() on one thread at a time; decode(),
// window_refs() and read_stacks() of different slices on any threads at once (they read only
// what survey() and plan_stack_windows() prepared, and the constant pools, which load once).
#pragma once

#include "formats/default_init_allocator.h"
#include "formats/huge_pages.h"
#include "formats/jfr_chunk.h"
#include "formats/jfr_event_table.h"
#include "formats/jfr_id_map.h"
#include "formats/jfr_pool_pages.h"
#include "formats/jfr_raw_stacks.h"
#include "formats/jfr_stack_claims.h"
#include "formats/load_result.h"
#include "formats/profile_builder.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class JfrMetadataCache;

// A run of whole events of a chunk, [begin, end) in the file, decoded as one unit of work.
struct JfrSlice {
  size_t begin = 0, end = 0;
  std::vector<int64_t> counts; // events of each of the chunk's sample_types in the slice
};

// What a chunk says about its recording, besides samples.
struct JfrChunkInfo {
  std::string exec_setting; // the first `event` ActiveSetting ("cpu", "cycles"), "" if none
  std::string wall_setting; // async-profiler's `wall` interval setting, "" if none
  std::string producer;     // "async-profiler 4.5", "OpenJDK 17.0.15+6", "JDK Flight Recorder"
  int64_t period_ns = 0;    // sampling interval of jdk.ExecutionSample when recorded
  int64_t events = 0;       // events in the chunk, of every type
  // Sample-producing JFR event types present in the chunk, in order of first appearance,
  // with their number of events and the rule that makes them samples.
  struct SampleType {
    std::string type;
    int64_t count = 0;
    const JfrEventRule *rule = nullptr;
    bool state = false; // its events have a thread state field
  };
  std::vector<SampleType> sample_types;
  std::vector<JfrSlice> slices; // the chunk's events, in order
};

// A column of JfrEventColumns: resize() leaves new elements unwritten.
template <class T> using JfrColumn = std::vector<T, DefaultInitAllocator<T>>;

// The sample columns of one product event, sized by the caller before decoding. decode() writes
// every column of each sample it counts in JfrColumnRange::written, and only those are read, so
// the columns are sized, not filled.
struct JfrEventColumns {
  JfrColumn<StackId> stack;
  JfrColumn<ThreadId> thread; // empty when the load leaves threads out (sample_threads)
  JfrColumn<int64_t> time;    // empty when the load leaves times out (sample_times)
  JfrColumn<int64_t> count;   // allocated only when a source has counts other than 1
  JfrColumn<int64_t> value;   // allocated only when a source has values other than the count
  JfrColumn<uint32_t> state;  // allocated only when a source has a thread state
  JfrColumn<uint8_t> source;  // allocated only for an event of several sources: which one
};

// Where the samples of one JFR type go in pass 2: the caller's ranges[range], as source
// `source` of their event.
struct JfrRoute {
  std::string type;
  size_t range = 0;
  uint8_t source = 0;
};

// Where one slice writes the samples of one product event: [begin, begin + capacity).
struct JfrColumnRange {
  JfrEventColumns *columns = nullptr;
  size_t begin = 0;
  size_t capacity = 0;
  size_t written = 0; // set by decode(); less than capacity when corrupt events were skipped
};

// The constant-pool references of one decoded slice, in order of first use. Until resolve(),
// the slice's stack, thread and state columns hold indexes into `refs`.
struct JfrSliceRefs {
  struct Ref {
    int type = -1, type_b = -1;  // pool classes; -1: no reference
    uint64_t key = 0, key_b = 0; // a thread: the sampled thread, else (b) the event thread
    size_t at = 0;               // where the first use is, for warnings
  };
  HugeVector<Ref> stacks; // many on deep-stack recordings
  std::vector<Ref> threads;
  std::vector<Ref> states; // jdk.types.ThreadState references (state index 0 is none)
  // Resolution order: 3 * i + kind, i an index into stacks (kind 0), threads (1) or states (2).
  HugeVector<uint32_t> order;
  int64_t bad_events = 0, bad_event_offset = -1;
  std::string error; // set when the slice cannot be decoded
  int64_t error_offset = -1;
  // decode()'s scratch: stack key -> index into `stacks`, per pool class, emptied by decode()
  // but for its slots, so that the next slice decoded into these refs neither grows the maps
  // again nor faults in fresh pages (a deep-stack slice references tens of thousands of stack
  // traces).
  std::vector<std::pair<int, JfrIdMap<uint32_t>>> stack_keys;

  // Empties the refs for another slice, keeping the memory of every vector.
  void clear();
};

class JfrChunkReader {
public:
  // `chunk_bytes` are the chunk's `chunk.size` bytes, header included; the offsets the reader
  // reports (errors, warnings) are in the file, from `chunk.offset`. `profile_start_ns` is the
  // wall-clock start of the earliest chunk: sample times are nanoseconds since then. `cache`
  // (optional) shares parsed metadata between chunks.
  JfrChunkReader(std::string_view chunk_bytes, const JfrChunkHeader &chunk,
                 int64_t profile_start_ns, const LoadOptions &options,
                 JfrMetadataCache *cache = nullptr);
  ~JfrChunkReader();
  // The chunk's bytes, read again into another buffer: the reader keeps nothing that points
  // into the bytes it had, only offsets. For a file read chunk by chunk into reused buffers,
  // once between survey() and decode().
  void attach(std::string_view chunk_bytes);

  // Before survey(): the bytes attached were read from a file without the whole pages of
  // `skipped` (JfrSource::acquire's `skip`: a big checkpoint), which `reread` reads, `ahead`
  // bytes at a time at least, as the pools are indexed; the stack-trace pools' pages are given
  // back behind, for give_back_stack_pages() to read again when needed (which must follow).
  // With `read_ahead`, the next `ahead` bytes are read on a thread of their own meanwhile.
  void read_later(const std::vector<JfrConstantPools::Range> &skipped, JfrPoolPages::Reread reread,
                  size_t ahead, bool read_ahead);
  // After survey(): where the entries of the stack-trace pools that samples reference are
  // (chunk offsets, in order), indexing the pools now; none when they are corrupt (resolve()
  // reports it). For a chunk acquired again without them (JfrSource::acquire's `skip`).
  std::vector<JfrConstantPools::Range> stack_ranges();
  // The bytes attached are the reader's own buffer, read from a file by `reread` (chunk
  // offsets): the pages of its stack-trace pools may be given back (release_stack_pages()) and
  // read again when needed. With `unread`, the bytes were read without the stack_ranges()'
  // whole pages, which are read when first needed. With `always`, they are given back before
  // every read_stacks() and resolve() (LoadOptions::jfr_reread_stack_pools). Before the first
  // read_stacks().
  void give_back_stack_pages(JfrPoolPages::Reread reread, bool unread, bool always);
  // Pass 2, after slice `s` resolved: gives back the pages of the stack-trace pools that end
  // before the slice does (JfrPoolPages::release_before); the bytes given back.
  size_t release_stack_pages(size_t s);

  // Reading the stack traces in file order, for a chunk whose stack-trace pool is one range
  // of at least a quarter of it (async-profiler writes every stack trace in one pool at the
  // end, read by the events in no order, so that the whole pool would stay resident through
  // the load), or any chunk when `force`: after survey(), before give_back_stack_pages(), cuts
  // the entries that samples can reference, in file order, into windows of about `bytes`; the
  // number of windows, 0 when the chunk is not read so (or has no such entries). With
  // `only_wanted` (a load that leaves some of the chunk's sample types out), the windows give
  // only the stack traces that want_stacks() names.
  size_t plan_stack_windows(size_t bytes, bool force, bool only_wanted);
  // Before the first window's window_refs(), with only_wanted: the stack traces that a slice's
  // events reference (decode()'s refs, of the events the load keeps), slice after slice.
  void want_stacks(const JfrSliceRefs &refs);
  // Window w's entries (those wanted) as the stack references of a slice without events, for
  // read_stacks() and resolve(), which then keep every stack trace for the chunk's slices
  // (whose own references need not be read ahead).
  void window_refs(size_t w, JfrSliceRefs *refs) const;
  // After window w resolved: gives back the pages of the windows before it (but the last);
  // the bytes given back. After the last, drops what want_stacks() named.
  size_t release_window(size_t w);

  // Pass 1: metadata, settings, sample counts and slices of about `slice_bytes` into info().
  // False on corrupt data.
  bool survey(size_t slice_bytes);
  // Before pass 2: where each type's samples go; types not listed are skipped without
  // decoding.
  void route(const std::vector<JfrRoute> &routes);
  // Pass 2, on any thread: info().slices[s] into `ranges` (by event index), its references
  // into *refs. False (with refs->error) on corrupt data or cancellation.
  bool decode(size_t s, std::vector<JfrColumnRange> &ranges, JfrSliceRefs *refs) const;
  // Pass 2, on any thread, after decode(): the frames of the stack traces that slice number
  // `slice` claims in *claims (those no earlier slice of the chunk references; all of them
  // without claims, as for a window) read ahead into *raw for resolve(). The chunk's constant
  // pools are indexed by the first slice that needs them; when they are corrupt nothing is
  // read and resolve() reports it.
  void read_stacks(const JfrSliceRefs &refs, JfrStackClaims *claims, uint32_t slice,
                   JfrRawStacks *raw);
  // Pass 2, slice after slice in order: the references of a decoded slice resolved into
  // `tables`, with its stack traces read ahead in `raw`, and its columns rewritten to the
  // model's ids. Problems that lose single references become warnings. False when the constant
  // pools are corrupt.
  bool resolve(const JfrSliceRefs &refs, const JfrRawStacks &raw, ProfileBuilder &tables,
               std::vector<JfrColumnRange> &ranges);
  // After the last slice: warnings about the chunk's skipped events (the sum of its slices')
  // and missing references into `tables`.
  void finish(ProfileBuilder &tables, int64_t bad_events, int64_t bad_event_offset);

  const JfrChunkInfo &info() const;
  const std::string &error() const;
  int64_t error_offset() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace hotlines
