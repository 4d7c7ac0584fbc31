// perf.data through perf script (see perf_data_reader.h).
#include "formats/perf_data_reader.h"

#include "formats/child_process.h"
#include "formats/dwarf_lines.h"
#include "formats/perf_script_reader.h"

#include <signal.h>
#include <unistd.h>

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

} // namespace

bool is_perf_data(std::string_view data) {
  return data.substr(0, 8) == "PERFILE2";
}

std::vector<std::string> perf_script_argv(const std::string &path) {
  // -f: hotlines reads the file the user named, whoever recorded it (perf refuses files not
  // owned by the caller without it). --header: perf's version and the command line recorded.
  // Lines come from DWARF (dwarf_lines.h), not -F +srcline: perf 6.1 asks addr2line about
  // every frame and prints about 100 samples a second that way (README, "perf").
  return {"perf", "script", "-f", "-i", path, "-F", "+pid,+period", "--header"};
}

LoadResult read_perf_data_file(const std::string &path, const LoadOptions &options) {
  if (!options.run_tools)
    return LoadResult::failure("a perf.data file is read by running 'perf script', which this "
                               "load may not do",
                               0);
  ChildResult c = run_child(perf_script_argv(path), options.limits.max_bytes, options.cancel);
  if (!c.started)
    return LoadResult::failure("cannot run 'perf script' to read a perf.data file: perf: " +
                               c.error + " (install linux-perf)");
  if (c.cancelled) return LoadResult::failure("cancelled");
  if (c.truncated)
    return LoadResult::failure("perf script printed more than the limit of " +
                               std::to_string(options.limits.max_bytes >> 20) + " MiB" +
                               (options.limits.bytes_hint.empty()
                                    ? std::string()
                                    : " (raise it with " + options.limits.bytes_hint + ")"));
  if (c.exit_code != 0 || c.signal != 0)
    return LoadResult::failure(
        "perf script failed (" +
        (c.signal ? std::string("signal ") + std::to_string(c.signal)
                  : "exit code " + std::to_string(c.exit_code)) +
        "): " + (c.err.empty() ? std::string("no message") : tail_lines(c.err, 3)));
  DwarfLines lines;
  LoadResult r = read_perf_script(c.out, options, &lines);
  if (!r.ok()) {
    r.error = "perf script output: " + r.error;
    if (!c.err.empty()) r.error += " (perf said: " + tail_lines(c.err, 3) + ")";
    return r;
  }
  r.profile->metadata.format = "perf-data";
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
