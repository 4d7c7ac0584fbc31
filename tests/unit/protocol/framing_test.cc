// Tests for LSP base-protocol framing: splits, several messages per read, header variants,
// bad headers and the size cap.
#include "protocol/framing.h"

#include <gtest/gtest.h>

using namespace hotlines;

namespace {
std::vector<std::string> drain(MessageReader &r, std::vector<std::string> *errors = nullptr) {
  std::vector<std::string> out;
  std::string body, err;
  for (;;) {
    auto st = r.next(&body, &err);
    if (st == MessageReader::Status::need_more) return out;
    if (st == MessageReader::Status::message)
      out.push_back(body);
    else if (errors)
      errors->push_back(err);
  }
}
} // namespace

TEST(Framing, SplitAcrossReadsAndSeveralInOne) {
  std::string two = frame_message("{\"a\":1}") + frame_message("{\"b\":2}");
  MessageReader r;
  std::vector<std::string> got;
  for (char c : two) {
    r.feed(std::string_view(&c, 1));
    for (auto &m : drain(r)) got.push_back(m);
  }
  EXPECT_EQ(got, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
  MessageReader r2;
  r2.feed(two);
  EXPECT_EQ(drain(r2).size(), 2u);
}

TEST(Framing, HeaderOrderCaseContentTypeAndBareLf) {
  MessageReader r;
  r.feed("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}");
  r.feed("Content-Length: 3\n\n[1]");
  EXPECT_EQ(drain(r), (std::vector<std::string>{"{}", "[1]"}));
}

TEST(Framing, BadHeadersAreReportedAndReadingGoesOn) {
  MessageReader r;
  std::vector<std::string> errors;
  r.feed("Content-Type: x\r\n\r\nContent-Length: abc\r\n\r\nContent-Length: 2\r\n\r\n{}");
  auto msgs = drain(r, &errors);
  EXPECT_EQ(msgs, (std::vector<std::string>{"{}"}));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "missing Content-Length header");
  EXPECT_EQ(errors[1], "invalid Content-Length 'abc'");
}

TEST(Framing, ResynchronisesAtTheNextContentLength) {
  // A body left behind by a bad header is skipped, not read as headers forever.
  MessageReader r;
  std::vector<std::string> errors;
  r.feed("Content-Length: -5\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}");
  r.feed("Content-Length: 2\r\n\r\n{}");
  r.feed("X-Only: 1\r\n\r\n{\"id\":1}\r\nContent-Length: 3\r\n\r\n[1]");
  EXPECT_EQ(drain(r, &errors), (std::vector<std::string>{"{}", "[1]"}));
  EXPECT_EQ(errors, (std::vector<std::string>{"invalid Content-Length '-5'",
                                              "missing Content-Length header"}));

  // A malformed line before a good Content-Length loses nothing.
  MessageReader g;
  errors.clear();
  g.feed("garbage\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(drain(g, &errors), (std::vector<std::string>{"{}"}));
  EXPECT_EQ(errors, (std::vector<std::string>{"malformed header line 'garbage'"}));

  // The next header may arrive split, after any amount of junk.
  MessageReader s;
  errors.clear();
  s.feed("Content-Length: x\r\n\r\n" + std::string(100000, 'j') + "Content-Le");
  EXPECT_TRUE(drain(s, &errors).empty());
  EXPECT_LT(s.buffered(), 20u); // the junk is not kept
  s.feed("ngth: 2\r\n\r\n{}");
  EXPECT_EQ(drain(s, &errors), (std::vector<std::string>{"{}"}));
  EXPECT_EQ(errors, (std::vector<std::string>{"invalid Content-Length 'x'"}));

  // So may a header block with no end: skipped to the next Content-Length.
  MessageReader h;
  errors.clear();
  h.feed(std::string(70000, 'h') + "\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(drain(h, &errors), (std::vector<std::string>{"{}"}));
  EXPECT_EQ(errors.size(), 1u);
}

TEST(Framing, OversizedMessageIsSkipped) {
  MessageReader r(10);
  std::vector<std::string> errors;
  r.feed("Content-Length: 20\r\n\r\n0123456789");
  EXPECT_TRUE(drain(r, &errors).empty());
  r.feed("0123456789Content-Length: 2\r\n\r\n{}");
  auto msgs = drain(r, &errors);
  EXPECT_EQ(msgs, (std::vector<std::string>{"{}"}));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "message of 20 bytes exceeds the limit of 10 bytes");
}

TEST(Framing, WaitsForTheWholeBody) {
  MessageReader r;
  r.feed("Content-Length: 6\r\n\r\n{\"a\"");
  EXPECT_TRUE(drain(r).empty());
  r.feed(":");
  EXPECT_TRUE(drain(r).empty());
  r.feed("}");
  EXPECT_EQ(drain(r), (std::vector<std::string>{"{\"a\":}"}));
}
