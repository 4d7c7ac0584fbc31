// Helpers shared by the unit tests: fixture paths, reading files, running commands.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace hotlines::test {

// A recorded profile or source file under tests/fixtures (see its README); "" is the folder.
inline std::string fixture_path(const std::string &rel) {
  std::string dir = std::string(HOTLINES_SOURCE_DIR) + "/tests/fixtures";
  return rel.empty() ? dir : dir + "/" + rel;
}
// A reference tool under tests/oracles (the JDK-based JFR aggregator).
inline std::string oracle_path(const std::string &name) {
  return std::string(HOTLINES_SOURCE_DIR) + "/tests/oracles/" + name;
}
inline std::string java_profile(const std::string &name) {
  return fixture_path("java-shop/profiles/" + name);
}
// One of async-profiler's HTML or text outputs (java-shop/profiles/async-profiler-outputs/).
inline std::string ap_output(const std::string &name) {
  return java_profile("async-profiler-outputs/" + name);
}
inline std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
// A fresh folder <temp dir>/<prefix>-XXXXXX for what a test writes, builds or records;
// removed by the destructor.
class TempDir {
public:
  explicit TempDir(const std::string &prefix = "hotlines-jfr") {
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    char *p = mkdtemp(tmpl.data());
    path_ = p ? p : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; } // "" when it could not be made
  std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

// Runs a shell command, returns its stdout; *status gets the exit status.
inline std::string run_command(const std::string &cmd, int *status = nullptr) {
  std::string out;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  if (status) *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

} // namespace hotlines::test
