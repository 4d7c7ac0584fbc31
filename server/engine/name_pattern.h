// NamePattern: how users name functions and threads (`-m`, `--hide`, `--include`, `-t`).
// A pattern is a plain substring unless it uses a regex operator (* + ? ( ) [ ] { } | ^ \),
// then it is an ECMAScript regex searched in the name (a literal substring match still
// counts, so `Pricing$Inner` and `Main.lambda$main$0` work as typed). Immutable after
// construction; safe to share between threads.
#pragma once

#include <memory>
#include <regex>
#include <string>
#include <string_view>

namespace hotlines {

class NamePattern {
public:
  NamePattern() = default;
  explicit NamePattern(std::string pattern);

  bool matches(std::string_view name) const;
  const std::string &text() const { return text_; }
  bool is_regex() const { return re_ != nullptr; }
  bool empty() const { return text_.empty(); }

private:
  std::string text_;
  std::shared_ptr<const std::regex> re_; // null for plain substrings
};

} // namespace hotlines
