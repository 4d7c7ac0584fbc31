// JfrChunkReader: reads one JFR chunk in two passes. survey() parses the metadata, the
// recording settings and counts the samples of each JFR event type (a walk over event
// headers); read() indexes the constant pools, decodes every sample and writes it straight
// into its slot of the final sample columns, resolving threads, stack traces, methods and
// classes lazily and once each into a ProfileBuilder. Chunks are self-contained, so readers of
// different chunks run in parallel on disjoint column ranges. One reader per thread.
#pragma once

#include "formats/jfr_chunk.h"
#include "formats/load_result.h"
#include "formats/profile_builder.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class JfrMetadataCache;

// What a chunk says about its recording, besides samples.
struct JfrChunkInfo {
  std::string exec_setting; // the first `event` ActiveSetting ("cpu", "cycles"), "" if none
  std::string producer;     // "async-profiler 4.5", "OpenJDK 17.0.15+6", "JDK Flight Recorder"
  int64_t period_ns = 0;    // sampling interval of jdk.ExecutionSample when recorded
  int64_t events = 0;       // events in the chunk, of every type
  // Sample-producing JFR event types present in the chunk, in order of first appearance,
  // with their number of events.
  std::vector<std::pair<std::string, int64_t>> sample_types;
};

// The sample columns of one product event, sized by the caller before read().
struct JfrEventColumns {
  std::vector<StackId> stack;
  std::vector<ThreadId> thread;
  std::vector<int64_t> time;
  std::vector<int64_t> count; // allocated only when a source has counts other than 1
  std::vector<int64_t> value; // allocated only when a source has values other than the count
};

// Where one chunk writes the samples of one product event: [begin, begin + capacity).
struct JfrColumnRange {
  JfrEventColumns *columns = nullptr;
  size_t begin = 0;
  size_t capacity = 0;
  size_t written = 0; // set by read(); less than capacity when corrupt events were skipped
};

class JfrChunkReader {
public:
  // `profile_start_ns` is the wall-clock start of the earliest chunk: sample times are
  // nanoseconds since then. `cache` (optional) shares parsed metadata between chunks.
  JfrChunkReader(std::string_view data, const JfrChunkHeader &chunk, int64_t profile_start_ns,
                 const LoadOptions &options, JfrMetadataCache *cache = nullptr);
  ~JfrChunkReader();

  // Pass 1: metadata, settings and sample counts into info(). False on corrupt data.
  bool survey();
  // Pass 2: every sample into its range: samples of JFR type T go to ranges[i] for the pair
  // (T, i) in `range_of_type`; types not listed are skipped without decoding. Ids come from `tables`. Problems
  // that lose single events or references become warnings on `tables`. False on corrupt data
  // or cancellation.
  bool read(ProfileBuilder &tables,
            const std::vector<std::pair<std::string, size_t>> &range_of_type,
            std::vector<JfrColumnRange> &ranges);

  const JfrChunkInfo &info() const;
  const std::string &error() const;
  int64_t error_offset() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace hotlines
