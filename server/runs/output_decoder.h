// OutputDecoder: a run's output as it streams in. Turns raw byte chunks of one stream into valid
// UTF-8 text (a sequence split across reads is held back until it completes; invalid bytes
// become U+FFFD, so the text can go into JSON), drops terminal escape sequences (colors and
// cursor moves, which an output panel would show as garbage; one split across reads is held
// back too) and keeps the tail of everything seen for error reports. Not thread-safe; one per
// run, used on the loop thread.
#pragma once

#include <string>
#include <string_view>

namespace hotlines {

class OutputDecoder {
public:
  explicit OutputDecoder(size_t tail_bytes = 64 * 1024) : tail_limit_(tail_bytes) {}

  // Feeds bytes of stream 0 (stdout) or 1 (stderr); returns the text ready to show.
  std::string feed(int stream, std::string_view bytes);
  // Flushes a stream at its end: held-back bytes of an unfinished sequence become U+FFFD.
  std::string finish(int stream);
  // Adds the server's own text (already UTF-8) to the tail.
  void note(std::string_view text);
  const std::string &tail() const { return tail_; }

private:
  void keep(std::string_view text);
  size_t tail_limit_;
  std::string pending_[2];
  std::string tail_;
};

} // namespace hotlines
