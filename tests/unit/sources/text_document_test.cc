// TextDocument: edits keep the map from current lines to the opened text's lines.
#include "server/sources/text_document.h"

#include <gtest/gtest.h>

namespace hotlines {
namespace {

std::string numbered(int n) {
  std::string s;
  for (int i = 1; i <= n; i++) s += "line " + std::to_string(i) + "\n";
  return s;
}

TEST(TextDocument, InsertingLinesAboveMovesTheLineDown) {
  TextDocument d("file:///a.java", "java", 1, numbered(20));
  d.apply({14, 0}, {14, 0}, "a\nb\nc\n", 2); // three lines above line 15 (0-based 14)
  EXPECT_EQ(d.current_line(14), 17);
  EXPECT_EQ(d.origin(17).line, 14);
  EXPECT_FALSE(d.origin(17).stale);
  EXPECT_EQ(d.origin(14).line, -1);
  EXPECT_EQ(d.origin(16).line, -1);
  EXPECT_EQ(d.current_line(13), 13);
  EXPECT_EQ(d.lines()[17], "line 15");
  EXPECT_EQ(d.version(), 2);
}

TEST(TextDocument, EditingTheLineItselfMarksItStale) {
  TextDocument d("u", "java", 1, numbered(20));
  d.apply({14, 2}, {14, 4}, "NE", 2);
  EXPECT_EQ(d.lines()[14], "liNE 15");
  EXPECT_EQ(d.current_line(14), 14);
  EXPECT_TRUE(d.origin(14).stale);
  EXPECT_FALSE(d.origin(15).stale);
}

TEST(TextDocument, AppendingANewLineAtTheEndOfALineKeepsIt) {
  TextDocument d("u", "java", 1, numbered(5));
  d.apply({1, 6}, {1, 6}, "\nnew", 2); // Enter at the end of line 2, then typing
  EXPECT_EQ(d.origin(1).line, 1);
  EXPECT_FALSE(d.origin(1).stale);
  EXPECT_EQ(d.origin(2).line, -1);
  EXPECT_EQ(d.current_line(2), 3);
}

TEST(TextDocument, DeletingWholeLinesShiftsUp) {
  TextDocument d("u", "java", 1, numbered(10));
  d.apply({2, 0}, {5, 0}, "", 2); // delete lines 3..5
  EXPECT_EQ(d.current_line(2), -1);
  EXPECT_EQ(d.current_line(4), -1);
  EXPECT_EQ(d.current_line(5), 2);
  EXPECT_FALSE(d.origin(2).stale);
  EXPECT_EQ(d.lines()[2], "line 6");
}

TEST(TextDocument, JoiningLinesKeepsTheFirstStale) {
  TextDocument d("u", "java", 1, numbered(4));
  d.apply({0, 6}, {1, 0}, "", 2);
  EXPECT_EQ(d.lines()[0], "line 1line 2");
  EXPECT_EQ(d.origin(0).line, 0);
  EXPECT_TRUE(d.origin(0).stale);
  EXPECT_EQ(d.current_line(1), -1);
  EXPECT_EQ(d.current_line(2), 1);
}

TEST(TextDocument, FullSyncMapsUnchangedPrefixAndSuffix) {
  TextDocument d("u", "java", 1, "a\nb\nc\nd\n");
  d.replace_all("x\ny\na\nb\nC\nd\n", 2);
  EXPECT_EQ(d.current_line(0), 2);
  EXPECT_EQ(d.current_line(1), 3);
  EXPECT_EQ(d.current_line(2), 4);
  EXPECT_TRUE(d.origin(4).stale);
  EXPECT_EQ(d.current_line(3), 5);
  EXPECT_FALSE(d.origin(5).stale);
}

TEST(TextDocument, Utf16PositionsCountSurrogatePairs) {
  // "é" is one UTF-16 unit (2 bytes), "😀" two units (4 bytes).
  TextDocument d("u", "java", 1, "é😀x\n");
  d.apply({0, 3}, {0, 4}, "y", 2);
  EXPECT_EQ(d.lines()[0], "é😀y");
  EXPECT_EQ(TextDocument::utf16_length("é😀x"), 4);
}

TEST(TextDocument, PositionsPastTheEndAreClamped) {
  TextDocument d("u", "java", 1, "a\nb");
  d.apply({7, 0}, {9, 3}, "\nc", 2);
  EXPECT_EQ(d.lines().size(), 3u);
  EXPECT_EQ(d.lines()[2], "c");
  EXPECT_EQ(d.current_line(1), 1);
}

} // namespace
} // namespace hotlines
