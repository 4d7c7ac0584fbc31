// Where a profiled function is declared in a source text: its bare name from a function
// label and the declaration line found by scanning up from its first profiled line, so code
// lenses sit above the method and hovers on the declaration describe the method. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hotlines {

// The bare method name of a function label: `org.acme.shop.Pricing.discount` -> `discount`,
// `example.com/gows/internal/shop.(*spinner).Spin` -> `Spin`, `<init>` -> the class name.
std::string short_name(const std::string &label);

// The line declaring `name` at or above `from` (0-based), looking up to 60 lines back: a
// line with `name(` as a whole word that is not a statement (no trailing `;`). -1 if none.
int32_t declaration_line(const std::vector<std::string> &lines, int32_t from,
                         const std::string &name);

} // namespace hotlines
