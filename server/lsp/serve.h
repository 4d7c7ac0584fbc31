// `hotlines serve`: runs the language server on stdin/stdout until `exit`.
#pragma once

#include <string>
#include <vector>

namespace hotlines {

int serve_main(const std::vector<std::string> &args);

} // namespace hotlines
