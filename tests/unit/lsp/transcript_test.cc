// Transcript tests: every tests/transcripts/*.transcript is a scripted session fed to the real
// `hotlines serve`; each expected message must match the server's next output message.
// Format, one directive per line:
//   # comment                 args: --sync              exit: 0
//   --> {json}                (sent framed)             --> raw: "json string of raw bytes"
//   <-- {json}                (expected: a recursive subset of the next message; arrays
//                              match element-wise; "*" matches any value)
// $FIXTURES and $SOURCE in lines are replaced by tests/fixtures and the source directory, and
// "$TEXT(path)" by the file's contents as a JSON string (for didOpen).
#include "protocol/framing.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string substitute(std::string s) {
  for (auto [k, v] :
       {std::pair<std::string, std::string>{"$FIXTURES", hotlines::test::fixture_path("")},
        {"$SOURCE", HOTLINES_SOURCE_DIR}}) {
    for (size_t p; (p = s.find(k)) != std::string::npos;) s.replace(p, k.size(), v);
  }
  for (size_t p; (p = s.find("\"$TEXT(")) != std::string::npos;) {
    size_t end = s.find(")\"", p);
    if (end == std::string::npos) break;
    std::string path = s.substr(p + 7, end - p - 7);
    s.replace(p, end + 2 - p, json(hotlines::test::read_file(path)).dump());
  }
  return s;
}

// Expected is a subset of actual: objects by key, arrays element-wise with equal length.
bool matches(const json &want, const json &got, std::string *where) {
  if (want.is_string() && want == "*") return true;
  if (want.is_object()) {
    if (!got.is_object()) return *where = "not an object", false;
    for (auto it = want.begin(); it != want.end(); ++it) {
      if (!got.contains(it.key())) return *where = "missing key '" + it.key() + "'", false;
      if (!matches(*it, got[it.key()], where)) return *where = it.key() + "." + *where, false;
    }
    return true;
  }
  if (want.is_array()) {
    if (!got.is_array() || got.size() != want.size()) return *where = "array length differs", false;
    for (size_t i = 0; i < want.size(); i++)
      if (!matches(want[i], got[i], where))
        return *where = "[" + std::to_string(i) + "]" + *where, false;
    return true;
  }
  if (want != got) return *where = "value " + got.dump() + " != " + want.dump(), false;
  return true;
}

struct Transcript {
  std::string input, args;
  std::vector<json> expected;
  int exit_code = 0;
};

Transcript parse_transcript(const fs::path &path) {
  Transcript t;
  std::istringstream in(hotlines::test::read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    line = substitute(line);
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("args:", 0) == 0)
      t.args = line.substr(5);
    else if (line.rfind("exit:", 0) == 0)
      t.exit_code = std::stoi(line.substr(5));
    else if (line.rfind("--> raw:", 0) == 0)
      t.input += json::parse(line.substr(8)).get<std::string>();
    else if (line.rfind("--> ", 0) == 0)
      t.input += hotlines::frame_message(json::parse(line.substr(4)).dump());
    else if (line.rfind("<-- ", 0) == 0)
      t.expected.push_back(json::parse(line.substr(4)));
    else
      ADD_FAILURE() << path << ": unknown directive: " << line;
  }
  return t;
}

class TranscriptTest : public testing::TestWithParam<std::string> {};

TEST_P(TranscriptTest, Matches) {
  fs::path path =
      fs::path(HOTLINES_SOURCE_DIR) / "tests/transcripts" / (GetParam() + ".transcript");
  Transcript t = parse_transcript(path);
  fs::path dir = fs::temp_directory_path() /
                 ("hotlines-transcript-" + GetParam() + "-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "in", std::ios::binary) << t.input;
  int status = 0;
  std::string cmd = std::string(HOTLINES_BINARY) + " serve " + t.args + " < " +
                    (dir / "in").string() + " 2> " + (dir / "err").string();
  std::string out = hotlines::test::run_command(cmd, &status);
  std::string err = hotlines::test::read_file(dir / "err");
  hotlines::MessageReader reader;
  reader.feed(out);
  std::vector<json> got;
  std::string body, error;
  while (reader.next(&body, &error) == hotlines::MessageReader::Status::message)
    got.push_back(json::parse(body));
  EXPECT_EQ(reader.buffered(), 0u) << "stdout has bytes that are not LSP messages";
  ASSERT_EQ(got.size(), t.expected.size()) << "stdout:\n" << out << "\nstderr:\n" << err;
  for (size_t i = 0; i < got.size(); i++) {
    std::string where;
    EXPECT_TRUE(matches(t.expected[i], got[i], &where))
        << "message " << i << ": " << where << "\n got: " << got[i].dump()
        << "\nwant: " << t.expected[i].dump();
  }
  EXPECT_EQ(status, t.exit_code) << err;
  fs::remove_all(dir);
}

std::vector<std::string> transcripts() {
  std::vector<std::string> names;
  for (auto &e : fs::directory_iterator(fs::path(HOTLINES_SOURCE_DIR) / "tests/transcripts"))
    if (e.path().extension() == ".transcript") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Server, TranscriptTest, testing::ValuesIn(transcripts()),
                         [](const testing::TestParamInfo<std::string> &i) {
                           std::string n = i.param;
                           for (char &c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

} // namespace
