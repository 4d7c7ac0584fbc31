// JfrConstantPools: where every constant-pool entry of one chunk is. The chunk header points
// at the last checkpoint event; each checkpoint points back at the one before (JDK streaming
// files have many, async-profiler files one). Entries are indexed by (class, key) -> offset
// and decoded lazily by the chunk reader. The first definition of a key in file order wins.
#pragma once

#include "formats/jfr_chunk.h"
#include "formats/jfr_decoder.h"
#include "formats/jfr_id_map.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hotlines {

class JfrUnreadBytes;

class JfrConstantPools {
public:
  // Walks the checkpoint chain of the chunk and indexes every entry. On corrupt data returns
  // false with *error and *error_offset. With `unread`, bytes of `data` not read yet are read
  // as the walk reaches them, and the pages of the pools of the classes marked in `give_back`
  // (by class index) are given back behind it; `unread` reads none ahead after it.
  bool load(std::string_view data, const JfrChunkHeader &chunk, const JfrDecoder &decoder,
            std::string *error, int64_t *error_offset, JfrUnreadBytes *unread = nullptr,
            const std::vector<char> &give_back = {});

  // Offset of the value of entry `key` in the pool of class `cls`, or 0 when there is none.
  size_t find(int cls, uint64_t key) const {
    const JfrIdMap<size_t> *p = pool(cls);
    const size_t *at = p ? p->find(key) : nullptr;
    return at ? *at : 0;
  }
  // Asks the CPU to load where find(cls, key) looks, for a find a little later.
  void prefetch(int cls, uint64_t key) const {
    if (const JfrIdMap<size_t> *p = pool(cls)) p->prefetch(key);
  }
  // Every entry of class `cls` as (offset, key), in file order.
  std::vector<std::pair<size_t, uint64_t>> in_file_order(int cls) const;
  size_t entries() const { return entries_; }
  size_t checkpoints() const { return checkpoints_; }
  // Where the entries of class `cls` are, as [begin, end) byte ranges in file order: one for
  // each checkpoint that has a pool of that class.
  struct Range {
    size_t begin = 0, end = 0;
  };
  const std::vector<Range> &ranges(int cls) const {
    static const std::vector<Range> none;
    return cls >= 0 && static_cast<size_t>(cls) < ranges_.size() ? ranges_[cls] : none;
  }

private:
  // The pool of class `cls`, or nullptr when there is no such class.
  const JfrIdMap<size_t> *pool(int cls) const {
    return cls >= 0 && static_cast<size_t>(cls) < pools_.size() ? &pools_[cls] : nullptr;
  }

  std::vector<JfrIdMap<size_t>> pools_;    // by class index
  std::vector<std::vector<Range>> ranges_; // by class index
  size_t entries_ = 0;
  size_t checkpoints_ = 0;
};

} // namespace hotlines
