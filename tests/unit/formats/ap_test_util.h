// Helpers for the tests of async-profiler's HTML and text outputs: a fixture's text,
// inflated when it is stored gzipped.
#pragma once

#include "formats/gzip.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <string>

namespace hotlines::test {

inline std::string ap_output_text(const std::string &name) {
  std::string bytes = read_file(ap_output(name)), text;
  if (!is_gzip(bytes)) return bytes;
  std::string err;
  EXPECT_TRUE(gunzip(bytes, &text, &err)) << err;
  return text;
}

} // namespace hotlines::test
