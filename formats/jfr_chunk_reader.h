// JfrChunkReader: reads one JFR chunk into a ProfileBuilder — its metadata, constant pools and
// events, resolving threads, stack traces, methods and classes lazily and once each. Chunks
// are self-contained, so readers of different chunks run in parallel, each with its own
// builder. One reader is used by one thread.
#pragma once

#include "formats/jfr_chunk.h"
#include "formats/load_result.h"
#include "formats/profile_builder.h"

#include <memory>
#include <string>
#include <string_view>

namespace hotlines {

// What a chunk says about its recording, besides samples.
struct JfrChunkInfo {
  std::string exec_setting; // the first `event` ActiveSetting ("cpu", "cycles"), "" if none
  std::string producer;     // "async-profiler 4.5", "OpenJDK 17.0.15+6", "JDK Flight Recorder"
  int64_t period_ns = 0;    // sampling interval of jdk.ExecutionSample when recorded
  int64_t events = 0;       // events in the chunk, of every type
  int64_t samples = 0;      // samples added to the builder
};

class JfrChunkReader {
public:
  // `profile_start_ns` is the wall-clock start of the earliest chunk: sample times are
  // nanoseconds since then.
  JfrChunkReader(std::string_view data, const JfrChunkHeader &chunk, int64_t profile_start_ns,
                 const LoadOptions &options);
  ~JfrChunkReader();

  // Reads every sample of the chunk into `builder`; jdk.ExecutionSample goes to the event
  // named kJfrExecutionSample until the caller renames it. Returns false on corrupt data or
  // cancellation, with error() and error_offset() set. Problems that lose single events or
  // references become warnings on the builder.
  bool read(ProfileBuilder &builder);

  const JfrChunkInfo &info() const;
  const std::string &error() const;
  int64_t error_offset() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace hotlines
