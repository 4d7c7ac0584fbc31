// The embedded web view bundle (see web_view_bundle.h); the bytes come from a .cc file that
// server/embed_file.cmake generates in the build folder.
// Threading: Constant data; thread-safe.
#include "server/web/web_view_bundle.h"

#include <cstddef>

namespace hotlines {

extern const unsigned char kWebViewJs[];
extern const size_t kWebViewJsSize;

std::string_view web_view_script() {
  return {reinterpret_cast<const char *>(kWebViewJs), kWebViewJsSize};
}

} // namespace hotlines
