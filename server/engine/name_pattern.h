// NamePattern: how users name functions and threads (`-m`, `--hide`, `--include`, `-t`).
// A pattern is a plain substring unless it uses a regex operator (* + ? ( ) [ ] { } | ^ \),
// then it is an RE2 regex searched in the name's bytes (a literal substring match still
// counts, so `Pricing$Inner` and `Main.lambda$main$0` work as typed). RE2 matches in time
// linear in the name and never recurses, so no pattern can hang or overflow the stack; a
// pattern longer than kMaxLength or one RE2 rejects is invalid (ok() false, error() says
// why) and matches nothing. Immutable after construction; safe to share between threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace hotlines {

class NamePattern {
public:
  static constexpr size_t kMaxLength = 4096;       // bytes
  static constexpr int64_t kMaxMemory = 4ll << 20; // RE2's budget per pattern (program + DFA)

  NamePattern() = default;
  explicit NamePattern(std::string pattern);

  bool ok() const { return error_.empty(); }
  // Why the pattern is invalid: "bad pattern 'a(?=b)': invalid perl operator: (?=".
  const std::string &error() const { return error_; }
  bool matches(std::string_view name) const;
  const std::string &text() const { return text_; }
  bool is_regex() const { return re_ != nullptr; }
  bool empty() const { return text_.empty(); }

private:
  std::string text_;
  std::string error_;
  std::shared_ptr<const re2::RE2> re_; // null for plain substrings and invalid patterns
};

// True when every pattern compiles; else false with *error for the first that does not.
bool check_patterns(const std::vector<std::string> &patterns, std::string *error);

} // namespace hotlines
