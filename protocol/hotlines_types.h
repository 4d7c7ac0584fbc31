// hotlines/* request and result types, each with its JSON conversion. Mirrors
// protocol/README.md: change the two together. Lines in results are 1-based `line`s.
#pragma once

#include "protocol/jsonrpc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hotlines {

struct Weight {
  int64_t count = 0;
  int64_t value = 0;
};
json to_json(const Weight &m);

// hotlines/loadProfile {path}
struct LoadProfileParams {
  std::string path;
  json work_done_token; // null when the client offered none
};
std::string parse_params(const json &params, LoadProfileParams *out);

struct EventSummary {
  std::string name, unit;
  int64_t count = 0, value = 0;
  std::vector<std::string> states; // thread states its samples were taken in
};

struct LoadWarningInfo {
  std::string message;
  int64_t offset = -1, line = -1;
};

// Result of hotlines/loadProfile, and one entry of hotlines/profiles.
struct ProfileSummary {
  std::string profile_id, path, format, producer, default_event;
  std::vector<EventSummary> events;
  int64_t threads = 0, samples = 0, duration_ns = 0;
  std::vector<LoadWarningInfo> warnings;
};
json to_json(const ProfileSummary &s);

// hotlines/hotMethods {profileId?, event?, limit?, query?}
struct HotMethodsParams {
  std::string profile_id; // "" = the most recently loaded profile
  std::string event;      // "" = the profile's default event
  int64_t limit = 50;
  std::string query; // case-insensitive substring of the name
};
std::string parse_params(const json &params, HotMethodsParams *out);

struct HotMethod {
  std::string name;
  Weight self, total;
};
struct HotMethodsResult {
  std::string profile_id, event, unit;
  Weight total;
  std::vector<HotMethod> methods;
};
json to_json(const HotMethodsResult &r);

// hotlines/fileAnnotations {textDocument: {uri}, profileId?, event?}
struct FileAnnotationsParams {
  std::string uri, profile_id, event;
};
std::string parse_params(const json &params, FileAnnotationsParams *out);

struct LineAnnotation {
  int64_t line = 0;          // 1-based, in the document as the editor has it now
  int64_t profiled_line = 0; // 1-based, in the text the profile describes
  bool stale = false;        // the line was edited since it was opened
  Weight self, total;
  double heat = 0; // self relative to the view's hottest line, 0..1
  // With a baseline set: the line's weights in the baseline profile and the change of its
  // self share in percentage points (after - before).
  bool has_baseline = false;
  Weight baseline_self, baseline_total;
  double delta = 0;
};
struct FunctionAnnotation {
  std::string name;
  int64_t line = 0; // first profiled line of the function in this file (current document)
  Weight self, total;
};
struct FileAnnotationsResult {
  std::string uri, profile_id, event, unit;
  std::string file;                  // the profile's recorded file that matched ("" when none did)
  Weight total;                      // the view's total
  std::vector<LineAnnotation> lines; // by line
  std::vector<FunctionAnnotation> functions; // by line
};
json to_json(const FileAnnotationsResult &r);

} // namespace hotlines
