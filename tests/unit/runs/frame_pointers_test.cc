// Frame-pointer detection on programs g++ builds here with and without
// -fno-omit-frame-pointer, and on files that are not x86-64 programs.
#include "server/runs/frame_pointers.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace hotlines {
namespace {

namespace fs = std::filesystem;

class FramePointersTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    std::string src;
    // f19 is a leaf; each other function calls the next one.
    for (int i = 19; i >= 0; i--)
      src += "__attribute__((noinline)) long f" + std::to_string(i) +
             "(long x) { long s = 0; for (long k = 0; k < x; k++) s += k * " +
             std::to_string(i + 3) + " + (s >> 3); return s" +
             (i < 19 ? " + f" + std::to_string(i + 1) + "(s & 7)" : std::string()) + "; }\n";
    src += "int main(int argc, char **) { return (int)(f0(argc) + f19(argc)); }\n";
    std::ofstream(dir_ + "/p.cc") << src;
  }

  std::string build(const std::string &name, const std::string &flags) {
    int status = 0;
    test::run_command("g++ -O2 " + flags + " -o " + dir_ + "/" + name + " " + dir_ + "/p.cc",
                      &status);
    EXPECT_EQ(status, 0);
    return dir_ + "/" + name;
  }

  test::TempDir tmp_{"hotlines-fp-test"};
  const std::string &dir_ = tmp_.path();
};

TEST_F(FramePointersTest, GccWithAndWithoutFramePointers) {
  std::string why;
  EXPECT_EQ(frame_pointers(build("fp", "-fno-omit-frame-pointer"), &why), FramePointers::yes);
  EXPECT_NE(why.find("functions set up a frame pointer"), std::string::npos) << why;
  EXPECT_EQ(frame_pointers(build("nofp", "-fomit-frame-pointer"), &why), FramePointers::no);
}

TEST_F(FramePointersTest, NotAProgram) {
  std::string why;
  EXPECT_EQ(frame_pointers(dir_ + "/p.cc", &why), FramePointers::unknown);
  EXPECT_EQ(why, "not an ELF file");
  EXPECT_EQ(frame_pointers(dir_ + "/missing", &why), FramePointers::unknown);
  EXPECT_EQ(why, "cannot read it");
}

} // namespace
} // namespace hotlines
