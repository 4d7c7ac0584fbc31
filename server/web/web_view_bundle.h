// The web view's JavaScript bundle (editors/web/dist/view.js), compiled into the binary by
// server/embed_file.cmake so that exports need no files at run time. Immutable; thread-safe.
#pragma once

#include <string_view>

namespace hotlines {

// The bundle's text: an IIFE that reads the page's `hotlines-data` document and draws it.
std::string_view web_view_script();

} // namespace hotlines
