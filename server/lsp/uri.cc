// URIs and paths (see uri.h).
#include "server/lsp/uri.h"

#include <cctype>

namespace hotlines {

namespace {
int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
} // namespace

std::string path_of_uri(std::string_view uri) {
  if (uri.rfind("file://", 0) != 0) return std::string(uri);
  std::string_view rest = uri.substr(7);
  if (!rest.empty() && rest[0] != '/') { // file://host/path: drop the (local) host
    size_t slash = rest.find('/');
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  std::string out;
  for (size_t i = 0; i < rest.size(); i++) {
    if (rest[i] == '%' && i + 2 < rest.size() + 0 && hex(rest[i + 1]) >= 0 &&
        hex(rest[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(rest[i + 1]) * 16 + hex(rest[i + 2])));
      i += 2;
    } else {
      out.push_back(rest[i]);
    }
  }
  // file:///C:/x -> C:/x
  if (out.size() >= 3 && out[0] == '/' && std::isalpha(static_cast<unsigned char>(out[1])) &&
      out[2] == ':')
    out.erase(0, 1);
  return out;
}

std::string uri_of_path(std::string_view path) {
  static const char *digits = "0123456789ABCDEF";
  std::string out = "file://";
  if (path.empty() || path[0] != '/') out += '/';
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~' || c == '$' ||
        c == '+' || c == ',' || c == '=' || c == '@' || c == '!') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(digits[c >> 4]);
      out.push_back(digits[c & 15]);
    }
  }
  return out;
}

std::string absolute_path(std::string_view path, std::string_view root_uri) {
  std::string p = path_of_uri(path);
  if (p.empty() || p[0] == '/' || root_uri.empty()) return p;
  std::string root = path_of_uri(root_uri);
  if (!root.empty() && root.back() != '/') root += '/';
  return root + p;
}

} // namespace hotlines
