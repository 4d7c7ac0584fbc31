// file:// URIs and paths, as LSP clients send them: percent-decoding and -encoding, and
// paths given relative to a workspace root. Pure functions.
#pragma once

#include <string>
#include <string_view>

namespace hotlines {

// "file:///a/b%20c.java" -> "/a/b c.java"; anything not a file URI is returned unchanged.
std::string path_of_uri(std::string_view uri);
// "/a/b c.java" -> "file:///a/b%20c.java"
std::string uri_of_path(std::string_view path);
// `path` when absolute, else joined to the directory of `root_uri` (a file URI or path).
std::string absolute_path(std::string_view path, std::string_view root_uri);

} // namespace hotlines
