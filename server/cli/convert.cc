// `hotlines convert IN OUT [--event NAME]... [--format pprof] [--no-aggregate]`: loads any
// profile and writes it in the format OUT's extension names (.pb.gz / .pprof: gzipped pprof,
// .pb: raw pprof protobuf, .speedscope.json: speedscope's JSON, one sampled profile per event
// and thread, .otlp: OpenTelemetry profiles, one profile per event; .otlp.gz gzipped). IN '-'
// reads stdin; OUT '-' writes stdout (needs --format).
// --event picks events by product event name (cpu, alloc), pprof sample type name, or JFR type
// name (one of several types feeding an event writes its samples alone).
// Threading: Runs on the CLI's main thread; loading uses both cores.
#include "formats/loader.h"
#include "formats/otlp_writer.h"
#include "formats/pprof_sample_types.h"
#include "formats/pprof_writer.h"
#include "formats/speedscope_writer.h"
#include "server/cli/commands.h"
#include "server/cli/input.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace hotlines {

namespace {

const FlagSpec kFlags[] = {
    {"event", 'e', true,
     "an event (cpu, alloc), pprof sample type or JFR type to write; repeatable (default: all)"},
    {"format", 0, true,
     "pprof (gzipped), pprof-raw, speedscope or otlp (default: from OUT's extension)"},
    {"no-aggregate", 0, false,
     "keep samples with the same stack, thread and labels apart (pprof merges them)"},
};

// Output format from OUT's name: "pprof", "pprof-raw", or an error message in *why.
std::string format_of(const std::string &out, std::string *why) {
  if (out.ends_with(".pb.gz") || out.ends_with(".pprof") || out.ends_with(".pprof.gz"))
    return "pprof";
  if (out.ends_with(".pb")) return "pprof-raw";
  if (out.ends_with(".speedscope.json")) return "speedscope";
  if (out.ends_with(".otlp")) return "otlp";
  if (out.ends_with(".otlp.gz")) return "otlp-gz";
  if (out.ends_with(".collapsed")) {
    *why =
        "convert writes .pb.gz, .pprof, .pb, .speedscope.json and .otlp; for collapsed stacks use "
        "`hotlines collapse IN -o " +
        out + "`";
    return {};
  }
  *why = "cannot tell the output format from '" + out +
         "' (supported: .pb.gz, .pprof, .pb, .speedscope.json, .otlp, .otlp.gz; or pass --format)";
  return {};
}

int run(const CliFlags &f) {
  const std::string &in = f.files[0], &out = f.files[1];
  std::string format = f.value("format");
  const bool aggregate = !f.has("no-aggregate");
  const std::vector<std::string> no_events;
  const std::vector<std::string> &event_names = f.has("event") ? f.extra().at("event") : no_events;
  if (format.empty()) {
    std::string why;
    if (out == "-")
      why = "writing to stdout needs --format pprof (or pprof-raw, speedscope, otlp)";
    else
      format = format_of(out, &why);
    if (format.empty()) {
      fprintf(stderr, "hotlines convert: %s\n", why.c_str());
      return kExitUsage;
    }
  } else if (format != "pprof" && format != "pprof-raw" && format != "speedscope" &&
             format != "otlp") {
    fprintf(stderr,
            "hotlines convert: unsupported output format '%s' (supported: pprof, pprof-raw, "
            "speedscope, otlp)\n",
            format.c_str());
    return kExitUsage;
  }

  LoadOptions load_options;
  load_options.limits = f.limits;
  LoadResult r = load_profile_file(in, load_options);
  if (!r.ok()) {
    fprintf(stderr, "hotlines: %s\n", r.describe().c_str());
    return kExitInput;
  }
  const Profile &p = *r.profile;
  PprofWriteOptions options;
  options.gzip = format == "pprof";
  options.aggregate = aggregate;
  for (const std::string &name : event_names) {
    PprofSampleType t;
    if (!find_pprof_sample_type(p, name, &t)) {
      std::string known;
      for (const Event &e : p.events)
        known += (known.empty() ? "" : ", ") + std::string(p.str(e.name));
      fprintf(stderr, "hotlines convert: no event or sample type '%s' in %s (events: %s)\n",
              name.c_str(), in.c_str(), known.empty() ? "none" : known.c_str());
      return kExitUsage;
    }
    // A JFR type that is one of its event's several sources writes its own samples alone.
    const EventId e = static_cast<EventId>(t.event);
    options.events.emplace_back(e, p.selected_source(e, name));
  }
  std::string error;
  std::string bytes;
  if (format == "speedscope") {
    SpeedscopeWriteOptions so;
    so.events = options.events;
    so.name = base_name(in);
    so.exporter = "hotlines " HOTLINES_VERSION;
    bytes = write_speedscope(p, so, &error);
  } else if (format == "otlp" || format == "otlp-gz") {
    OtlpWriteOptions oo;
    oo.events = options.events;
    oo.gzip = format == "otlp-gz";
    oo.version = HOTLINES_VERSION;
    bytes = write_otlp(p, oo, &error);
  } else {
    bytes = write_pprof(p, options, &error);
  }
  if (!error.empty()) {
    fprintf(stderr, "hotlines convert: %s\n", error.c_str());
    return kExitInput;
  }
  if (!write_output(out, bytes, &error)) {
    fprintf(stderr, "hotlines convert: %s\n", error.c_str());
    return kExitInput;
  }
  for (const LoadWarning &w : p.metadata.warnings)
    fprintf(stderr, "hotlines convert: warning: %s\n", w.message.c_str());
  return kExitOk;
}

} // namespace

const CliCommand kConvertCommand{
    "convert",
    "convert IN OUT [--event NAME]... [--format pprof|pprof-raw|speedscope|otlp] [--no-aggregate]",
    "write a profile as pprof (.pb.gz, .pprof, .pb), speedscope (.speedscope.json) or "
    "OpenTelemetry profiles (.otlp, .otlp.gz); '-' is stdin or stdout",
    kFlags,
    2,
    2,
    run,
    /*own_flags_only=*/true};

} // namespace hotlines
