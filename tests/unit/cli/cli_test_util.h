// Helpers for the CLI tests: run the real `hotlines` binary and capture stdout, stderr and the
// exit status; write small profiles to a temporary directory.
#pragma once

#include "test_util.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace hotlines::test {

struct CliRun {
  std::string out, err;
  int status = -1;
};

inline std::string temp_dir() {
  static std::string dir = [] {
    char tmpl[] = "/tmp/hotlines-cli-XXXXXX";
    const char *d = mkdtemp(tmpl);
    return std::string(d ? d : "/tmp");
  }();
  return dir;
}

inline std::string write_temp(const std::string &name, const std::string &text) {
  std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Runs `hotlines ARGS` (ARGS already shell-quoted where needed).
inline CliRun hotlines_cli(const std::string &args) {
  static int n = 0;
  std::string err_path =
      temp_dir() + "/stderr-" + std::to_string(getpid()) + "-" + std::to_string(n++);
  CliRun r;
  r.out = run_command(std::string(HOTLINES_BINARY) + " " + args + " 2>" + err_path, &r.status);
  r.err = read_file(err_path);
  std::remove(err_path.c_str());
  return r;
}

} // namespace hotlines::test
