// Native symbol names as people read them: Itanium C++ names (`_ZN4shop7Pricing8discountEdi`)
// demangled by the C++ runtime, Rust's legacy names (`_ZN3std2rt10lang_start17h…E`) without
// their hash and `$u7b$`-style escapes, Rust's v0 names (`_RNvCs…_4shop4main`, rustc -C
// symbol-mangling-version=v0) by libiberty, as `perf` prints them. perf script demangles by
// default; this is for text written with --no-demangle and for names from other tools.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace hotlines {

// The readable form of a mangled name as perf prints it: without parameters and return type
// (`shop::Pricing::discount`); the name itself when it is not mangled (or not demangleable).
// A `.cold` or `@plt` suffix after a mangled name is kept, Rust's `.llvm.NNN` dropped.
std::string demangle_native(std::string_view name);

} // namespace hotlines
