// `hotlines timeline FILE`: samples over time in buckets with a bar, each bucket's hottest
// function and peaks; --compare EVENT puts a second event (cpu vs wall) beside it.
// Threading: Runs on the CLI's main thread; the timeline pass uses both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/text_table.h"
#include "server/engine/query_timeline.h"
#include "server/engine/units.h"

#include <algorithm>
#include <cstdio>

namespace hotlines {

namespace {
const FlagSpec kExtra[] = {
    {"buckets", 0, true, "number of buckets (default: about 20 of a round width)"},
    {"resolution", 0, true, "bucket width, e.g. 100ms, 1s"},
    {"compare", 0, true, "a second event counted on the same buckets (e.g. wall)"},
    {"no-top-method", 0, false, "do not name each bucket's hottest function"},
};

int run(const CliFlags &f) {
  TimelineOptions o;
  if (f.has("buckets")) {
    char *end = nullptr;
    std::string b = f.value("buckets");
    long n = strtol(b.c_str(), &end, 10);
    if (*end || n < 1 || n > 100000)
      return cli_fail(kExitUsage, "--buckets wants 1..100000, got '" + b + "'", f.json);
    o.buckets = static_cast<uint32_t>(n);
  }
  if (f.has("resolution") &&
      (!parse_duration_ns(f.value("resolution"), &o.resolution_ns) || o.resolution_ns <= 0))
    return cli_fail(kExitUsage,
                    "--resolution wants a duration like 100ms, got '" + f.value("resolution") + "'",
                    f.json);
  o.compare_event = f.value("compare");
  o.hot_functions = !f.has("no-top-method");
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v, CliReads{.other_events = !o.compare_event.empty(), .times = true}))
    return rc;
  View view;
  std::string err;
  make_view(f, in.index(), &view, &err);
  Timeline tl = timeline(in.index(), view, o);
  if (!tl.error.empty()) return cli_fail(kExitInput, in.path() + ": " + tl.error, f.json);
  const std::string unit(tl.unit);
  if (f.json) {
    Json j;
    j["command"] = "timeline";
    j["view"] = view_json(*v, in.path());
    j["from_ns"] = tl.from_ns;
    j["to_ns"] = tl.to_ns;
    j["bucket_ns"] = tl.bucket_ns;
    j["total"] = tl.total;
    j["median"] = tl.median;
    if (!o.compare_event.empty()) {
      j["compare_event"] = tl.compare_event;
      j["compare_unit"] = tl.compare_unit;
      j["compare_total"] = tl.compare_total;
    }
    Json buckets = Json::array();
    for (const TimelineBucket &b : tl.buckets) {
      Json jb = {
          {"start_ns", b.start_ns}, {"end_ns", b.end_ns}, {"weight", b.weight}, {"peak", b.peak}};
      if (o.hot_functions) {
        jb["hot_function"] = b.hot_key == kNoKey ? Json(nullptr) : Json(b.hot_name);
        jb["hot_self"] = b.hot_self;
      }
      if (!o.compare_event.empty()) jb["compare_weight"] = b.compare_weight;
      buckets.push_back(jb);
    }
    j["buckets"] = buckets;
    print_json(j);
    return kExitOk;
  }
  std::vector<std::pair<std::string, TextTable::Align>> cols = {
      {"from", TextTable::right},
      {"to", TextTable::right},
      {std::string(tl.event), TextTable::right}};
  if (!o.compare_event.empty()) {
    cols.push_back({std::string(tl.compare_event), TextTable::right});
    cols.push_back({"ratio", TextTable::right});
  }
  cols.push_back({"", TextTable::left});
  cols.push_back({"bar", TextTable::left});
  if (o.hot_functions) cols.push_back({"hottest (self)", TextTable::left});
  TextTable t(cols);
  int64_t max = 0;
  for (const TimelineBucket &b : tl.buckets) max = std::max(max, b.weight);
  for (const TimelineBucket &b : tl.buckets) {
    std::vector<std::string> row = {format_seconds(b.start_ns), format_seconds(b.end_ns),
                                    format_weight(b.weight, unit)};
    if (!o.compare_event.empty()) {
      row.push_back(format_weight(b.compare_weight, std::string(tl.compare_unit)));
      char buf[32];
      snprintf(buf, sizeof buf, "%.2f",
               b.compare_weight ? double(b.weight) / double(b.compare_weight) : 0.0);
      row.push_back(b.compare_weight ? buf : "-");
    }
    row.push_back(b.peak ? "peak" : "");
    row.push_back(std::string(max ? static_cast<size_t>(30 * b.weight / max) : 0, '#'));
    if (o.hot_functions)
      row.push_back(b.hot_key == kNoKey
                        ? ""
                        : std::string(b.hot_name) + " (" + format_weight(b.hot_self, unit) + ")");
    t.add(std::move(row));
  }
  std::string text = view_header(*v, in.path()) + "buckets of " + format_seconds(tl.bucket_ns) +
                     ", median " + format_weight(tl.median, unit) +
                     "; peaks are above twice the median\n" + t.render();
  fputs(text.c_str(), stdout);
  return kExitOk;
}

} // namespace

const CliCommand kTimelineCommand{
    "timeline",
    "timeline FILE [-e EVENT] [--buckets N | --resolution D] [--compare EVENT]",
    "samples over time: buckets, hottest function per bucket, peaks",
    kExtra,
    1,
    1,
    run};

} // namespace hotlines
