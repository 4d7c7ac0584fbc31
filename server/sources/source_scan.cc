// The line scanner behind source resolution's package and declaration lookups (see
// source_scan.h). Heuristic by design: it looks at one line at a time, skips comments, and
// accepts the shapes declarations take in the JVM languages and Go. Pure; thread-safe.
#include "server/sources/source_scan.h"

#include "formats/file_reader.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace hotlines {

namespace {

bool ident_char(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The identifier starting at `i` (skipping spaces first); advances `i` past it.
std::string_view next_ident(std::string_view s, size_t *i) {
  while (*i < s.size() && isspace(static_cast<unsigned char>(s[*i]))) ++*i;
  if (*i < s.size() && s[*i] == '`') { // Kotlin `names with spaces`
    size_t end = s.find('`', *i + 1);
    if (end == std::string_view::npos) return {};
    std::string_view name = s.substr(*i + 1, end - *i - 1);
    *i = end + 1;
    return name;
  }
  size_t b = *i;
  while (*i < s.size() && ident_char(s[*i])) ++*i;
  return s.substr(b, *i - b);
}

// Finds `word` as a whole token in `line`; returns the index after it, or npos.
size_t find_token(std::string_view line, std::string_view word) {
  for (size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    bool left = at == 0 || !ident_char(line[at - 1]);
    bool right = at + word.size() >= line.size() || !ident_char(line[at + word.size()]);
    if (left && right) return at + word.size();
  }
  return std::string_view::npos;
}

void add(std::unordered_map<std::string, std::vector<int32_t>> *m, std::string_view name,
         int32_t line) {
  if (!name.empty()) (*m)[std::string(name)].push_back(line);
}

constexpr std::array<std::string_view, 6> kTypeWords = {"class",  "interface", "enum",
                                                        "object", "trait",     "record"};

// Java/Groovy method or constructor declaration: `<modifiers/type> name(` with a type or
// modifier token right before the name, and nothing before it that makes it an expression.
std::string_view java_declared_name(std::string_view line) {
  static constexpr std::array<std::string_view, 16> kNotDecl = {
      "if",    "for",  "while", "switch", "catch", "synchronized", "return", "new",
      "throw", "else", "case",  "super",  "this",  "try",          "assert", "yield"};
  for (size_t i = 0; i < line.size(); i++) {
    if (!ident_char(line[i]) || (i > 0 && ident_char(line[i - 1]))) continue;
    size_t e = i;
    while (e < line.size() && ident_char(line[e])) e++;
    size_t p = e;
    while (p < line.size() && line[p] == ' ') p++;
    if (p >= line.size() || line[p] != '(') {
      i = e;
      continue;
    }
    std::string_view name = line.substr(i, e - i);
    std::string_view before = trim(line.substr(0, i));
    if (before.empty() || isdigit(static_cast<unsigned char>(name[0]))) return {};
    char prev = before.back();
    if (!(ident_char(prev) || prev == '>' || prev == ']')) return {};
    if (before.find_first_of("=(.;") != std::string_view::npos) return {};
    size_t t = before.size();
    while (t > 0 && ident_char(before[t - 1])) t--;
    std::string_view prev_token = before.substr(t);
    for (std::string_view w : kNotDecl)
      if (name == w || prev_token == w) return {};
    return name;
  }
  return {};
}

// The code on a trimmed line: without a block comment that opens or closes it, or a trailing
// `//` comment; "" when nothing is left. *in_comment carries an open block comment over lines.
std::string_view code_of_line(std::string_view line, bool *in_comment) {
  if (*in_comment) {
    size_t close = line.find("*/");
    if (close == std::string_view::npos) return {};
    *in_comment = false;
    line = trim(line.substr(close + 2));
  }
  if (line.rfind("/*", 0) == 0) {
    size_t close = line.find("*/", 2);
    if (close == std::string_view::npos) {
      *in_comment = true;
      return {};
    }
    line = trim(line.substr(close + 2));
  }
  if (line.empty() || line.rfind("//", 0) == 0 || line[0] == '*' || line[0] == '#') return {};
  if (size_t c = line.find("//"); c != std::string_view::npos) line = trim(line.substr(0, c));
  return line;
}

// Go declarations: `func Name(`, `func (recv) Name(` and `type Name`.
void scan_go_line(std::string_view line, int32_t n, SourceScan *scan) {
  if (line.rfind("func", 0) == 0 && line.size() > 4 && (line[4] == ' ' || line[4] == '(')) {
    size_t i = 4;
    std::string_view recv;
    while (i < line.size() && line[i] == ' ') i++;
    if (i < line.size() && line[i] == '(') { // receiver: (s *spinner) or (spinner)
      size_t close = line.find(')', i);
      if (close == std::string_view::npos) return;
      std::string_view r = line.substr(i + 1, close - i - 1);
      size_t last = r.find_last_of(" *");
      recv = trim(last == std::string_view::npos ? r : r.substr(last + 1));
      if (size_t g = recv.find('['); g != std::string_view::npos) recv = recv.substr(0, g);
      i = close + 1;
    }
    std::string_view name = next_ident(line, &i);
    if (name.empty()) return;
    // Plain functions under their name, methods under `T.M` and `.M` (so `pkg.Spin`
    // does not land on a method `(*spinner).Spin`).
    if (recv.empty()) {
      add(&scan->functions, name, n);
    } else {
      add(&scan->functions, std::string(recv) + "." + std::string(name), n);
      add(&scan->functions, "." + std::string(name), n);
    }
  } else if (line.rfind("type ", 0) == 0) {
    size_t i = 5;
    add(&scan->types, next_ident(line, &i), n);
  }
}

// The name a JVM-language class, interface, enum, object, trait or record declaration on the
// line gives ("" when none).
std::string_view declared_type_name(std::string_view line) {
  for (std::string_view w : kTypeWords) {
    size_t after = find_token(line, w);
    if (after == std::string_view::npos) continue;
    size_t i = after;
    std::string_view name = next_ident(line, &i);
    if (name.empty() && w == "object" && find_token(line, "companion") != std::string_view::npos)
      name = "Companion";
    return name;
  }
  return {};
}

// The function a Kotlin `fun` or Scala `def` on the line declares ("" when none), generic
// and extension functions included.
std::string_view kotlin_scala_function(std::string_view line, bool kotlin) {
  size_t after = find_token(line, kotlin ? "fun" : "def");
  if (after == std::string_view::npos) return {};
  size_t i = after;
  while (i < line.size() && line[i] == ' ') i++;
  if (i < line.size() && line[i] == '<') { // fun <T> name
    size_t close = line.find('>', i);
    if (close == std::string_view::npos) return {};
    i = close + 1;
  }
  std::string_view name = next_ident(line, &i);
  // Extension functions: fun Receiver.name( / fun List<T>.name(
  while (i < line.size() && (line[i] == '.' || line[i] == '<' || line[i] == '?')) {
    if (line[i] == '<') {
      size_t close = line.find('>', i);
      if (close == std::string_view::npos) break;
      i = close + 1;
      continue;
    }
    if (line[i] == '?') {
      i++;
      continue;
    }
    i++;
    name = next_ident(line, &i);
  }
  return name;
}

// The method a Groovy `def name(` on the line declares ("" when none).
std::string_view groovy_def(std::string_view line) {
  size_t after = find_token(line, "def");
  if (after == std::string_view::npos) return {};
  size_t i = after;
  std::string_view name = next_ident(line, &i);
  if (!name.empty() && i < line.size() && line.find('(', i) != std::string_view::npos) return name;
  return {};
}

} // namespace

namespace {

// Feeds a text's lines, one at a time, to the patterns of its language.
class LineScanner {
public:
  explicit LineScanner(std::string_view ext)
      : go_(ext == "go"), kotlin_(ext == "kt" || ext == "kts"), scala_(ext == "scala"),
        groovy_(ext == "groovy"), java_(ext == "java" || groovy_) {
    scan_.go = go_;
  }

  void line(std::string_view raw) {
    std::string_view line = code_of_line(trim(raw), &in_comment_);
    n_++;
    if (line.empty()) return;
    if (scan_.package.empty() && line.rfind("package ", 0) == 0) {
      std::string_view rest = trim(line.substr(8));
      size_t stop = rest.find_first_of("; \t{");
      scan_.package = std::string(rest.substr(0, stop));
      return;
    }
    if (go_) return scan_go_line(line, n_, &scan_);
    if (!java_ && !kotlin_ && !scala_) return;
    add(&scan_.types, declared_type_name(line), n_);
    if (kotlin_ || scala_) return add(&scan_.functions, kotlin_scala_function(line, kotlin_), n_);
    if (groovy_)
      if (std::string_view name = groovy_def(line); !name.empty())
        return add(&scan_.functions, name, n_);
    add(&scan_.functions, java_declared_name(line), n_);
  }
  SourceScan take() { return std::move(scan_); }

private:
  const bool go_, kotlin_, scala_, groovy_, java_;
  bool in_comment_ = false;
  int32_t n_ = 0;
  SourceScan scan_;
};

} // namespace

SourceScan scan_source(std::string_view text, std::string_view ext) {
  LineScanner scanner(ext);
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    scanner.line(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return scanner.take();
}

SourceScan scan_source(std::span<const std::string> lines, std::string_view ext) {
  LineScanner scanner(ext);
  for (const std::string &line : lines) scanner.line(line);
  return scanner.take();
}

namespace {

// The name in a `JvmName("Bar")` or `JvmName(name = "Bar")` of a file annotation line, or "".
std::string_view jvm_name_argument(std::string_view line) {
  static constexpr std::string_view kWord = "JvmName";
  auto skip_spaces = [&](size_t i) {
    while (i < line.size() && isspace(static_cast<unsigned char>(line[i]))) i++;
    return i;
  };
  for (size_t at = line.find(kWord); at != std::string_view::npos; at = line.find(kWord, at + 1)) {
    if (at > 0 && ident_char(line[at - 1])) continue;
    size_t i = skip_spaces(at + kWord.size());
    if (i >= line.size() || line[i] != '(') continue;
    i = skip_spaces(i + 1);
    if (line.compare(i, 4, "name") == 0)
      if (size_t eq = skip_spaces(i + 4); eq < line.size() && line[eq] == '=')
        i = skip_spaces(eq + 1);
    if (i >= line.size() || line[i] != '"') continue;
    size_t end = line.find('"', i + 1);
    if (end == std::string_view::npos) continue;
    std::string_view name = line.substr(i + 1, end - i - 1);
    if (!name.empty() && std::all_of(name.begin(), name.end(), ident_char)) return name;
  }
  return {};
}

} // namespace

std::string kotlin_jvm_name(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3); // UTF-8 byte order mark
  bool in_comment = false;
  std::string_view name, package;
  size_t pos = 0;
  // The file's header: comments, file annotations, then the package line; anything else
  // (imports, declarations) ends it.
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = code_of_line(trim(text.substr(pos, end - pos)), &in_comment);
    pos = end + 1;
    if (line.empty()) continue;
    if (line.rfind("@file:", 0) == 0) {
      if (name.empty()) name = jvm_name_argument(line);
      continue;
    }
    if (line.rfind("package ", 0) == 0) {
      package = trim(line.substr(8));
      package = package.substr(0, package.find_first_of("; \t"));
    }
    break;
  }
  if (name.empty()) return {};
  std::string cls(package);
  std::replace(cls.begin(), cls.end(), '.', '/');
  if (!cls.empty()) cls += '/';
  cls += name;
  return cls;
}

std::string kotlin_jvm_name_of_file(const std::string &path) {
  ReadFileOptions o;
  RegularFile file;
  std::string error;
  if (file.open(path, &error, o) != ReadStatus::ok) return {};
  std::string head(std::min<uint64_t>(file.size(), kKotlinHeadBytes), '\0');
  if (file.read_at(0, head.size(), head.data(), &error, nullptr) != ReadStatus::ok) return {};
  return kotlin_jvm_name(head);
}

std::string_view extension_of(std::string_view path) {
  std::string_view base = path.substr(path.find_last_of('/') + 1);
  size_t dot = base.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : base.substr(dot + 1);
}

SourceScan scan_source_file(const std::string &path) {
  // A regular file of sane size only: a FIFO or device under a source name must not block.
  ReadFileOptions o;
  o.max_bytes = uint64_t(64) << 20;
  FileBytes bytes;
  std::string error;
  if (read_regular_file(path, &bytes, &error, o) != ReadStatus::ok) return {};
  return scan_source(bytes.view(), extension_of(path));
}

namespace {

// First line >= from in a sorted list, else 0.
int32_t first_at_or_after(const std::vector<int32_t> &lines, int32_t from) {
  auto it = std::lower_bound(lines.begin(), lines.end(), from);
  return it == lines.end() ? 0 : *it;
}

const std::vector<int32_t> *find(const std::unordered_map<std::string, std::vector<int32_t>> &m,
                                 std::string_view name) {
  auto it = m.find(std::string(name));
  return it == m.end() ? nullptr : &it->second;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return isdigit(c); });
}

} // namespace

int32_t jvm_method_line(const SourceScan &scan, std::string_view outer,
                        std::span<const std::string_view> nested, std::string_view method) {
  int32_t start = 0, enclosing_fn = 0;
  std::string_view innermost = outer;
  if (const auto *t = find(scan.types, outer)) start = t->front();
  for (std::string_view n : nested) {
    if (n.empty() || all_digits(n)) continue; // anonymous class: stays in the enclosing one
    if (n == "Lambda") break;                 // $$Lambda: a hidden class
    if (const auto *t = find(scan.types, n)) {
      if (int32_t l = first_at_or_after(*t, start)) start = l;
      innermost = n;
    } else if (const auto *f = find(scan.functions, n)) {
      // Kotlin lambdas and local classes: `FooKt$main$1` lives in function main.
      enclosing_fn = first_at_or_after(*f, start);
      if (!enclosing_fn) enclosing_fn = f->front();
      break;
    }
  }
  if (method == "<init>" || method == "<clinit>") {
    if (method == "<init>")
      if (const auto *f = find(scan.functions, innermost))
        if (int32_t l = first_at_or_after(*f, start)) return l;
    if (const auto *t = find(scan.types, innermost)) return first_at_or_after(*t, start);
    return enclosing_fn;
  }
  std::string_view name = jvm_source_method(method);
  if (const auto *f = find(scan.functions, name)) {
    if (int32_t l = first_at_or_after(*f, start)) return l;
    if (enclosing_fn == 0) return f->front();
  }
  return enclosing_fn;
}

namespace {

struct GoSymbol {
  std::string_view recv, name;
};

// The receiver type (without `*`) and function of a Go symbol: `pkg.(*T).M` -> {T, M},
// `pkg.Func.func1` -> {"", Func}; both empty when it has no package prefix.
GoSymbol go_symbol(std::string_view symbol) {
  size_t slash = symbol.rfind('/');
  std::string_view s = slash == std::string_view::npos ? symbol : symbol.substr(slash + 1);
  size_t dot = s.find('.');
  if (dot == std::string_view::npos) return {};
  s.remove_prefix(dot + 1);
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= s.size()) {
    // Split on dots outside parentheses and brackets: `(*T).M`, `F[...].func1`.
    int depth = 0;
    size_t j = i;
    for (; j < s.size(); j++) {
      if (s[j] == '(' || s[j] == '[') depth++;
      if (s[j] == ')' || s[j] == ']') depth--;
      if (s[j] == '.' && depth == 0) break;
    }
    parts.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  std::string_view recv, name;
  for (std::string_view p : parts) {
    if (p.empty()) continue;
    if (p.front() == '(') {
      recv = p.substr(1, p.size() >= 2 ? p.size() - 2 : 0);
      while (!recv.empty() && recv.front() == '*') recv.remove_prefix(1);
      continue;
    }
    if (size_t g = p.find('['); g != std::string_view::npos) p = p.substr(0, g);
    if ((p.rfind("func", 0) == 0 && all_digits(p.substr(4))) || all_digits(p)) break;
    if (name.empty()) {
      name = p;
    } else {
      recv = name; // T.M without a pointer receiver
      name = p;
    }
  }
  return {recv, name};
}

} // namespace

int32_t go_function_line(const SourceScan &scan, std::string_view symbol) {
  auto [recv, name] = go_symbol(symbol);
  if (name.empty()) return 0;
  std::vector<std::string> names;
  if (!recv.empty()) names.push_back(std::string(recv) + "." + std::string(name));
  names.emplace_back(name);
  names.push_back("." + std::string(name));
  for (const std::string &n : names)
    if (const auto *f = find(scan.functions, n)) return f->front();
  return 0;
}

std::string_view jvm_source_method(std::string_view method) {
  if (method.rfind("access$", 0) == 0) return method.substr(7);
  if (method.rfind("lambda$", 0) == 0) {
    method.remove_prefix(7);
    return method.substr(0, method.find('$'));
  }
  if (size_t d = method.find('$'); d != std::string_view::npos && d > 0)
    return method.substr(0, d); // main$lambda$0, foo$default
  return method;
}

int32_t declaration_above(const SourceScan &scan, std::string_view label, int32_t line) {
  std::vector<std::string> names;
  if (scan.go) {
    // A method only under its receiver's type (or `.M` when the receiver is generic).
    auto [recv, name] = go_symbol(label);
    if (!recv.empty()) names.push_back(std::string(recv) + "." + std::string(name));
    names.push_back((recv.empty() ? "" : ".") + std::string(name));
  } else {
    // `org.acme.Pricing.discount(I)D` -> discount; `org.acme.Pricing.<init>` -> Pricing.
    std::string_view head = label.substr(0, label.find('(')); // descriptors have no dots
    size_t dot = head.rfind('.');
    std::string_view method = dot == head.npos ? head : head.substr(dot + 1);
    if (method == "<init>" && dot != head.npos) {
      std::string_view cls = head.substr(0, dot);
      method = cls.substr(cls.find_last_of(".$") + 1);
    }
    names.emplace_back(jvm_source_method(method));
  }
  // The most specific name with a declaration in reach: a method's receiver is not lost to
  // a plain function of the same name.
  for (const std::string &name : names)
    if (const auto *f = find(scan.functions, name)) {
      auto it = std::upper_bound(f->begin(), f->end(), line);
      if (it != f->begin() && *(it - 1) >= line - kDeclarationReach) return *(it - 1);
    }
  return 0;
}

} // namespace hotlines
