// Timeline: the view's samples in time buckets over the window [from, to) (default: the whole
// profile), each with its weight, its hottest function by self weight, and a peak flag
// (weight above twice the median of the non-empty buckets); optionally a second event on the
// same buckets (cpu vs wall). Needs sample timestamps (JFR). One parallel pass per event.
// Pure function; thread-safe.
#pragma once

#include "server/engine/profile_index.h"
#include "server/engine/view.h"

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

struct TimelineOptions {
  uint32_t buckets = 0;      // bucket count; 0: about 20 buckets of a round width
  int64_t resolution_ns = 0; // fixed bucket width (wins over buckets)
  std::string compare_event; // a second event counted on the same buckets
  bool hot_functions = true; // find each bucket's hottest function
};

struct TimelineBucket {
  int64_t start_ns = 0, end_ns = 0; // [start, end) since the profile start
  int64_t weight = 0;
  int64_t compare_weight = 0; // the compare event's weight
  uint32_t hot_key = kNoKey;  // hottest function (self) of the bucket
  std::string_view hot_name;
  int64_t hot_self = 0;
  bool peak = false;
};

struct Timeline {
  std::string error; // no timestamps, unknown event, "cancelled"
  std::string_view event, compare_event, unit, compare_unit;
  int64_t from_ns = 0, to_ns = 0, bucket_ns = 0;
  int64_t total = 0, compare_total = 0;
  int64_t median = 0; // median weight of the non-empty buckets
  std::vector<TimelineBucket> buckets;
};

Timeline timeline(const ProfileIndex &index, const View &view, const TimelineOptions &options,
                  const std::atomic<bool> *cancel = nullptr, unsigned threads = 0);

} // namespace hotlines
