// FlameDocument: the data document the web view (editors/web) draws, as JSON — the profile's
// merged callee tree (frames merged by function, stable node ids equal to the query engine's
// flame graph ids) with each node's function, frame kind and line (from its heaviest frame),
// functions with their source files as the workspace resolution found them (or why not:
// external code, or unresolved with the reason), threads, events, and the
// samples aggregated to rows of (event, leaf node, thread, time bucket) -> count, value: enough
// for the browser to recompute the flame graph, totals and per-thread timeline for any event,
// thread set and bucket window. editors/web/README.md documents the format.
// Pure function over an immutable index; runs on the calling thread.
#pragma once

#include "server/engine/profile_index.h"
#include "server/engine/view.h"

#include <nlohmann/json.hpp>

#include <string>

namespace hotlines {

class ProfileResolution;

struct FlameDocumentOptions {
  std::string title;                // page title (the profile's file name)
  std::string event;                // initial event; empty: the profile's default
  Measure measure = Measure::value; // initial measure
  ThreadFilter threads;             // initial thread selection; empty: every thread
  std::string link = "vscode";      // how the export opens sources: vscode | file | none
  // The profile's functions resolved to workspace files; null: sources were not looked up.
  const ProfileResolution *sources = nullptr;
  uint32_t buckets = 200;                 // timeline buckets at most (profiles with timestamps)
  size_t max_rows = 4u << 20;             // coarser buckets (x4) until the rows fit this
  const ProfileIndex *baseline = nullptr; // diff mode: the baseline profile
  std::string baseline_title;
};

// Builds the document. False with *error for an unknown event (or one missing from the
// baseline).
bool build_flame_document(const ProfileIndex &index, const FlameDocumentOptions &options,
                          nlohmann::ordered_json *out, std::string *error);

// The bucket width for `end_ns` split into at most `buckets`: a 1-2-5 multiple of a power of
// ten, at least 1 ns.
int64_t flame_bucket_ns(int64_t end_ns, uint32_t buckets);

} // namespace hotlines
