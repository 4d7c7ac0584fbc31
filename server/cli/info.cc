// `hotlines info FILE`: what a profile holds — format, producer, time span, events with
// totals and units, thread groups and the hottest functions of the default event, warnings.
// Threading: Runs on the CLI's main thread; filtered views use both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/row_json.h"
#include "server/cli/text_table.h"
#include "server/engine/query_events.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_threads.h"
#include "server/engine/units.h"

#include <ctime>

namespace hotlines {

namespace {

std::string utc(int64_t epoch_ns) {
  if (epoch_ns <= 0) return "";
  time_t secs = static_cast<time_t>(epoch_ns / 1000000000);
  struct tm tm {};
  gmtime_r(&secs, &tm);
  char buf[64];
  strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

int run(const CliFlags &f) {
  CliInput in;
  if (!in.load(f.files[0], f)) return kExitInput;
  const ProfileIndex &idx = in.index();
  const Profile &p = idx.profile();
  const Metadata &m = p.metadata;
  std::vector<EventRow> events = list_events(p);
  std::shared_ptr<const ViewWeights> v;
  if (!events.empty())
    if (int rc = in.view(f, &v)) return rc;
  const size_t top = f.top.value_or(10);

  Json j;
  j["command"] = "info";
  j["file"] = in.path();
  j["format"] = m.format;
  j["producer"] = m.producer;
  j["start_time_ns"] = m.start_time_ns;
  j["duration_ns"] = m.duration_ns;
  j["chunks"] = m.chunks;
  j["samples"] = p.sample_count();
  j["threads"] = p.threads.size();
  j["functions"] = p.functions.size();
  j["frames"] = p.frames.size();
  j["stacks"] = p.stack_count();
  j["self_only"] = m.self_only;
  Json jev = Json::array();
  for (const EventRow &e : events) jev.push_back(event_json(e));
  j["events"] = jev;

  std::string text;
  TextTable head({{"", TextTable::left}, {"", TextTable::left}});
  head.add({"file", in.path()});
  head.add({"format", m.format + (m.producer.empty() ? "" : " (" + m.producer + ")")});
  if (m.start_time_ns > 0) head.add({"start", utc(m.start_time_ns)});
  if (m.duration_ns > 0) head.add({"duration", format_weight(m.duration_ns, "nanoseconds")});
  if (m.chunks > 0) head.add({"chunks", std::to_string(m.chunks)});
  if (m.self_only) head.add({"stacks", "leaf frames only: " + totals_unavailable(p)});
  head.add({"samples", std::to_string(p.sample_count())});
  head.add({"threads", std::to_string(p.threads.size())});
  head.add({"functions", std::to_string(p.functions.size()) + " (" +
                             std::to_string(p.frames.size()) + " frames, " +
                             std::to_string(p.stack_count()) + " stacks)"});
  text += head.render(false) + "\nevents\n";
  TextTable et({{"event", TextTable::left},
                {"count", TextTable::right},
                {"value", TextTable::right},
                {"time", TextTable::left},
                {"from", TextTable::left}});
  for (const EventRow &e : events)
    et.add({"  " + std::string(e.name) + (e.is_default ? " *" : ""), std::to_string(e.count),
            format_weight(e.value, e.unit) + (e.unit == "samples" ? " samples" : ""),
            e.has_time ? "timestamps" : "", e.sources_text()});
  text += et.render(false);
  // Samples without a stack count in every total and show as the frame `[no stack]`.
  for (const EventRow &e : events)
    if (e.stackless)
      text +=
          "  " + std::string(e.name) + ": " + std::to_string(e.stackless) + " of " +
          std::to_string(e.samples) + " samples have no stack (" +
          format_pct(percent(static_cast<int64_t>(e.stackless), static_cast<int64_t>(e.samples))) +
          "), shown as [no stack]\n";
  // How samples were chosen where their JFR type does not say, and the thread states.
  for (const EventRow &e : events)
    if (!e.rule.empty()) text += "  " + std::string(e.name) + ": " + std::string(e.rule) + "\n";
  for (const EventRow &e : events)
    if (!e.states.empty())
      text += "  " + std::string(e.name) + " thread states: " + e.states_text() + "\n";

  if (v) {
    const std::string unit(v->unit());
    View view;
    std::string err;
    make_view(f, idx, &view, &err);
    ThreadsResult tr = thread_weights(idx, view, true);
    Json jt = Json::array();
    TextTable tt({{"", TextTable::left}, {"", TextTable::right}, {"", TextTable::right}});
    for (size_t i = 0; i < tr.rows.size() && i < top; i++) {
      const ThreadRow &r = tr.rows[i];
      jt.push_back(thread_group_json(r, tr.view_total));
      tt.add({"  " + r.name +
                  (r.members.size() > 1 ? " (" + std::to_string(r.members.size()) + ")" : ""),
              format_weight(r.weight, unit), format_pct(percent(r.weight, tr.view_total))});
    }
    j["view"] = view_json(*v, in.path());
    j["thread_groups"] = jt;
    HotOptions o;
    o.top = top;
    HotFunctions h = hot_functions(*v, o);
    Json jh = Json::array();
    TextTable ht({{"", TextTable::right}, {"", TextTable::right}, {"", TextTable::left}});
    for (const FunctionRow &r : h.rows) {
      Json row = {{"name", r.name}};
      add_weight_json(row, *v, r.self, r.total);
      jh.push_back(row);
      ht.add({"  " + format_weight(r.self, unit), format_pct(percent(r.self, v->total)),
              std::string(r.name)});
    }
    j["hot"] = jh;
    text += "\nthreads (" + std::string(v->event_name()) + ")\n" + tt.render(false);
    text += "\nhot functions (" + std::string(v->event_name()) + ", self)\n" + ht.render(false);
  }
  Json jw = Json::array();
  if (!m.warnings.empty()) text += "\nwarnings\n";
  for (const LoadWarning &w : m.warnings) {
    jw.push_back(w.message);
    text += "  " + w.message + "\n";
  }
  j["warnings"] = jw;
  print_output(f.json, j, text);
  return kExitOk;
}

} // namespace

const CliCommand kInfoCommand{
    "info",
    "info FILE [-e EVENT] [--top N]",
    "load a profile and print its format, events, threads, hot functions and warnings",
    {},
    1,
    1,
    run};

} // namespace hotlines
