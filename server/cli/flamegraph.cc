// `hotlines flamegraph PROFILE -o out.html`: one self-contained HTML page (the web view's
// bundle and the data document inlined, no network) with the flame graph, icicle, sandwich
// and timeline of every event; `-o out.json` writes the data document alone. --event,
// --thread/--threads and --count pick what the page shows first; --link says how frames open
// their sources, found under --root folders (with --remap) by the workspace resolution of
// `hotlines resolve`; --baseline adds a diff against another profile.
// Threading: Runs on the CLI's main thread (the workspace walk included); loading and indexing
// use both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/engine/name_pattern.h"
#include "server/engine/view_weights.h"
#include "server/sources/profile_resolution.h"
#include "server/web/flame_document.h"
#include "server/web/web_view_bundle.h"
#include "server/web/web_view_page.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace hotlines {

namespace {

const FlagSpec kExtra[] = {
    {"output", 'o', true, "write to FILE: .html (the page) or .json (the data document); - stdout"},
    {"threads", 0, true, "threads shown first: comma-separated names, patterns or ids"},
    {"link", 0, true, "how frames open sources: vscode (default), file or none"},
    {"root", 0, true, "a source root searched for frames' files (repeatable; default: .)"},
    kRemapFlag,
    {"baseline", 0, true, "a baseline profile for the diff mode"},
    {"buckets", 0, true, "timeline buckets at most (default 200)"},
};

bool contains_script_end(std::string_view s) {
  for (size_t i = s.find("</"); i != std::string_view::npos; i = s.find("</", i + 2)) {
    std::string tag(s.substr(i + 2, 6));
    for (char &c : tag) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
    if (tag == "script") return true;
  }
  return false;
}

int run(const CliFlags &f) {
  for (auto [set, name] :
       {std::pair{!f.from.empty() || !f.to.empty(), "--from/--to (brush the "
                                                    "timeline instead)"},
        {!f.hide.empty() || !f.include.empty() || !f.exclude.empty(), "--hide/--include/--exclude"},
        {f.no_idle, "--no-idle"},
        {f.fqn, "--fqn"},
        {!f.method.empty(), "-m"},
        {f.assert_below.has_value(), "--assert-below"}})
    if (set) return cli_fail(kExitUsage, std::string("flamegraph does not take ") + name, f.json);
  std::string out = f.value("output");
  if (out.empty())
    return cli_fail(kExitUsage, "flamegraph needs -o OUT.html (or OUT.json)", f.json);
  const bool json_out = out.ends_with(".json");
  std::string link = f.has("link") ? f.value("link") : "vscode";
  if (link != "vscode" && link != "file" && link != "none")
    return cli_fail(kExitUsage, "--link wants vscode, file or none, got '" + link + "'", f.json);

  FlameDocumentOptions o;
  o.title = base_name(f.files[0]);
  o.event = f.event;
  o.measure = f.measure.value_or(Measure::value);
  o.link = link;
  std::shared_ptr<WorkspaceIndex> workspace;
  ResolverOptions ro;
  if (int rc = cli_workspace(f, &workspace, &ro)) return rc;
  if (f.has("buckets")) {
    int b = atoi(f.value("buckets").c_str());
    if (b < 1 || b > 100000)
      return cli_fail(kExitUsage, "--buckets wants 1..100000, got '" + f.value("buckets") + "'",
                      f.json);
    o.buckets = static_cast<uint32_t>(b);
  }
  std::vector<std::string> threads = f.threads;
  for (const auto &[name, values] : f.extra())
    if (name == "threads")
      for (const std::string &v : values)
        for (size_t start = 0; start <= v.size();) {
          size_t comma = v.find(',', start);
          if (comma == std::string::npos) comma = v.size();
          if (comma > start) threads.push_back(v.substr(start, comma - start));
          start = comma + 1;
        }
  for (const std::string &t : threads) {
    char *end = nullptr;
    long long id = strtoll(t.c_str(), &end, 10);
    if (!t.empty() && *end == 0 && id >= 0)
      o.threads.ids.push_back(id);
    else
      o.threads.patterns.push_back(t);
  }

  std::string bad;
  if (!check_patterns(o.threads.patterns, &bad))
    return cli_fail(kExitUsage, "--thread: " + bad, f.json);

  CliInput in;
  if (!in.load(f.files[0], f)) return kExitInput;
  if (std::string why = totals_unavailable(in.index().profile()); !why.empty())
    return cli_fail(kExitInput, f.files[0] + ": " + why, f.json);
  CliInput base;
  if (f.has("baseline")) {
    if (!base.load(f.value("baseline"), f)) return kExitInput;
    o.baseline = &base.index();
    o.baseline_title = base_name(f.value("baseline"));
  }
  std::shared_ptr<const ProfileResolution> sources;
  if (link != "none") {
    workspace->build();
    sources = ProfileResolution::build(in.index().shared_profile(), SourceResolver(workspace, ro));
    o.sources = sources.get();
  }
  Json doc;
  std::string error;
  if (!build_flame_document(in.index(), o, &doc, &error))
    return cli_fail(kExitUsage, f.files[0] + ": " + error, f.json);
  std::string json = doc.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string bytes;
  if (json_out) {
    bytes = json + "\n";
  } else {
    if (contains_script_end(web_view_script()))
      return cli_fail(kExitInput, "the embedded web view contains </script>: rebuild it", f.json);
    bytes = web_view_page(o.title, "hotlines-data", json, false);
  }
  if (!write_output(out, bytes, &error)) return cli_fail(kExitInput, error, f.json);
  if (out != "-")
    fprintf(stderr, "hotlines flamegraph: wrote %s (%zu bytes, data %zu bytes)\n", out.c_str(),
            bytes.size(), json.size());
  return kExitOk;
}

} // namespace

const CliCommand kFlamegraphCommand{
    "flamegraph",
    "flamegraph PROFILE -o OUT.html [--event E] [--threads T,...] [--link "
    "vscode|file|none] [--root DIR] [--baseline PROFILE]",
    "a self-contained HTML flame graph, sandwich and timeline",
    kExtra,
    1,
    1,
    run};

} // namespace hotlines
