// Text conversions for JFR strings: the model keeps UTF-8, JFR stores UTF-8, Latin-1 or
// UTF-16 code units. Invalid UTF-8 and unpaired surrogates become U+FFFD, as the JDK's own
// decoder does. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hotlines {

// True when the bytes are valid UTF-8 (ASCII included) and can be used as they are.
bool is_valid_utf8(std::string_view bytes);
// Appends bytes as UTF-8, replacing each invalid sequence with U+FFFD.
void append_sanitized_utf8(std::string *out, std::string_view bytes);
void append_latin1_as_utf8(std::string *out, std::string_view bytes);
// Appends one UTF-16 code unit sequence; `units` has `n` code units.
void append_utf16_as_utf8(std::string *out, const uint16_t *units, size_t n);
void append_code_point(std::string *out, uint32_t cp);

} // namespace hotlines
