// LineKeys: how frames group into source lines and files. A frame has a line key when its
// function has a recorded file key and the frame has a line (>= 1) and is not a native,
// C++ or kernel frame. The recorded file key is what the profile itself says: for path
// formats (pprof, collapsed with paths) the recorded file name; for JVM frames (JFR records
// class names only) `<package path>/<Outer>.java` from the class name
// (`org/acme/shop/Pricing$Inner` -> `org/acme/shop/Pricing.java`), or `<package path>/Foo.kt`
// for a Kotlin file facade (`org/acme/FooKt$main$1` -> `org/acme/Foo.kt`); source resolution
// maps it to a real file later. Immutable; thread-safe.
#pragma once

#include "formats/profile.h"
#include "server/engine/key_map.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

// The recorded file key of a function, or "" when the profile names no file for it.
std::string recorded_file_key(const Profile &profile, const Function &f);

// The Kotlin file a top-level class's simple name says it compiles from: a file facade
// `FooKt` -> `Foo.kt`, a part of a multi-file facade `Bar__UtilKt` -> `Util.kt`; else "".
// (A facade renamed by `@file:JvmName("Bar")` says nothing; source resolution finds it.)
std::string kotlin_facade_file(std::string_view simple_class);

class LineKeys {
public:
  explicit LineKeys(const Profile &profile);
  LineKeys(const LineKeys &) = delete; // file_ids_ points into file_names_
  LineKeys &operator=(const LineKeys &) = delete;

  // frame -> (file, line) key
  const KeyMap &lines() const { return lines_; }
  // frame -> file key (frames of the file's functions, with or without a line)
  const KeyMap &files() const { return files_; }

  uint32_t file_of_line(uint32_t line_key) const { return line_file_[line_key]; }
  int32_t line_of(uint32_t line_key) const { return line_number_[line_key]; }
  size_t file_count() const { return file_names_.size(); }
  const std::string &file_name(uint32_t file) const { return file_names_[file]; }
  // File key by name; kNoKey when the profile has no frame in it.
  uint32_t find_file(std::string_view name) const;
  // The line keys of a file, by increasing line.
  const std::vector<uint32_t> &lines_of_file(uint32_t file) const { return file_lines_[file]; }
  // The recorded file key of a function (kNoKey when none).
  uint32_t file_of_function(FunctionId f) const { return function_file_[f]; }

private:
  KeyMap lines_, files_;
  std::vector<uint32_t> line_file_;
  std::vector<int32_t> line_number_;
  std::vector<std::string> file_names_;
  std::unordered_map<std::string_view, uint32_t> file_ids_;
  std::vector<std::vector<uint32_t>> file_lines_;
  std::vector<uint32_t> function_file_;
};

} // namespace hotlines
