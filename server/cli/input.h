// CliInput: what every query command does first — load the profile(s), build the index,
// compute the view — printing errors the same way everywhere
// and mapping them to exit codes (2 usage, 3 input). Also the shared JSON and text headers
// that describe a view, and the "no function matches" report with the closest names.
// Single-threaded (the CLI's main thread); the view computation itself uses both cores.
#pragma once

#include "server/cli/cli.h"
#include "server/cli/flags.h"
#include "server/engine/profile_index.h"
#include "server/engine/view_weights.h"
#include "server/sources/source_resolver.h"
#include "server/sources/workspace_index.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace hotlines {

using Json = nlohmann::ordered_json;

// What a command reads of a profile besides its view's samples' stacks and weights.
struct CliReads {
  bool other_events = false; // the events other than the view's
  bool times = false;        // the samples' times, whatever the flags
  bool threads = false;      // the samples' threads, whatever the flags
};

class CliInput {
public:
  // Loads a profile and indexes it; prints the error and returns false on failure. With
  // `one_event`, a JFR file's events other than the flags' -e (or the default) are not decoded,
  // nor the samples' threads and times unless `reads` or the flags' filters need them.
  bool load(const std::string &path, const CliFlags &flags, bool one_event = false,
            CliReads reads = {});
  // Loads the flags' first file and computes their view: what most commands do first. Only
  // the view's event (and what `reads` asks for) is loaded. Returns 0, or the exit code after
  // printing the error.
  int open(const CliFlags &flags, std::shared_ptr<const ViewWeights> *out, CliReads reads = {});
  // Computes the flags' view. Returns 0, or the exit code after printing the error.
  int view(const CliFlags &flags, std::shared_ptr<const ViewWeights> *out,
           const std::string *from = nullptr, const std::string *to = nullptr) const;

  const ProfileIndex &index() const { return *index_; }
  const std::string &path() const { return path_; }

private:
  std::string path_;
  bool json_ = false;
  std::shared_ptr<const ProfileIndex> index_;
};

// The workspace of the --root flags (default: the current folder; --skip replaces the skipped
// folder names), not yet built, and the resolver options of the --remap flags. Returns 0, or
// the usage exit code after printing the error.
int cli_workspace(const CliFlags &flags, std::shared_ptr<WorkspaceIndex> *workspace,
                  ResolverOptions *options);
// --remap, as the commands that call cli_workspace take it.
inline constexpr FlagSpec kRemapFlag = {
    "remap", 0, true, "FROM=TO: look up recorded paths under FROM in TO (repeatable)"};

// Prints an error (stderr; with --json also {"error", "exit_code"} on stdout) and returns code.
int cli_fail(int code, const std::string &message, bool json, Json extra = Json::object());

// For the commands that need totals or call trees: 0, or kExitInput after printing why the
// view's profile has none (totals_unavailable).
int cli_need_totals(const ViewWeights &view, bool json);

// "no function matches 'X'" with the closest names; returns kExitInput.
int cli_no_match(const ViewWeights &view, const std::string &pattern, bool json);
// Whether some function of the view matches the -m pattern.
bool any_function_matches(const ViewWeights &view, const std::string &pattern);

// The view as JSON: file, event, measure, unit, total, samples and the filters in effect.
Json view_json(const ViewWeights &view, const std::string &path);
// One header line: "event cpu, 1840 samples  thread~worker  (ap-cpu.jfr)".
std::string view_header(const ViewWeights &view, const std::string &path);

// What follows the last '/' of `path` (all of it when none): a file's name for titles.
std::string base_name(const std::string &path);

// Writes `bytes` to the file `path` ("-": stdout); false with *error ("cannot write PATH: why").
bool write_output(const std::string &path, const std::string &bytes, std::string *error);

// Prints JSON (2-space indent) to stdout.
void print_json(const Json &j);
// Prints `j` with --json, else `text`: for the commands that build both.
void print_output(bool json, const Json &j, const std::string &text);

} // namespace hotlines
