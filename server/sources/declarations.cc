// Finding declarations in source text (see declarations.h).
#include "server/sources/declarations.h"

#include <algorithm>
#include <cctype>

namespace hotlines {

// The bare method name of a function label: `org.acme.shop.Pricing.discount` -> `discount`,
// `example.com/gows/internal/shop.(*spinner).Spin` -> `Spin`, `<init>` -> the class name.
std::string short_name(const std::string &label) {
  size_t paren = label.find('(', label.rfind('.') == std::string::npos ? 0 : label.rfind('.'));
  std::string s = label.substr(0, paren); // drops a descriptor: `discount(I)D`
  size_t dot = s.rfind('.');
  std::string name = dot == std::string::npos ? s : s.substr(dot + 1);
  if (name == "<init>" && dot != std::string::npos) {
    std::string cls = s.substr(0, dot);
    size_t d2 = cls.find_last_of(".$");
    name = d2 == std::string::npos ? cls : cls.substr(d2 + 1);
  }
  return name;
}

static bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// The line declaring `name` at or above `from` (0-based), looking up to 60 lines back: a
// line with `name(` as a whole word that is not a statement (no trailing `;`).
int32_t declaration_line(const std::vector<std::string> &lines, int32_t from,
                         const std::string &name) {
  if (name.empty() || from < 0) return -1;
  for (int32_t l = std::min<int32_t>(from, static_cast<int32_t>(lines.size()) - 1);
       l >= 0 && l >= from - 60; l--) {
    const std::string &text = lines[static_cast<size_t>(l)];
    for (size_t pos = text.find(name); pos != std::string::npos; pos = text.find(name, pos + 1)) {
      size_t end = pos + name.size();
      if (pos > 0 && is_identifier_char(text[pos - 1])) continue;
      while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) end++;
      if (end >= text.size() || text[end] != '(') continue;
      size_t last = text.find_last_not_of(" \t\r");
      if (last != std::string::npos && text[last] == ';') continue;
      return l;
    }
  }
  return -1;
}

} // namespace hotlines
