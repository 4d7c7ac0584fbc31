// What every reader returns, and the options every reader takes. Readers never throw: a
// failure is a LoadResult with an error message and, where known, the byte offset or line.
#pragma once

#include "formats/profile.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace hotlines {

// Caps on what one load may take in, against hostile or runaway files (gzip bombs, a profile
// the size of the disk). The defaults fit any profile we have seen by a wide margin: 4 GiB of
// profile data is tens of millions of samples and a model of several GiB; deflate's best ratio
// is about 1000:1, real profiles compress 2:1 (JFR, pprof) to 15:1 (collapsed text).
struct LoadLimits {
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(4) << 30;
  static constexpr double kDefaultMaxInflateRatio = 100;
  // Bytes read from the file, and bytes inflated from gzip.
  uint64_t max_bytes = kDefaultMaxBytes;
  // Inflated / compressed size, checked once the inflated data passes ratio_floor (small
  // files may compress better without being a danger).
  double max_inflate_ratio = kDefaultMaxInflateRatio;
  uint64_t ratio_floor = uint64_t(64) << 20;
  // How a user raises each limit ("the setting hotlines.limits.profileMiB", "--max-profile-mib");
  // errors name them.
  std::string bytes_hint, ratio_hint;
};

struct LoadOptions {
  // Polled by long-running readers; when it becomes true they stop with error "cancelled".
  const std::atomic<bool> *cancel = nullptr;
  // Called now and then with the fraction done (0..1); may be called from any thread.
  std::function<void(double)> progress;
  // Worker threads a reader may use (JFR chunks in parallel); 0 = hardware concurrency.
  unsigned threads = 0;
  LoadLimits limits;
  // Set: only this event is decoded (by its product name, "cpu", "alloc"; "" for the event the
  // reader would show by default), the others are left out of the profile; when the file has
  // no such event, all are loaded. For one-query commands on big JFR files; pprof and
  // collapsed readers load everything.
  std::optional<std::string> only_event;
  // False: the samples' threads (or times) are not read; their columns are left empty, as for
  // a recording without them. For one-query commands that neither filter nor show samples by
  // thread or time. JFR only; the other readers read all.
  bool sample_threads = true, sample_times = true;
  // With neither threads nor times read: the samples of one stack (and source) are summed
  // into one row whose count is their number (Event::merged), so a one-query command on
  // millions of samples keeps a row per stack. Events with counts of their own or thread
  // states keep their rows. JFR only.
  bool merge_samples = false;
  // Merged samples share a row when their stack id and source make a key below this (0: the
  // reader's default, 2^18); past it (a tree of millions of nodes, a few samples a stack) each
  // keeps its row. Tests make it small so that both kinds of rows are made; the views are the
  // same.
  size_t jfr_merged_keys = 0;
  // Bytes of JFR events decoded as one unit of work (0: the reader's default of a few MB).
  // Tests make it small to cut the fixtures into many slices; the profile is the same.
  size_t jfr_slice_bytes = 0;
  // Bytes of JFR chunks read from a file that may be held at once: a chunk that would take
  // them over waits for the others' release (0: the reader's default, 64 MB). Tests make it
  // small so that every chunk waits; the profile is the same.
  size_t jfr_held_bytes = 0;
  // The pages of a JFR chunk's stack-trace pools, read from a file, are given back before each
  // slice reads its stacks ahead and before it resolves them, not only once the slices before
  // them are done: tests make every stack and new frame be read from the file again; the
  // profile is the same.
  bool jfr_reread_stack_pools = false;
  // Every JFR chunk's stack traces are read first, in file order, in windows of 4 slices' bytes
  // (JfrChunkReader::plan_stack_windows), not only a big chunk's whose stack traces are one
  // big pool: tests read every fixture so; the views are the same (the stacks' ids are in
  // another order, and stacks that no sample references are in the tree).
  bool jfr_stacks_in_file_order = false;
  // Every JFR chunk read from a file is read without its last checkpoint, which is read piece
  // by piece (of jfr_slice_bytes) as its pools are indexed, the pages of its stack-trace pools
  // given back behind and read again when needed, not only a big chunk's whose checkpoint is
  // a quarter of it or more: tests read every fixture so; the profile is the same.
  bool jfr_read_checkpoints_later = false;
  // The caller owns the input bytes, will not read them again, and lets the reader give their
  // memory back to the system as it finishes with them (a JFR chunk once it is read), so a
  // big file's pages do not stay resident beside the profile. The bytes must be writable
  // memory of their own (a heap buffer), not a view into something shared.
  bool discard_input = false;
  // V8 profiles (.cpuprofile, .heapprofile): read the scripts they name and their source maps,
  // so frames land on the original sources. Off for the fuzzers, which must not read files.
  bool source_maps = true;
  // perf.data is read by running `perf script` (perf_data_reader.h); false refuses it instead
  // (the fuzzers, which must not start processes).
  bool run_tools = true;

  bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

struct LoadResult {
  std::unique_ptr<Profile> profile; // set on success
  std::string error;                // set on failure
  int64_t error_offset = -1;        // byte offset of the failure, when known
  int64_t error_line = -1;          // 1-based line of the failure, text formats

  bool ok() const { return profile != nullptr; }
  static LoadResult failure(std::string message, int64_t offset = -1, int64_t line = -1) {
    LoadResult r;
    r.error = std::move(message);
    r.error_offset = offset;
    r.error_line = line;
    return r;
  }
  static LoadResult success(std::unique_ptr<Profile> p) {
    LoadResult r;
    r.profile = std::move(p);
    return r;
  }
  // "message (at byte N)" / "message (line N)".
  std::string describe() const;
};

} // namespace hotlines
