// Which recorded file keys (the line table's files: `org/acme/shop/Pricing.java`, or a
// recorded path like `/build/go-shop/internal/shop/shop.go`) a workspace path or a user's file
// name means, by trailing path components. Components of a key recorded on Windows (a drive
// letter or backslashes: `C:\Build\GO-SHOP\Internal\Shop\Shop.go`) compare ignoring ASCII
// case, preferring keys that match in exact case; other keys compare exactly. Pure
// functions; any thread.
#pragma once

#include "server/engine/line_keys.h"

#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// The recorded file keys that name `path`: the ones sharing the most trailing path
// components with it (the whole key for JVM keys like `org/acme/shop/Pricing.java`; for
// path keys at least the file and its folder), then the most of them in exact case.
std::vector<std::string> file_keys_for_path(const LineKeys &keys, std::string_view path);

// The recorded file keys a user's `--file NAME` names: the key itself when recorded, else the
// keys that end with all of its path components (`Pricing.java`, `shop/Pricing.java`), those
// matching in exact case when some do.
std::vector<std::string> recorded_keys_named(const LineKeys &keys, std::string_view name);

// How many trailing path components `path` and the recorded `key` share.
size_t common_trailing_components(std::string_view path, std::string_view key);

// Whether a recorded path looks recorded on Windows: a drive letter (`C:`, `file:///C:`) or
// a backslash. Such paths match workspace paths ignoring case.
bool looks_windows_recorded(std::string_view path);

} // namespace hotlines
