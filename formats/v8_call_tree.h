// The call tree of V8's JSON profiles, shared by the .cpuprofile and .heapprofile readers:
// nodes read from a flat `nodes` array (children by id; .cpuprofile) or a nested `head` tree
// (.heapprofile, old DevTools .cpuprofile) into one list, parents before children, without
// recursion; every field type-checked, errors naming the JSON path. V8Frames turns a node's
// callFrame into profile functions and frames, mapped through the scripts' source maps.
// Not thread-safe: one per load.
#pragma once

#include "formats/json_doc.h"
#include "formats/load_result.h"
#include "formats/profile_builder.h"
#include "formats/script_source_maps.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

enum class V8ProfileKind { none, cpu, heap };

// By content: a JSON object whose first 64 KiB has a `"callFrame"`; heap when it also has
// `"selfSize"`.
V8ProfileKind v8_profile_kind(std::string_view data);

struct V8Node {
  static constexpr uint32_t kRoot = UINT32_MAX;
  int64_t id = 0;
  uint32_t parent = kRoot; // index into the list
  uint32_t json = 0;       // the node's value in the document
  uint32_t index = 0;      // in `nodes`, or (nested) in its parent's `children`
  bool nested = false;
  std::string function, url;
  int32_t line = -1, column = -1; // callFrame lineNumber, columnNumber: 0-based, -1 unknown
};

// A JSON path's error: "nodes[3].callFrame.url: expected a string".
struct V8Error {
  std::string message;
  int64_t offset = -1;
  bool failed() const { return !message.empty(); }
};

// The nodes of a flat `nodes` array; parents come before children in *out (a node listed
// before its parent is moved after it), cycles and shared children are errors.
V8Error read_flat_nodes(const JsonDoc &doc, uint32_t nodes, std::vector<V8Node> *out);
// The nodes of a nested tree from `head` (children inline), depth-first, parents first.
V8Error read_nested_nodes(const JsonDoc &doc, uint32_t head, std::vector<V8Node> *out);

// A node's JSON path, for errors: `nodes[12]`, `head.children[0].children[3]`. A nested
// node's path costs its depth: readers name a node kNodeMark and call at_node() on failure.
std::string v8_node_path(const std::vector<V8Node> &nodes, uint32_t i);
inline constexpr std::string_view kNodeMark = "\x01";
// `e` with a leading kNodeMark replaced by node i's path.
V8Error at_node(V8Error e, const std::vector<V8Node> &nodes, uint32_t i);

// Type-checked fields, naming `path.key` when wrong: absent optional fields leave *out.
V8Error json_int(const JsonDoc &doc, uint32_t object, std::string_view key, const std::string &path,
                 bool required, int64_t *out);
V8Error json_array(const JsonDoc &doc, uint32_t object, std::string_view key,
                   const std::string &path, bool required, uint32_t *out);

class V8Frames;

// How one V8 profile file adds itself to a builder (add_cpuprofile, add_heapprofile).
using V8Add = std::function<V8Error(ProfileBuilder &, V8Frames &, const JsonDoc &, ThreadId)>;

// A single-file reader: parses `data`, adds it on thread `main`, names the format and producer;
// errors start with the format's name.
LoadResult read_v8_file(std::string_view data, const LoadOptions &options,
                        const std::string &format, const std::string &producer, const V8Add &add);

class V8Frames {
public:
  V8Frames(ProfileBuilder &b, bool source_maps) : b_(b), source_maps_(source_maps) {}
  // The frame of a node at its function's start (a caller's frame: V8 does not record the
  // calling line), or at generated line `line1` (1-based, from positionTicks).
  FrameId frame(const V8Node &n, int32_t line1 = 0);
  // Warnings of the source maps, once each, into the builder.
  void flush_warnings();
  // The scripts' maps, to give some of them (ScriptSourceMaps::add_known).
  ScriptSourceMaps &maps() { return maps_; }

private:
  struct Place {
    std::string file; // original source, or the script's path or URL
    int32_t line = 0; // 1-based, 0 unknown
    bool mapped = false;
  };
  // Where a generated position lands (`column0` nullopt: anywhere on the line); `start`: a
  // function's first position, which when unmapped takes the next mapped one.
  Place place(const V8Node &n, int32_t line0, std::optional<int32_t> column0, bool start);
  FunctionId function(const V8Node &n);

  ProfileBuilder &b_;
  bool source_maps_;
  ScriptSourceMaps maps_;
  std::unordered_map<std::string, FunctionId> functions_; // by url, line, column, name
  size_t warned_ = 0;
};

} // namespace hotlines
