// SourceScan: what source resolution needs to know from inside a source file, found by a
// light line scanner (no parser): the `package` line and the lines where functions/methods
// and classes/objects/types are declared, for Java, Kotlin, Scala, Groovy and Go. Used to
// confirm a file by its package when the path does not say it, and to give a frame without
// a line number the line of its method's declaration; also reads a Kotlin file's
// `@file:JvmName`. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

struct SourceScan {
  bool go = false;     // scanned as Go (symbols are `pkg.(*T).M`), else as a JVM language
  std::string package; // `org.acme.shop` (JVM languages), `shop` (Go); "" when none
  // Name -> 1-based lines of its declarations, increasing.
  std::unordered_map<std::string, std::vector<int32_t>> functions;
  std::unordered_map<std::string, std::vector<int32_t>> types;
};

// Scans source text; `extension` (without the dot: java, kt, scala, groovy, go) picks the
// declaration patterns. Other extensions get the package line only.
SourceScan scan_source(std::string_view text, std::string_view extension);

// Scans a text given as lines (TextDocument::lines()).
SourceScan scan_source(std::span<const std::string> lines, std::string_view extension);

// Reads and scans a file (an empty scan when it cannot be read).
SourceScan scan_source_file(const std::string &path);

// The JVM class a Kotlin file's top-level declarations compile into when the file renames
// its facade with `@file:JvmName("Bar")` (also `@file:kotlin.jvm.JvmName(name = "Bar")` and
// `@file:[JvmName("Bar") JvmMultifileClass]`, among the file annotations before the
// `package` line): `org/acme/Bar` (internal form, from the package line); "" when it does not.
std::string kotlin_jvm_name(std::string_view text);

// The same for a file, reading its head only (kKotlinHeadBytes); "" when it cannot be read.
inline constexpr size_t kKotlinHeadBytes = 16 << 10;
std::string kotlin_jvm_name_of_file(const std::string &path);

// A path's extension without the dot (`src/Shop.java` -> `java`), "" when none.
std::string_view extension_of(std::string_view path);

// The source name of a JVM method: `lambda$main$0`, Kotlin's `main$lambda$0` and `main$1`
// -> `main`, `foo$default` -> `foo`, `access$foo` -> `foo`; others unchanged.
std::string_view jvm_source_method(std::string_view method);

// How far above a function's first profiled line its declaration may be.
inline constexpr int32_t kDeclarationReach = 60;

// The declaration of the function labelled `label` (as profiles name it: a JVM
// `pkg.Class.method`, with `<init>` for constructors, or a Go `pkg.(*T).M`) nearest at or
// above 1-based `line`, and at most kDeclarationReach lines above it: where code lenses go and
// hovers describe the whole method. 0 when none.
int32_t declaration_above(const SourceScan &scan, std::string_view label, int32_t line);

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
