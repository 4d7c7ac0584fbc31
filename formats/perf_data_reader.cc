// perf.data through perf script (see perf_data_reader.h).
#include "formats/perf_data_reader.h"

#include "formats/child_process.h"
#include "formats/dwarf_lines.h"
#include "formats/line_iterator.h"
#include "formats/perf_script_reader.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace hotlines {

namespace {

// The last lines of perf's stderr, for an error message.
std::string tail_lines(const std::string &text, size_t n) {
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) end--;
  size_t start = end;
  for (size_t lines = 0; start > 0; start--)
    if (text[start - 1] == '\n' && ++lines == n) break;
  std::string out = text.substr(start, end - start);
  for (char &c : out)
    if (c == '\n') c = ' ';
  return out;
}

// `perf buildid-list` of the file: the build-ids of the binaries it has samples in ("" when
// perf cannot say; lines are then taken from the files as they are).
std::string recorded_build_ids(const std::string &path, const LoadOptions &options) {
  ChildProcess perf({"perf", "buildid-list", "-f", "-i", path}, 16 << 20, options.cancel);
  std::string out;
  while (perf.read_stdout(&out)) {
  }
  const ChildResult &c = perf.finish();
  return c.exit_code == 0 && !c.truncated ? out : std::string();
}

} // namespace

std::string perf_lost_warning(std::string_view err) {
  std::string said;
  for (size_t at = err.find(" and lost "); at != err.npos; at = err.find(" and lost ", at + 1)) {
    const size_t begin = err.rfind('\n', at) == err.npos ? 0 : err.rfind('\n', at) + 1;
    const size_t end = std::min(err.find('\n', at), err.size());
    said += (said.empty() ? "" : "; ") + std::string(err.substr(begin, end - begin));
  }
  if (said.empty()) return "";
  return "perf lost events while recording (perf script: " + said +
         "): samples, and the mappings of programs that started meanwhile, may be missing; "
         "record at a lower frequency (-F) or on a less loaded machine";
}

bool is_perf_data(std::string_view data) {
  return data.substr(0, 8) == "PERFILE2";
}

std::vector<std::string> perf_script_argv(const std::string &path) {
  // -f: hotlines reads the file the user named, whoever recorded it (perf refuses files not
  // owned by the caller without it). --header: perf's version and the command line recorded.
  // Lines come from DWARF (dwarf_lines.h), not -F +srcline: perf 6.1 asks addr2line about
  // every frame and prints about 100 samples a second that way (README, "perf").
  // $PERF_BUILDID_DIR: perf's build-id cache is there (perf does not read the variable, it
  // takes --buildid-dir), for perf's symbols as for hotlines' lines (build_ids.h).
  std::vector<std::string> argv = {"perf"};
  if (const char *dir = getenv("PERF_BUILDID_DIR"); dir && *dir)
    argv.insert(argv.end(), {"--buildid-dir", dir});
  argv.insert(argv.end(), {"script", "-f", "-i", path, "-F", "+pid,+period", "--header"});
  return argv;
}

LoadResult read_perf_data_file(const std::string &path, const LoadOptions &options) {
  if (!options.run_tools)
    return LoadResult::failure("a perf.data file is read by running 'perf script', which this "
                               "load may not do",
                               0);
  ChildProcess perf(perf_script_argv(path), options.limits.max_bytes, options.cancel);
  if (!perf.started())
    return LoadResult::failure("cannot run 'perf script' to read a perf.data file: perf: " +
                               perf.spawn_error() + " (install linux-perf)");
  // The text is parsed as perf prints it, never held whole.
  LineIterator text([&perf](std::string *buf) { return perf.read_stdout(buf); }, options);
  DwarfLines lines;
  lines.set_build_ids(recorded_build_ids(path, options));
  LoadResult r = read_perf_script(text, options, &lines);
  const ChildResult &c = perf.finish();
  if (c.cancelled || options.cancelled()) return LoadResult::failure("cancelled");
  if (c.truncated)
    return LoadResult::failure("perf script printed more than the limit of " +
                               std::to_string(options.limits.max_bytes >> 20) + " MiB" +
                               (options.limits.bytes_hint.empty()
                                    ? std::string()
                                    : " (raise it with " + options.limits.bytes_hint + ")"));
  if (!c.killed && (c.exit_code != 0 || c.signal != 0))
    return LoadResult::failure(
        "perf script failed (" +
        (c.signal ? std::string("signal ") + std::to_string(c.signal)
                  : "exit code " + std::to_string(c.exit_code)) +
        "): " + (c.err.empty() ? std::string("no message") : tail_lines(c.err, 3)));
  std::string lost = perf_lost_warning(c.err);
  if (!r.ok()) {
    r.error = "perf script output: " + r.error;
    if (!lost.empty())
      r.error += " (" + lost + ")";
    else if (!c.err.empty())
      r.error += " (perf said: " + tail_lines(c.err, 3) + ")";
    return r;
  }
  r.profile->metadata.format = "perf-data";
  if (!lost.empty()) r.profile->metadata.warnings.push_back(LoadWarning{std::move(lost), -1, -1});
  return r;
}

LoadResult read_perf_data(std::string_view data, const LoadOptions &options) {
  std::string dir = std::filesystem::temp_directory_path().string();
  std::string path = dir + "/hotlines-perf-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) return LoadResult::failure("cannot write a temporary perf.data: " + dir);
  bool ok = true;
  for (size_t at = 0; ok && at < data.size();) {
    ssize_t n = write(fd, data.data() + at, data.size() - at);
    if (n <= 0)
      ok = false;
    else
      at += static_cast<size_t>(n);
  }
  close(fd);
  LoadResult r = ok ? read_perf_data_file(path, options)
                    : LoadResult::failure("cannot write a temporary perf.data in " + dir);
  unlink(path.c_str());
  return r;
}

} // namespace hotlines
