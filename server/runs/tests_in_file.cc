// Tests in a file (see tests_in_file.h).
#include "server/runs/tests_in_file.h"

#include <algorithm>
#include <cstdint>

namespace hotlines {

namespace {

struct Token {
  enum class Kind { ident, symbol } kind;
  std::string_view text;
  size_t begin, end; // byte offsets
};

bool ident_start(unsigned char c) {
  return isalpha(c) || c == '_' || c == '$' || c >= 0x80;
}
bool ident_char(unsigned char c) {
  return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

// Identifiers, one-character symbols and Java's "..." (varargs); comments, strings,
// characters and numbers skipped.
std::vector<Token> tokenize(std::string_view s, TestLanguage lang) {
  std::vector<Token> out;
  size_t i = 0, n = s.size();
  auto skip_quoted = [&](char q) {
    for (i++; i < n && s[i] != q && s[i] != '\n'; i++)
      if (s[i] == '\\') i++;
    i++;
  };
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (isspace(c)) {
      i++;
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < n && s[i] != '\n') i++;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t e = s.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
    } else if (lang == TestLanguage::java && s.compare(i, 3, "\"\"\"") == 0) {
      size_t e = s.find("\"\"\"", i + 3);
      while (e != std::string_view::npos && s[e - 1] == '\\') e = s.find("\"\"\"", e + 1);
      i = e == std::string_view::npos ? n : e + 3;
    } else if (c == '"' || c == '\'') {
      skip_quoted(static_cast<char>(c));
    } else if ((lang == TestLanguage::go || lang == TestLanguage::javascript) && c == '`') {
      size_t e = s.find('`', i + 1);
      i = e == std::string_view::npos ? n : e + 1;
    } else if (isdigit(c)) {
      while (i < n && (ident_char(static_cast<unsigned char>(s[i])) || s[i] == '.')) i++;
    } else if (lang == TestLanguage::java && s.compare(i, 3, "...") == 0) {
      out.push_back({Token::Kind::symbol, s.substr(i, 3), i, i + 3});
      i += 3;
    } else if (ident_start(c)) {
      size_t b = i;
      while (i < n && ident_char(static_cast<unsigned char>(s[i]))) i++;
      out.push_back({Token::Kind::ident, s.substr(b, i - b), b, i});
    } else {
      out.push_back({Token::Kind::symbol, s.substr(i, 1), i, i + 1});
      i++;
    }
  }
  return out;
}

// Byte offsets -> LSP positions.
class Positions {
public:
  explicit Positions(std::string_view s) : s_(s) {
    starts_.push_back(0);
    for (size_t i = 0; i < s.size(); i++)
      if (s[i] == '\n') starts_.push_back(i + 1);
  }
  SourcePos at(size_t offset) const {
    size_t line = std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin() - 1;
    int64_t col = 0;
    for (size_t i = starts_[line]; i < offset && i < s_.size(); i++) {
      unsigned char c = static_cast<unsigned char>(s_[i]);
      if ((c & 0xC0) != 0x80) col += c >= 0xF0 ? 2 : 1; // 4-byte sequences are surrogate pairs
    }
    return {static_cast<int64_t>(line), col};
  }
  SourceRange range(size_t begin, size_t end) const { return {at(begin), at(end)}; }

private:
  std::string_view s_;
  std::vector<size_t> starts_;
};

bool is(const Token &t, std::string_view text) {
  return t.text == text;
}

// Index of the token closing the bracket opened at `open` (or tokens.size()).
size_t matching(const std::vector<Token> &t, size_t open) {
  std::string_view o = t[open].text, c = o == "(" ? ")" : o == "{" ? "}" : "]";
  int depth = 0;
  for (size_t i = open; i < t.size(); i++) {
    if (t[i].kind != Token::Kind::symbol) continue;
    if (t[i].text == o) depth++;
    if (t[i].text == c && --depth == 0) return i;
  }
  return t.size();
}

bool is_test_annotation(std::string_view name) {
  return name == "Test" || name == "ParameterizedTest" || name == "RepeatedTest";
}

// The last token of the annotation at t[i]: "@" Name(.Name)* [( … )].
size_t annotation_end(const std::vector<Token> &t, size_t i) {
  size_t j = i + 1;
  while (j + 2 < t.size() && is(t[j + 1], ".") && t[j + 2].kind == Token::Kind::ident) j += 2;
  if (j + 1 < t.size() && is(t[j + 1], "(")) j = matching(t, j + 1);
  return j;
}

// Whether the method named at t[name], declared from t[first] and with its parameters up to
// the ")" at t[close], is `public static void main(String[] args)`: modifiers public, static
// (final, synchronized, strictfp and annotations allowed), one parameter `String[] a`,
// `String... a` or `String a[]` (`java.lang.String`, `final` and annotations allowed).
bool is_java_main(const std::vector<Token> &t, size_t first, size_t name, size_t close) {
  if (!is(t[name], "main") || name == 0 || !is(t[name - 1], "void")) return false;
  bool is_public = false, is_static = false;
  for (size_t i = first; i + 1 < name; i++) {
    if (is(t[i], "@")) {
      i = annotation_end(t, i);
      continue;
    }
    if (is(t[i], "public"))
      is_public = true;
    else if (is(t[i], "static"))
      is_static = true;
    else if (!is(t[i], "final") && !is(t[i], "synchronized") && !is(t[i], "strictfp"))
      return false; // a type parameter, another modifier, not a method declaration
  }
  if (!is_public || !is_static) return false;
  size_t i = name + 2;
  while (i < close && (is(t[i], "final") || is(t[i], "@")))
    i = is(t[i], "final") ? i + 1 : annotation_end(t, i) + 1;
  if (i + 4 < close && is(t[i], "java") && is(t[i + 1], ".") && is(t[i + 2], "lang") &&
      is(t[i + 3], "."))
    i += 4;
  if (i >= close || !is(t[i], "String")) return false;
  i++;
  auto ident = [&](size_t k) { return k < close && t[k].kind == Token::Kind::ident; };
  if (close == i + 3 && is(t[i], "[") && is(t[i + 1], "]") && ident(i + 2)) return true;
  if (close == i + 2 && is(t[i], "...") && ident(i + 1)) return true;
  return close == i + 3 && ident(i) && is(t[i + 1], "[") && is(t[i + 2], "]");
}

// JUnit tests (want junit), main methods (want java_main) or test classes (want junit_class)
// of a Java file, in one pass over its tokens that tracks the package, the classes open at
// each token and the member declaration it is in.
class JavaMethods {
public:
  JavaMethods(std::string_view text, FoundTest::Kind want)
      : text_(text), want_(want), t_(tokenize(text, TestLanguage::java)), pos_(text) {}
  std::vector<FoundTest> find();

private:
  struct Class {
    std::string name;
    int depth;  // brace depth of its body
    bool named; // top-level or a member of a named class: the JVM knows it as Outer$Inner
    size_t begin = 0, name_token = 0; // its declaration's first character, its name
    int tests = 0;                    // JUnit tests it declares itself
  };

  std::string class_name() const;
  // The identifier at t_[*i]: a package, a class declaration or a method name. Moves *i to
  // the last token it took.
  void identifier(size_t *i);
  // The method named at t_[*i], when wanted; moves *i to its last token.
  void method(size_t *i);
  // The annotation at t_[i]; returns its last token.
  size_t annotation(size_t i);
  // A '{', '}' or other symbol at t_[i].
  void symbol(size_t i);
  // The '}' at t_[i] closing the innermost class's body.
  void close_class(size_t i);

  std::string_view text_;
  FoundTest::Kind want_;
  std::vector<Token> t_;
  Positions pos_;
  std::vector<FoundTest> tests_;
  std::string package_;
  std::vector<Class> classes_;
  std::string pending_class_;
  size_t pending_begin_ = 0, pending_name_ = 0;
  int depth_ = 0;
  size_t member_start_ = SIZE_MAX; // first annotation of the next member
  bool test_annotated_ = false;    // one of them marks a test
  size_t decl_start_ = 0;          // first token after the last '{', '}' or ';'
};

std::vector<FoundTest> JavaMethods::find() {
  for (size_t i = 0; i < t_.size(); i++) {
    const Token &k = t_[i];
    if (k.kind == Token::Kind::ident)
      identifier(&i);
    else if (is(k, "@") && i + 1 < t_.size() && t_[i + 1].kind == Token::Kind::ident &&
             !is(t_[i + 1], "interface"))
      i = annotation(i);
    else
      symbol(i);
  }
  // Classes end after their members: back to the order of their declarations.
  std::stable_sort(tests_.begin(), tests_.end(), [](const FoundTest &a, const FoundTest &b) {
    const SourcePos &x = a.range.start, &y = b.range.start;
    return x.line != y.line ? x.line < y.line : x.character < y.character;
  });
  return std::move(tests_);
}

std::string JavaMethods::class_name() const {
  std::string cls;
  for (const Class &c : classes_) cls += (cls.empty() ? "" : "$") + c.name;
  return package_.empty() ? cls : package_ + "." + cls;
}

void JavaMethods::identifier(size_t *ip) {
  size_t &i = *ip;
  const Token &k = t_[i];
  if (is(k, "package") && depth_ == 0 && classes_.empty()) {
    package_.clear();
    for (i++; i < t_.size() && !is(t_[i], ";"); i++) package_ += t_[i].text;
    return;
  }
  bool member_of_dot = i > 0 && is(t_[i - 1], ".");
  if ((is(k, "class") || is(k, "interface") || is(k, "enum") || is(k, "record")) &&
      !member_of_dot && !(i > 0 && is(t_[i - 1], "@")) && i + 1 < t_.size() &&
      t_[i + 1].kind == Token::Kind::ident) {
    pending_class_ = std::string(t_[i + 1].text);
    pending_begin_ = member_start_ != SIZE_MAX ? member_start_ : t_[decl_start_].begin;
    pending_name_ = i + 1;
    i++;
    return;
  }
  // A method name: an identifier followed by '(' directly in a class body.
  if (i + 1 < t_.size() && is(t_[i + 1], "(") && !classes_.empty() &&
      depth_ == classes_.back().depth)
    method(ip);
}

void JavaMethods::method(size_t *ip) {
  size_t &i = *ip;
  const Token &k = t_[i];
  bool wanted = want_ == FoundTest::Kind::java_main
                    ? classes_.back().named && is(k, "main") &&
                          is_java_main(t_, decl_start_, i, matching(t_, i + 1))
                    : test_annotated_;
  if (!wanted) {
    member_start_ = SIZE_MAX;
    return;
  }
  classes_.back().tests++;
  FoundTest f;
  f.kind = want_;
  f.class_name = class_name();
  f.name = std::string(k.text);
  f.selection = pos_.range(k.begin, k.end);
  size_t close = matching(t_, i + 1), end = close;
  while (end < t_.size() && !is(t_[end], "{") && !is(t_[end], ";")) end++;
  if (end < t_.size() && is(t_[end], "{")) end = matching(t_, end);
  size_t end_offset = end < t_.size() ? t_[end].end : text_.size();
  size_t start = want_ == FoundTest::Kind::junit ? member_start_ : t_[decl_start_].begin;
  f.range = pos_.range(start, end_offset);
  if (want_ != FoundTest::Kind::junit_class) tests_.push_back(std::move(f));
  member_start_ = SIZE_MAX;
  test_annotated_ = false;
  i = end < t_.size() ? end : t_.size();
  decl_start_ = i + 1;
}

size_t JavaMethods::annotation(size_t i) {
  size_t j = i + 1;
  while (j + 2 < t_.size() && is(t_[j + 1], ".") && t_[j + 2].kind == Token::Kind::ident) j += 2;
  if (member_start_ == SIZE_MAX) member_start_ = t_[i].begin;
  if (is_test_annotation(t_[j].text)) test_annotated_ = true;
  if (j + 1 < t_.size() && is(t_[j + 1], "(")) j = matching(t_, j + 1);
  return j;
}

void JavaMethods::symbol(size_t i) {
  const Token &k = t_[i];
  if (is(k, "{") || is(k, "}") || is(k, ";")) { // a class body, a field, a statement
    member_start_ = SIZE_MAX;
    test_annotated_ = false;
    decl_start_ = i + 1;
  }
  if (is(k, "{")) {
    depth_++;
    if (!pending_class_.empty()) {
      bool named = classes_.empty() ? depth_ == 1
                                    : classes_.back().named && depth_ == classes_.back().depth + 1;
      classes_.push_back({pending_class_, depth_, named, pending_begin_, pending_name_});
      pending_class_.clear();
    }
  } else if (is(k, "}")) {
    if (!classes_.empty() && classes_.back().depth == depth_) close_class(i);
    depth_--;
  }
}

void JavaMethods::close_class(size_t i) {
  const Class &c = classes_.back();
  if (want_ == FoundTest::Kind::junit_class && c.named && c.tests > 0) {
    FoundTest f;
    f.kind = want_;
    f.class_name = class_name();
    f.name = c.name;
    f.selection = pos_.range(t_[c.name_token].begin, t_[c.name_token].end);
    f.range = pos_.range(c.begin, t_[i].end);
    tests_.push_back(std::move(f));
  }
  classes_.pop_back();
}

std::vector<FoundTest> java_methods(std::string_view text, FoundTest::Kind want) {
  return JavaMethods(text, want).find();
}

bool go_test_name(std::string_view name, std::string_view prefix) {
  if (name.substr(0, prefix.size()) != prefix) return false;
  return name.size() == prefix.size() || !islower(static_cast<unsigned char>(name[prefix.size()]));
}

// The tests of a file that `match` finds at its tokens: match(t, i, &test) fills the test's kind,
// names and selection when t[i] starts one and returns the index of the bracket whose closing
// one ends its range (from t[i]), or SIZE_MAX. `nested`: tests can hold tests (JavaScript's
// describe and it), so the scan goes on inside a test rather than after it.
template <typename Match>
std::vector<FoundTest> scan_tests(std::string_view text, TestLanguage lang, bool nested,
                                  Match match) {
  const std::vector<Token> t = tokenize(text, lang);
  const Positions pos(text);
  std::vector<FoundTest> out;
  for (size_t i = 0; i < t.size(); i++) {
    FoundTest f;
    const size_t open = match(t, i, pos, &f);
    if (open == SIZE_MAX) continue;
    const size_t close = matching(t, open);
    f.range = pos.range(t[i].begin, close < t.size() ? t[close].end : text.size());
    out.push_back(std::move(f));
    if (!nested) i = close < t.size() ? close : t.size();
  }
  return out;
}

std::vector<FoundTest> go_tests(std::string_view text) {
  int depth = 0;
  return scan_tests(
      text, TestLanguage::go, false,
      [&](const std::vector<Token> &t, size_t i, const Positions &pos, FoundTest *f) -> size_t {
        if (is(t[i], "{")) depth++;
        if (is(t[i], "}")) depth--;
        if (depth != 0 || !is(t[i], "func") || i + 2 >= t.size()) return SIZE_MAX;
        const Token &name = t[i + 1];
        if (name.kind != Token::Kind::ident || !is(t[i + 2], "("))
          return SIZE_MAX; // methods, literals
        bool test = go_test_name(name.text, "Test");
        bool bench = go_test_name(name.text, "Benchmark");
        if (!test && !bench) return SIZE_MAX;
        // (name *pkg.T) with T for tests and B for benchmarks.
        size_t close = matching(t, i + 2);
        if (close >= t.size() || close < i + 6) return SIZE_MAX;
        if (!is(t[close - 1], test ? "T" : "B") || !is(t[close - 2], ".") || !is(t[close - 4], "*"))
          return SIZE_MAX;
        if (close + 1 >= t.size() || !is(t[close + 1], "{")) return SIZE_MAX;
        f->kind = test ? FoundTest::Kind::go_test : FoundTest::Kind::go_benchmark;
        f->name = std::string(name.text);
        f->selection = pos.range(name.begin, name.end);
        return close + 1;
      });
}

// The text of the string literal starting at s[at] ('…', "…", or `…` without ${}), or
// false.
bool string_literal(std::string_view s, size_t at, std::string *out) {
  if (at >= s.size() || (s[at] != '"' && s[at] != '\'' && s[at] != '`')) return false;
  const char q = s[at];
  out->clear();
  for (size_t i = at + 1; i < s.size(); i++) {
    if (s[i] == q) return true;
    if (s[i] == '\n' && q != '`') return false;
    if (q == '`' && s.compare(i, 2, "${") == 0) return false;
    if (s[i] == '\\' && i + 1 < s.size()) i++;
    out->push_back(s[i]);
  }
  return false;
}

bool before(const SourcePos &a, const SourcePos &b) {
  return a.line != b.line ? a.line < b.line : a.character < b.character;
}

// Each test's `suite`: the names of the tests around it (describe blocks), outermost first.
void name_suites(std::vector<FoundTest> *tests) {
  std::vector<const FoundTest *> open; // the tests around the current one
  for (FoundTest &f : *tests) {
    while (!open.empty() && !before(f.range.start, open.back()->range.end)) open.pop_back();
    for (const FoundTest *o : open) f.suite += (f.suite.empty() ? "" : " ") + o->name;
    open.push_back(&f);
  }
}

// test("name", …), it(…), describe(…), and test.only(…) and the like; not `x.test(…)`.
std::vector<FoundTest> js_tests(std::string_view text) {
  std::vector<FoundTest> out = scan_tests(
      text, TestLanguage::javascript, true,
      [&](const std::vector<Token> &t, size_t i, const Positions &pos, FoundTest *f) -> size_t {
        if (i + 1 >= t.size() || t[i].kind != Token::Kind::ident ||
            !(is(t[i], "test") || is(t[i], "it") || is(t[i], "describe")))
          return SIZE_MAX;
        if (i > 0 && (is(t[i - 1], ".") || is(t[i - 1], "function"))) return SIZE_MAX;
        size_t open = i + 1;
        if (is(t[open], ".") && open + 2 < t.size() && t[open + 1].kind == Token::Kind::ident &&
            (is(t[open + 1], "only") || is(t[open + 1], "skip") || is(t[open + 1], "todo") ||
             is(t[open + 1], "concurrent")))
          open += 2;
        if (!is(t[open], "(")) return SIZE_MAX;
        size_t arg = t[open].end;
        while (arg < text.size() && isspace(static_cast<unsigned char>(text[arg]))) arg++;
        f->kind = FoundTest::Kind::node_test;
        if (!string_literal(text, arg, &f->name) || f->name.empty()) return SIZE_MAX;
        f->selection = pos.range(t[i].begin, t[i].end);
        return open;
      });
  name_suites(&out);
  return out;
}

// The --gtest_filter of a test by its macro: TEST_P's are instantiated as Prefix/Suite.Name/N,
// TYPED_TEST's as Suite/N.Name, TYPED_TEST_P's as Prefix/Suite/N.Name; "" for other macros.
std::string gtest_filter(std::string_view macro, const std::string &suite,
                         const std::string &name) {
  if (macro == "TEST" || macro == "TEST_F") return suite + "." + name;
  if (macro == "TEST_P") return "*/" + suite + "." + name + "/*";
  if (macro == "TYPED_TEST") return suite + "/*." + name;
  if (macro == "TYPED_TEST_P") return "*/" + suite + "/*." + name;
  return {};
}

// TEST(Suite, Name), TEST_F, TEST_P, TYPED_TEST and TYPED_TEST_P with a body, at any depth
// outside other bodies (namespaces are fine).
std::vector<FoundTest> gtests(std::string_view text) {
  return scan_tests(
      text, TestLanguage::cpp, false,
      [](const std::vector<Token> &t, size_t i, const Positions &pos, FoundTest *f) -> size_t {
        if (i + 6 >= t.size() || t[i].kind != Token::Kind::ident || !is(t[i + 1], "(") ||
            t[i + 2].kind != Token::Kind::ident || !is(t[i + 3], ",") ||
            t[i + 4].kind != Token::Kind::ident || !is(t[i + 5], ")") || !is(t[i + 6], "{"))
          return SIZE_MAX;
        f->kind = FoundTest::Kind::gtest;
        f->class_name = std::string(t[i + 2].text);
        f->name = std::string(t[i + 4].text);
        f->gtest_filter = gtest_filter(t[i].text, f->class_name, f->name);
        if (f->gtest_filter.empty()) return SIZE_MAX;
        f->selection = pos.range(t[i + 4].begin, t[i + 4].end);
        return i + 6;
      });
}

} // namespace

TestLanguage test_language(std::string_view file_name) {
  auto ends_with = [&](std::string_view suffix) {
    return file_name.size() >= suffix.size() &&
           file_name.substr(file_name.size() - suffix.size()) == suffix;
  };
  if (ends_with(".java")) return TestLanguage::java;
  if (ends_with("_test.go")) return TestLanguage::go;
  for (std::string_view cpp : {".cc", ".cpp", ".cxx", ".c++"})
    if (ends_with(cpp)) return TestLanguage::cpp;
  for (std::string_view ext : {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}) {
    if (!ends_with(ext) || ends_with(".d" + std::string(ext))) continue;
    const std::string_view base = file_name.substr(file_name.rfind('/') + 1);
    const std::string_view stem = base.substr(0, base.size() - ext.size());
    const bool named = stem.size() > 5 && (stem.substr(stem.size() - 5) == ".test" ||
                                           stem.substr(stem.size() - 5) == ".spec");
    const bool folder = file_name.find("/test/") != std::string_view::npos ||
                        file_name.find("/tests/") != std::string_view::npos ||
                        file_name.find("/__tests__/") != std::string_view::npos;
    return named || folder ? TestLanguage::javascript : TestLanguage::none;
  }
  return TestLanguage::none;
}

std::vector<FoundTest> find_tests(TestLanguage language, std::string_view text) {
  switch (language) {
  case TestLanguage::java:
    return java_methods(text, FoundTest::Kind::junit);
  case TestLanguage::go:
    return go_tests(text);
  case TestLanguage::javascript:
    return js_tests(text);
  case TestLanguage::cpp:
    return gtests(text);
  case TestLanguage::none:
    break;
  }
  return {};
}

std::vector<FoundTest> find_mains(TestLanguage language, std::string_view text) {
  if (language != TestLanguage::java) return {};
  return java_methods(text, FoundTest::Kind::java_main);
}

std::vector<FoundTest> find_test_classes(TestLanguage language, std::string_view text) {
  if (language != TestLanguage::java) return {};
  return java_methods(text, FoundTest::Kind::junit_class);
}

} // namespace hotlines
