// JfrResolver: turns the constant-pool references of one chunk into model ids and text —
// threads, stack traces (with their frames, methods, classes, symbols and frame types) and
// strings in every encoding — decoding each pool entry on first use and memoizing it.
// References to missing entries resolve to null and are counted for one warning. One per chunk
// reader; not thread-safe.
#pragma once

#include "formats/jfr_chunk.h"
#include "formats/jfr_constant_pool.h"
#include "formats/jfr_decoder.h"
#include "formats/jfr_id_map.h"
#include "formats/jfr_metadata.h"
#include "formats/jfr_pool_pages.h"
#include "formats/jfr_raw_stacks.h"
#include "formats/profile_builder.h"

#include <deque>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class JfrResolver {
public:
  static constexpr uint32_t kNull = UINT32_MAX;

  JfrResolver(std::string_view data, const JfrChunkHeader &chunk, const JfrMetadata &md,
              const JfrDecoder &dec)
      : data_(data), chunk_(chunk), md_(md), dec_(dec) {}

  // The chunk's constant pools, loaded by `load` on first need (it returns nullptr when they
  // are corrupt; the caller keeps the error).
  void set_pools(std::function<const JfrConstantPools *()> load) { load_pools_ = std::move(load); }
  // The same chunk's bytes at another address (read again into another buffer): memos that
  // point into the bytes are dropped.
  void rebase(std::string_view data);
  // Where threads, functions, frames and stacks are created.
  void set_builder(ProfileBuilder *b) { b_ = b; }
  // Set when the stack-trace pools' pages may have been given back: an entry, or a frame read
  // ahead, is ensured before it is decoded (the caller holds a use()); when that fails the
  // caller reports pages->error().
  void set_pages(JfrPoolPages *pages) { pages_ = pages; }

  // The text of a string value or of a reference to a string-like pool entry (a Symbol, a
  // FrameType); "" for null and missing ones. Valid as long as the resolver and the data.
  std::string_view text(const JfrValue &v, size_t at, int depth = 0);

  // The thread of a java.lang.Thread reference, kNull when it is null or missing. `at` is
  // where the reference is, for the warning.
  ThreadId thread(int type, uint64_t key, size_t at) {
    return key == last_thread_key_ ? last_thread_ : resolve_thread(type, key, at);
  }
  // The thread of samples that have none.
  ThreadId unknown_thread();
  // The frames of the next slice's stack references, read ahead (null: none); `raw` must stay
  // valid while that slice's stacks are resolved.
  void begin_slice(const JfrRawStacks *raw);
  // The stack of a jdk.types.StackTrace reference, the slice's `ref`th, into *out (kNoStack
  // when null, empty or missing), once build_stacks() has run: stacks are built in batches, from
  // the frames read ahead or else decoded here. `out` must stay valid until then.
  void stack(int type, uint64_t key, size_t at, size_t ref, StackId *out);
  // Builds the stacks decoded since the last call and stores their ids.
  void build_stacks();

  int64_t missing_refs() const { return missing_refs_; }
  int64_t missing_ref_offset() const { return missing_ref_offset_; }
  const std::string &missing_ref_what() const { return missing_ref_what_; }

private:
  struct MethodInfo {
    std::string_view cls, name, descriptor;
    bool library = false;
    FunctionId java_fn = kNull, native_fn = kNull;
  };

  JfrInput input_at(size_t pos) const {
    JfrInput in(data_, chunk_.offset + JfrChunkHeader::kSize, chunk_.end(),
                chunk_.compressed_integers());
    in.seek(pos);
    return in;
  }
  const JfrConstantPools &pools();
  void missing(int cls, uint64_t key, size_t at);
  std::string_view keep(std::string s);
  const int8_t *slots_for(std::vector<std::vector<int8_t>> &cache, int cls,
                          std::initializer_list<std::string_view> names);
  const int8_t *frame_slots(int cls); // jfr_frame_slots, cached
  ThreadId resolve_thread(int type, uint64_t key, size_t at);
  // Appends the frames of the StackTrace entry at `off` to batch_frames_; false when corrupt.
  bool decode_stack(int cls, size_t off);
  // Appends the frames of the slice's read-ahead stack `span` to batch_frames_.
  void raw_stack(JfrRawStacks::Span span);
  // Ends a batch entry: the stack `key`, of the frames appended since the last entry, whose id
  // goes to *out.
  void add_to_batch(uint64_t key, StackId *out);
  std::string_view class_name(const JfrValue &v, size_t at);
  MethodInfo *method(const JfrValue &v, size_t at);
  FunctionId function(MethodInfo *m, bool java);
  FrameKind frame_kind(const JfrValue &v, size_t at);
  FrameId frame(const JfrValue *f, size_t at);

  std::string_view data_;
  JfrChunkHeader chunk_;
  const JfrMetadata &md_;
  const JfrDecoder &dec_;
  std::function<const JfrConstantPools *()> load_pools_;
  const JfrConstantPools *pools_ = nullptr;
  ProfileBuilder *b_ = nullptr;
  JfrPoolPages *pages_ = nullptr;

  // Memoized resolutions, by pool key.
  JfrIdMap<ThreadId> threads_;
  JfrIdMap<StackId> stacks_;
  JfrIdMap<uint32_t> methods_; // -> index into method_infos_
  std::vector<MethodInfo> method_infos_;
  JfrIdMap<FrameKind> frame_kinds_;
  JfrIdMap<std::string_view> class_names_;
  std::deque<std::string> arena_; // converted strings that string_views point into
  ThreadId unknown_thread_ = kNull;
  FunctionId unknown_function_ = kNull;
  // The last lookups: consecutive events mostly come from one thread's buffer.
  uint64_t last_thread_key_ = UINT64_MAX;
  ThreadId last_thread_ = kNull;
  // Stacks decoded and not built yet: their frames (leaf first, one after another) and ends,
  // pool keys, index by key, and where each id goes.
  std::vector<FrameId> batch_frames_;
  std::vector<uint32_t> batch_ends_;
  std::vector<uint64_t> batch_keys_;
  JfrIdMap<uint32_t> batch_index_;
  std::vector<std::pair<uint32_t, StackId *>> batch_outs_;
  std::vector<StackId> batch_ids_;
  // Frames decoded in this chunk, by their JfrFrameKey: a chunk's stacks share most of their
  // frames.
  static_assert(JfrFrameMap::kNone == kNull);
  JfrFrameMap frame_memo_;
  // The slice's frames read ahead, and their ids once looked up (kNull: not yet).
  const JfrRawStacks *raw_ = nullptr;
  std::vector<FrameId> raw_ids_;
  // Per-class slot maps for pool types decoded by field name.
  std::vector<std::vector<int8_t>> thread_slots_, method_slots_, class_slots_, frame_slots_;
  std::vector<int> frames_field_; // StackTrace class -> index of `frames`, -2 unknown

  int64_t missing_refs_ = 0, missing_ref_offset_ = -1;
  std::string missing_ref_what_;
};

} // namespace hotlines
