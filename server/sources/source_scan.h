// SourceScan: what source resolution needs to know from inside a source file, found by a
// light line scanner (no parser): the `package` line and the lines where functions/methods
// and classes/objects/types are declared, for Java, Kotlin, Scala, Groovy and Go. Used to
// confirm a file by its package when the path does not say it, and to give a frame without
// a line number the line of its method's declaration. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

struct SourceScan {
  std::string package; // `org.acme.shop` (JVM languages), `shop` (Go); "" when none
  // Name -> 1-based lines of its declarations, increasing.
  std::unordered_map<std::string, std::vector<int32_t>> functions;
  std::unordered_map<std::string, std::vector<int32_t>> types;
};

// Scans source text; `extension` (without the dot: java, kt, scala, groovy, go) picks the
// declaration patterns. Other extensions get the package line only.
SourceScan scan_source(std::string_view text, std::string_view extension);

// Reads and scans a file (an empty scan when it cannot be read).
SourceScan scan_source_file(const std::string &path);

// The declaration line of a JVM method in a scanned file: `outer` is the top-level class's
// simple name, `nested` the simple names of nested classes below it (`Pricing$Inner$1` ->
// {"Inner", "1"}), `method` the JVM method name. `<init>` is the (innermost named) class's
// constructor or class line, `<clinit>` its class line, `lambda$main$0` and Kotlin's
// `main$lambda$0`/`main$1` go to `main`, `foo$default` to `foo`. Returns 0 when not found.
int32_t jvm_method_line(const SourceScan &scan, std::string_view outer,
                        std::span<const std::string_view> nested, std::string_view method);

// The declaration line of a Go function from its symbol (`pkg.Func`, `pkg.(*T).Method`,
// `pkg.Func.func1` -> Func). Returns 0 when not found.
int32_t go_function_line(const SourceScan &scan, std::string_view symbol);

} // namespace hotlines
