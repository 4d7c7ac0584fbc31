// Indexing a chunk's constant pools by walking its checkpoint chain (see jfr_constant_pool.h).
// Checkpoint event: size, type 1, start, duration, delta to the previous checkpoint (0 ends
// the chain), a flags byte, the pool count, then per pool: class id, entry count, entries
// of (key, value).
#include "formats/jfr_constant_pool.h"

#include "formats/jfr_unread_bytes.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace hotlines {

namespace {

// The most bytes of a checkpoint event's header, or of a pool's: five or six integers.
constexpr size_t kHeaderBytes = 64;

} // namespace

bool JfrConstantPools::load(std::string_view data, const JfrChunkHeader &chunk,
                            const JfrDecoder &decoder, std::string *error, int64_t *error_offset,
                            JfrUnreadBytes *unread, const std::vector<char> &give_back) {
  // However the walk ends (an exception too), nothing is read into the bytes after it.
  struct StopReadingAhead {
    JfrUnreadBytes *unread;
    ~StopReadingAhead() {
      if (unread) unread->stop_reading_ahead();
    }
  } stop{unread};
  pools_.assign(decoder.metadata().classes.size(), {});
  ranges_.assign(decoder.metadata().classes.size(), {});
  entries_ = 0;
  checkpoints_ = 0;
  if (chunk.constant_pool_offset == 0) return true;
  const bool compressed = chunk.compressed_integers();
  const size_t body = chunk.offset + JfrChunkHeader::kSize;
  auto bad = [&](std::string msg, int64_t at) {
    *error = std::move(msg);
    *error_offset = at;
    return false;
  };
  // The bytes [begin, end) of the chunk in memory, before they are read.
  std::string read_error;
  auto ensure = [&](size_t begin, size_t end) {
    return !unread || unread->ensure(begin, std::min(end, chunk.end()), &read_error, false);
  };

  // The chain, newest first.
  std::vector<std::pair<size_t, size_t>> chain; // (offset, size)
  std::unordered_set<size_t> seen;
  size_t pos = chunk.offset + static_cast<size_t>(chunk.constant_pool_offset);
  for (;;) {
    if (!seen.insert(pos).second)
      return bad("JFR checkpoint chain loops", static_cast<int64_t>(pos));
    if (!ensure(pos, pos + kHeaderBytes)) return bad(read_error, static_cast<int64_t>(pos));
    JfrInput in(data, body, chunk.end(), compressed);
    in.seek(pos);
    int64_t size = in.i32();
    int64_t type = in.i64();
    in.i64(); // start
    in.i64(); // duration
    int64_t delta = in.i64();
    if (!in.ok() || size <= 0 || static_cast<uint64_t>(size) > chunk.end() - pos)
      return bad("JFR checkpoint event has a bad size", static_cast<int64_t>(pos));
    if (type != 1)
      return bad("JFR checkpoint expected (type 1), found type " + std::to_string(type),
                 static_cast<int64_t>(pos));
    chain.emplace_back(pos, static_cast<size_t>(size));
    if (delta == 0) break;
    // Wrapping arithmetic, then a range check: corrupt deltas cannot leave the chunk.
    size_t next = pos + static_cast<size_t>(delta);
    if (next < body || next >= chunk.end())
      return bad("JFR checkpoint delta " + std::to_string(delta) + " leaves the chunk",
                 static_cast<int64_t>(pos));
    pos = next;
  }

  // Entries in file order so that the first definition of a key wins.
  std::sort(chain.begin(), chain.end());
  const JfrMetadata &md = decoder.metadata();
  for (const auto &[at, size] : chain) {
    if (!ensure(at, at + kHeaderBytes)) return bad(read_error, static_cast<int64_t>(at));
    JfrInput in(data, body, chunk.end(), compressed);
    JfrInput ev = in.sub(at, size);
    ev.i32();
    ev.i64();
    ev.i64();
    ev.i64();
    ev.i64();
    ev.u8(); // checkpoint kind: flush, chunk header, statics, thread
    uint32_t pools = ev.count(2);
    for (uint32_t p = 0; p < pools && ev.ok(); p++) {
      size_t type_at = ev.pos();
      if (!ensure(type_at, type_at + kHeaderBytes))
        return bad(read_error, static_cast<int64_t>(type_at));
      int64_t type_id = ev.i64();
      uint32_t n = ev.count(1);
      if (!ev.ok()) break;
      int cls = md.find(type_id);
      if (cls < 0)
        return bad("JFR constant pool of undeclared type id " + std::to_string(type_id),
                   static_cast<int64_t>(type_at));
      JfrIdMap<size_t> &pool = pools_[cls];
      // Room for the entries at once (growing to millions by doubling inserts each entry twice
      // and faults in every smaller slot array), but no more than the bytes left could hold at
      // 16 bytes an entry: for a corrupt count, slots of at most about 3 times those bytes.
      pool.reserve(pool.size() + std::min<size_t>(n, ev.remaining() / 16));
      const size_t first = ev.pos();
      const bool giving_back = unread && static_cast<size_t>(cls) < give_back.size() &&
                               give_back[static_cast<size_t>(cls)];
      // Entries are read within the bytes in memory; one that runs past them is read again
      // once the next piece is.
      size_t limit = unread ? unread->readable_end(first, ev.end()) : ev.end();
      for (uint32_t e = 0; e < n && ev.ok(); e++) {
        const size_t entry = ev.pos();
        for (;;) {
          if (entry >= limit && limit < ev.end()) {
            if (!unread->ensure(entry, entry + 1, &read_error))
              return bad(read_error, static_cast<int64_t>(entry));
            limit = unread->readable_end(entry, ev.end());
          }
          JfrInput in = ev.sub(entry, limit - entry);
          const uint64_t key = static_cast<uint64_t>(in.i64());
          const size_t value = in.pos();
          decoder.skip_pool_value(cls, in);
          if (in.ok()) {
            pool.insert(key, value);
            ev.seek(in.pos());
            break;
          }
          if (limit == ev.end()) {
            ev.fail_at(in.fail_offset());
            break;
          }
          // The entry runs past the bytes in memory: the next piece, and the entry again.
          if (!unread->ensure(limit, limit + 1, &read_error))
            return bad(read_error, static_cast<int64_t>(limit));
          limit = unread->readable_end(entry, ev.end());
          if (giving_back) unread->give_back(first, entry); // the pool's pages behind
        }
        entries_++;
      }
      if (giving_back) unread->give_back(first, ev.pos());
      if (!ev.ok())
        return bad("corrupt JFR constant pool " + md.classes[cls].name, ev.fail_offset());
      if (n > 0) ranges_[cls].push_back(Range{first, ev.pos()});
    }
    if (!ev.ok()) return bad("corrupt JFR checkpoint event", ev.fail_offset());
    checkpoints_++;
  }
  return true;
}

std::vector<std::pair<size_t, uint64_t>> JfrConstantPools::in_file_order(int cls) const {
  std::vector<std::pair<size_t, uint64_t>> out;
  if (const JfrIdMap<size_t> *p = pool(cls)) {
    out.reserve(p->size());
    p->for_each([&](uint64_t key, size_t offset) { out.emplace_back(offset, key); });
  }
  // By offset (keys are unique): a radix sort in two passes of 16 bits when the offsets fit
  // in 32 (a chunk under 4 GiB), several times std::sort's speed on millions of entries.
  size_t most = 0;
  for (const auto &e : out) most = std::max(most, e.first);
  if (most >> 32) {
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<std::pair<size_t, uint64_t>> to(out.size());
  for (const unsigned shift : {0u, 16u}) {
    std::vector<size_t> at(size_t{1} << 16, 0);
    for (const auto &e : out) at[(e.first >> shift) & 0xffff]++;
    size_t sum = 0;
    for (size_t &n : at) sum += std::exchange(n, sum);
    for (const auto &e : out) to[at[(e.first >> shift) & 0xffff]++] = e;
    out.swap(to);
  }
  return out;
}

} // namespace hotlines
