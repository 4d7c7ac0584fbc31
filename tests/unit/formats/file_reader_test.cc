// Tests for reading untrusted files: FIFOs and devices are refused at once, reads are capped
// and cancellable, and a file truncated while a load runs is an error or a profile, never a
// SIGBUS (the loader used to mmap it).
#include "formats/file_reader.h"
#include "formats/loader.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

// A fresh path in a temporary folder, removed with the object.
struct TempPath {
  explicit TempPath(const char *name) {
    char dir[] = "/tmp/hotlines-file-reader-XXXXXX";
    folder = mkdtemp(dir);
    path = folder + "/" + name;
  }
  ~TempPath() {
    unlink(path.c_str());
    rmdir(folder.c_str());
  }
  std::string folder, path;
};

void write(const std::string &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST(FileReader, FifoIsRefusedWithoutBlocking) {
  TempPath fifo("profile.jfr");
  ASSERT_EQ(mkfifo(fifo.path.c_str(), 0600), 0);
  auto t0 = std::chrono::steady_clock::now();
  FileBytes out;
  std::string err;
  EXPECT_EQ(read_regular_file(fifo.path, &out, &err), ReadStatus::failed);
  EXPECT_EQ(err, "not a regular file (a FIFO or pipe)");
  LoadResult r = load_profile_file(fifo.path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cannot read " + fifo.path + ": not a regular file (a FIFO or pipe)");
  EXPECT_LT(seconds_since(t0), 5.0); // no writer ever comes: a blocking open would hang
}

TEST(FileReader, DevZeroIsNotARegularFile) {
  LoadResult r = load_profile_file("/dev/zero");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cannot read /dev/zero: not a regular file (a character device)");
}

TEST(FileReader, ReadsAreCappedAndNameTheLimitAndHowToRaiseIt) {
  TempPath file("big.collapsed");
  write(file.path, std::string(3 << 20, 'x'));
  FileBytes out;
  std::string err;
  ReadFileOptions o;
  o.max_bytes = 2 << 20;
  o.raise_hint = "--max-profile-mib";
  EXPECT_EQ(read_regular_file(file.path, &out, &err, o), ReadStatus::too_large);
  EXPECT_EQ(err, "larger than the limit of 2 MiB (raise it with --max-profile-mib)");
  EXPECT_EQ(out.size(), 0u); // refused by its size, before reading
  o.max_bytes = 3 << 20;     // exactly at the limit is fine
  FileBytes all;
  EXPECT_EQ(read_regular_file(file.path, &all, &err, o), ReadStatus::ok) << err;
  EXPECT_EQ(all.view(), std::string(3 << 20, 'x'));

  LoadOptions lo;
  lo.limits.max_bytes = 1 << 20;
  lo.limits.bytes_hint = "the setting hotlines.limits.profileMiB";
  LoadResult r = load_profile_file(file.path, lo);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cannot read " + file.path +
                         ": larger than the limit of 1 MiB (raise it with the setting "
                         "hotlines.limits.profileMiB)");
}

TEST(FileReader, CancelStopsTheRead) {
  TempPath file("p.collapsed");
  write(file.path, "main;work 1\n");
  std::atomic<bool> cancel{true};
  ReadFileOptions o;
  o.cancel = &cancel;
  FileBytes out;
  std::string err;
  EXPECT_EQ(read_regular_file(file.path, &out, &err, o), ReadStatus::cancelled);
  EXPECT_EQ(err, "cancelled");
}

// "-" reads standard input, a pipe: grown as it comes, and capped like a file.
TEST(FileReader, StdinIsReadToItsEndWithinTheLimit) {
  signal(SIGPIPE, SIG_IGN); // the capped read closes the pipe on its writer
  auto read_stdin = [](size_t bytes, uint64_t max, FileBytes *out, std::string *err) {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    std::thread writer([&] {
      std::string chunk(1000, 'y');
      for (size_t left = bytes; left > 0;) {
        size_t n = std::min(left, chunk.size());
        if (::write(fds[1], chunk.data(), n) != static_cast<ssize_t>(n)) break;
        left -= n;
      }
      close(fds[1]);
    });
    int saved = dup(STDIN_FILENO);
    dup2(fds[0], STDIN_FILENO);
    ReadFileOptions o;
    o.dash_is_stdin = true;
    o.max_bytes = max;
    ReadStatus st = read_regular_file("-", out, err, o);
    dup2(saved, STDIN_FILENO);
    close(saved);
    close(fds[0]); // a writer still writing (over the limit) gets EPIPE and stops
    writer.join();
    return st;
  };
  FileBytes all, capped;
  std::string err;
  ASSERT_EQ(read_stdin(5'000'000, UINT64_MAX, &all, &err), ReadStatus::ok) << err;
  EXPECT_EQ(all.view(), std::string(5'000'000, 'y'));
  EXPECT_EQ(read_stdin(5'000'000, 4 << 20, &capped, &err), ReadStatus::too_large);
  EXPECT_EQ(err, "larger than the limit of 4 MiB");
}

// The reader's progress callback truncates the file in the middle of parsing it: a mapped
// file faults (SIGBUS) on its next page; a file read into memory loads as it was when read.
TEST(FileReader, FileTruncatedWhileItLoadsDoesNotCrash) {
  TempPath file("rewritten.collapsed");
  std::string text;
  for (int i = 0; i < 300000; i++)
    text += "main;Worker.run;Compute.step" + std::to_string(i % 1000) + " 1\n";
  write(file.path, text);
  int truncations = 0;
  LoadOptions o;
  o.progress = [&](double) {
    if (truncations++ == 0) {
      ASSERT_EQ(truncate(file.path.c_str(), 0), 0);
    }
  };
  LoadResult r = load_profile_file(file.path, o);
  EXPECT_GT(truncations, 0); // the truncation happened during the load
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 300000);
  // The truncated file is an error, not a crash either.
  LoadResult empty = load_profile_file(file.path);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error, file.path + ": empty input: no profile data");
}

// A JFR file is read chunk by chunk, and its chunks twice (surveyed, then decoded): a file
// that shrinks or is rewritten meanwhile is an error that says so, never a crash or a profile
// mixed from two files.
TEST(FileReader, JfrFileChangedWhileItLoadsIsAnError) {
  const std::string chunks = read_file(java_profile("ap-cpu-then-wall-2chunks.jfr"));
  std::string recording;
  for (int i = 0; i < 4; i++) recording += chunks; // 8 chunks
  for (bool shrink : {true, false}) {
    SCOPED_TRACE(shrink ? "shrunk" : "rewritten");
    TempPath file("rewritten.jfr");
    write(file.path, recording);
    ASSERT_TRUE(load_profile_file(file.path).ok());
    int calls = 0;
    LoadOptions o;
    o.threads = 1;
    o.progress = [&](double) {
      if (calls++ == 0) {
        if (shrink) {
          ASSERT_EQ(truncate(file.path.c_str(), static_cast<off_t>(chunks.size())), 0);
        } else { // the same size, other bytes: a timestamp moves on
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          write(file.path, std::string(recording.size(), 'x'));
        }
      }
    };
    LoadResult r = load_profile_file(file.path, o);
    EXPECT_GT(calls, 0);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error, file.path + ": the file changed while it was read");
  }
}
