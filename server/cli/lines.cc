// `hotlines lines FILE`: per-line weights — of a method (-m), of one recorded source file
// (--file org/acme/shop/Pricing.java), the list of recorded files (--files), or the hottest
// lines of the whole view.
// Threading: Runs on the CLI's main thread; filtered views use both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/row_json.h"
#include "server/cli/weight_table.h"
#include "server/engine/file_keys.h"
#include "server/engine/query_lines.h"
#include "server/engine/units.h"

namespace hotlines {

namespace {

const FlagSpec kExtra[] = {
    {"file", 0, true,
     "the line table of this recorded file (JVM: package/Outer.java; else its path)"},
    {"files", 0, false, "list the recorded source files with their weight"},
};

Json line_json(const ViewWeights &v, int32_t line, int64_t self, int64_t total) {
  Json row = {{"line", line}};
  add_weight_json(row, v, self, total);
  return row;
}

// A line of a function (-m, or the hottest lines): also the function and its file.
Json line_json(const ViewWeights &v, const LineRow &r) {
  Json row = line_json(v, r.line, r.self, r.total);
  row["function"] = r.function;
  row["file"] = r.file;
  return row;
}

// The table of one file's or one method's lines: the line number, then the weights.
WeightTable line_table(const ViewWeights &v) {
  return WeightTable(v, WeightTable::self_first, {{"line", TextTable::right}}, {});
}

// What `lines` prints: the JSON object and the text, filled by one of the modes below.
struct Output {
  Json j;
  std::string text;
};

// --files: the recorded source files by weight.
void recorded_files_table(const ViewWeights &v, Output *out) {
  Json files = Json::array();
  WeightTable t(v, WeightTable::total_first, {}, {{"file", TextTable::left}});
  for (const RecordedFile &rf : recorded_files(v)) {
    Json row = {{"file", rf.file}};
    add_weight_json(row, v, rf.self, rf.total);
    files.push_back(row);
    t.add({}, rf.self, rf.total, {std::string(rf.file)});
  }
  out->j["files"] = files;
  out->text += t.render();
}

// --file NAME: one recorded file's line table. Returns 0 or the input exit code.
int file_table(const CliFlags &f, const ViewWeights &v, Output *out) {
  const std::string unit(v.unit());
  const int64_t total = v.total;
  Json &j = out->j;
  std::string &text = out->text;
  std::string file = f.value("file");
  std::vector<std::string> named = recorded_keys_named(v.lines(), file);
  FileLines fl = file_lines(v, named.size() == 1 ? named[0] : file);
  if (!fl.found) {
    std::string msg = named.size() > 1
                          ? "'" + file + "' names several recorded files; give more of the path"
                          : "no recorded file '" + file + "' in the profile";
    std::vector<std::string> names = named;
    for (const RecordedFile &rf : recorded_files(v)) {
      std::string_view name = rf.file;
      std::string_view base = name.substr(name.find_last_of('/') + 1);
      if (names.size() < 10 && named.size() <= 1 &&
          (name.find(file) != std::string_view::npos || file.find(base) != std::string::npos ||
           names.size() < 5))
        names.emplace_back(name);
    }
    if (!names.empty()) msg += "; recorded files include:";
    for (const std::string &n : names) msg += "\n  " + n;
    Json extra;
    extra["files"] = names;
    return cli_fail(kExitInput, msg, f.json, extra);
  }
  j["file"] = fl.file;
  j["self"] = fl.self;
  j["total"] = fl.total;
  Json lines = Json::array();
  WeightTable t = line_table(v);
  for (const FileLine &l : fl.lines) {
    lines.push_back(line_json(v, l.line, l.self, l.total));
    t.add({std::to_string(l.line)}, l.self, l.total);
  }
  j["lines"] = lines;
  text += std::string(fl.file) + "  self " + format_weight(fl.self, unit) + " (" +
          format_pct(percent(fl.self, total)) + ")  total " + format_weight(fl.total, unit) + " (" +
          format_pct(percent(fl.total, total)) + ")\n" + t.render();
  return kExitOk;
}

// -m PATTERN: the lines of the matching methods, grouped by method; without -m, the hottest
// lines of the view. Returns 0 or the input exit code.
int method_lines(const CliFlags &f, const ViewWeights &v, Output *out) {
  Json &j = out->j;
  std::string &text = out->text;
  HotOptions o;
  o.method = f.method;
  o.min_pct = f.min_pct.value_or(0);
  if (f.method.empty()) o.top = f.top.value_or(20);
  HotLines h = hot_lines(v, o, !f.method.empty());
  if (!f.method.empty() && h.matched == 0 && !any_function_matches(v, f.method))
    return cli_no_match(v, f.method, f.json);
  Json rows = Json::array();
  if (f.method.empty()) {
    WeightTable t(v, WeightTable::self_first, {{"line", TextTable::left}},
                  {{"function", TextTable::left}});
    for (const LineRow &r : h.rows) {
      rows.push_back(line_json(v, r));
      t.add({std::string(r.file) + ":" + std::to_string(r.line)}, r.self, r.total,
            {std::string(r.function)});
    }
    text += t.render();
  } else {
    // Grouped by function: a header per function, then its lines in order.
    size_t i = 0;
    while (i < h.rows.size()) {
      size_t end = i;
      while (end < h.rows.size() && h.rows[end].function_key == h.rows[i].function_key &&
             h.rows[end].file == h.rows[i].file)
        end++;
      text += "\n" + std::string(h.rows[i].function) + "  (" + std::string(h.rows[i].file) + ")\n";
      WeightTable t = line_table(v);
      for (size_t k = i; k < end; k++) {
        const LineRow &r = h.rows[k];
        rows.push_back(line_json(v, r));
        t.add({std::to_string(r.line)}, r.self, r.total);
      }
      text += t.render();
      i = end;
    }
    if (h.rows.empty()) text += "(the matching functions have no line numbers in this profile)\n";
  }
  j["lines"] = rows;
  return kExitOk;
}

int run(const CliFlags &f) {
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v)) return rc;
  Output out;
  out.j["command"] = "lines";
  out.j["view"] = view_json(*v, in.path());
  out.text = view_header(*v, in.path());
  if (f.has("files"))
    recorded_files_table(*v, &out);
  else if (int rc = f.has("file") ? file_table(f, *v, &out) : method_lines(f, *v, &out))
    return rc;
  print_output(f.json, out.j, out.text);
  return kExitOk;
}

} // namespace

const CliCommand kLinesCommand{
    "lines",
    "lines FILE [-m PATTERN | --file SOURCE | --files] [-e EVENT] [-t THREAD]",
    "per-line self and total of a method, of a source file, or the hottest lines",
    kExtra,
    1,
    1,
    run};

} // namespace hotlines
