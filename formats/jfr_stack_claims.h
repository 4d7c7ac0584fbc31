// JfrStackClaims: which slice of a chunk reads each of its stack traces ahead. The slices of a
// chunk are read ahead on several workers at once but resolved one after another in file order,
// and the resolver keeps every stack trace it resolved for the rest of the chunk: a slice need
// not read a stack trace that an earlier slice references, whichever worker has that slice.
// Each slice claims the keys it references; a key stays with the earliest slice that claimed it.
// Threading: claim() from any thread (one mutex, taken once per slice).
#pragma once

#include "formats/jfr_id_map.h"
#include "formats/jfr_raw_stacks.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace hotlines {

class JfrStackClaims {
public:
  // Claims the keys of `stacks` for slice `slice` (slices are numbered in file order) and
  // marks with type -1 those an earlier slice claimed: that slice's resolution gives them.
  void claim(uint32_t slice, std::vector<JfrStackRef> &stacks) {
    std::lock_guard<std::mutex> lock(mu_);
    for (JfrStackRef &r : stacks) {
      uint32_t &first = *first_.insert(r.key, slice).first;
      if (first < slice)
        r.type = -1;
      else
        first = slice;
    }
  }

private:
  std::mutex mu_;
  JfrIdMap<uint32_t> first_; // key -> the earliest slice that claimed it so far
};

} // namespace hotlines
