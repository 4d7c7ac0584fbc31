// What every reader returns, and the options every reader takes. Readers never throw: a
// failure is a LoadResult with an error message and, where known, the byte offset or line.
#pragma once

#include "formats/profile.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace hotlines {

struct LoadOptions {
  // Polled by long-running readers; when it becomes true they stop with error "cancelled".
  const std::atomic<bool> *cancel = nullptr;
  // Called now and then with the fraction done (0..1); may be called from any thread.
  std::function<void(double)> progress;
  // Worker threads a reader may use (JFR chunks in parallel); 0 = hardware concurrency.
  unsigned threads = 0;

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
