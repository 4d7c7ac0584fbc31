// ServerConfig parsing (see server_config.h).
#include "server/lsp/server_config.h"

#include "server/engine/name_pattern.h"

namespace hotlines {

namespace {

using nlohmann::json;

class Applier {
public:
  Applier(ServerConfig *c, ConfigChange *ch) : c_(c), ch_(ch) {}

  void object(const json &obj, const std::string &prefix) {
    for (auto it = obj.begin(); it != obj.end(); ++it) key(prefix + it.key(), it.value());
  }

private:
  void key(const std::string &k, const json &v) {
    if (k == "logToClient" || k == "clientCommands") return; // read by the server at initialize
    if (k == "profiles") return set_list(k, v, &c_->profiles, &ch_->profiles_changed);
    if (k == "event") return set_string(k, v, &c_->event, &ch_->view_changed);
    if (k == "measure") {
      if (v.is_string() && (v == "count" || v == "value"))
        return set_string(k, v, &c_->measure, &ch_->view_changed);
      return error(k, "\"count\" or \"value\"");
    }
    if (k == "threads") return set_patterns(k, v, &c_->threads);
    if (k == "states") return set_list(k, v, &c_->states, &ch_->view_changed);
    if (k == "window") return window(k, v);
    if (k == "hide") return set_patterns(k, v, &c_->hide);
    if (k == "sourceRoots") return set_list(k, v, &c_->source_roots, &ch_->sources_changed);
    if (k == "pathRemaps") return remaps(k, v);
    if (k == "annotations" || k == "diagnostics" || k == "asyncProfiler" || k == "limits") {
      if (!v.is_object()) return error(k, "an object");
      return object(v, k + ".");
    }
    if (k == "annotations.minPercent") {
      if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 100)
        return error(k, "a number from 0 to 100");
      return assign(&c_->min_percent, v.get<double>(), &ch_->annotations_changed);
    }
    if (k == "annotations.format") {
      if (v.is_string() && (v == "percent" || v == "count" || v == "value"))
        return set_string(k, v, &c_->format, &ch_->annotations_changed);
      return error(k, "\"percent\", \"count\" or \"value\"");
    }
    if (k == "diagnostics.enabled") return set_bool(k, v, &c_->diagnostics);
    if (k == "runLenses") return set_bool(k, v, &c_->run_lenses);
    if (k == "watchProfiles") {
      if (!v.is_boolean()) return error(k, "a boolean");
      c_->watch_profiles = v.get<bool>();
      return;
    }
    if (k == "asyncProfiler.path") {
      bool ignored = false;
      return set_string(k, v, &c_->async_profiler_path, &ignored);
    }
    // Limits apply to the next load; a number of at least 1.
    if (k == "limits.profileMiB" || k == "limits.inflateRatio") {
      if (!v.is_number() || v.get<double>() < 1) return error(k, "a number of at least 1");
      (k == "limits.profileMiB" ? c_->profile_mib : c_->inflate_ratio) = v.get<double>();
      return;
    }
    ch_->unknown.push_back("hotlines." + k);
  }

  void error(const std::string &k, const char *expected) {
    ch_->errors.push_back("hotlines." + k + " must be " + expected);
  }
  template <typename T> void assign(T *dst, T v, bool *changed) {
    if (*dst == v) return;
    *dst = std::move(v);
    *changed = true;
  }
  void set_string(const std::string &k, const json &v, std::string *dst, bool *changed) {
    if (v.is_null()) return assign(dst, std::string(), changed);
    if (!v.is_string()) return error(k, "a string");
    assign(dst, v.get<std::string>(), changed);
  }
  void set_bool(const std::string &k, const json &v, bool *dst) {
    if (!v.is_boolean()) return error(k, "a boolean");
    assign(dst, v.get<bool>(), &ch_->annotations_changed);
  }
  void set_list(const std::string &k, const json &v, std::vector<std::string> *dst, bool *changed) {
    if (v.is_null()) return assign(dst, std::vector<std::string>(), changed);
    if (v.is_string()) return assign(dst, std::vector<std::string>{v.get<std::string>()}, changed);
    if (!v.is_array()) return error(k, "an array of strings");
    std::vector<std::string> out;
    for (const json &e : v) {
      if (e.is_string())
        out.push_back(e.get<std::string>());
      else if (e.is_number_integer()) // thread ids
        out.push_back(std::to_string(e.get<int64_t>()));
      else
        return error(k, "an array of strings");
    }
    assign(dst, std::move(out), changed);
  }
  // A list of name patterns (thread ids pass as literal patterns): an invalid one keeps the
  // old list and reports "hotlines.hide: bad pattern '…': why".
  void set_patterns(const std::string &k, const json &v, std::vector<std::string> *dst) {
    std::vector<std::string> next = *dst;
    bool changed = false;
    size_t errors = ch_->errors.size();
    set_list(k, v, &next, &changed);
    if (ch_->errors.size() != errors || !changed) return;
    std::string error;
    if (!check_patterns(next, &error)) return ch_->errors.push_back("hotlines." + k + ": " + error);
    assign(dst, std::move(next), &ch_->view_changed);
  }
  void window(const std::string &k, const json &v) {
    std::string from, to;
    if (v.is_null()) {
    } else if (v.is_object()) {
      auto get = [&](const char *f, std::string *out) {
        auto it = v.find(f);
        if (it == v.end() || it->is_null()) return true;
        if (it->is_string()) return *out = it->get<std::string>(), true;
        if (it->is_number()) return *out = std::to_string(it->get<int64_t>()), true;
        return false;
      };
      if (!get("from", &from) || !get("to", &to))
        return error(k, "{from, to} with durations like \"2s\" or epoch milliseconds");
    } else {
      return error(k, "{from, to} with durations like \"2s\" or epoch milliseconds");
    }
    assign(&c_->window_from, from, &ch_->view_changed);
    assign(&c_->window_to, to, &ch_->view_changed);
  }
  void remaps(const std::string &k, const json &v) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!v.is_null()) {
      if (!v.is_array()) return error(k, "an array of {from, to}");
      for (const json &e : v) {
        if (!e.is_object() || !e.contains("from") || !e.contains("to") || !e["from"].is_string() ||
            !e["to"].is_string())
          return error(k, "an array of {from, to}");
        out.emplace_back(e["from"].get<std::string>(), e["to"].get<std::string>());
      }
    }
    assign(&c_->path_remaps, std::move(out), &ch_->sources_changed);
  }

  ServerConfig *c_;
  ConfigChange *ch_;
};

} // namespace

LoadLimits ServerConfig::load_limits() const {
  LoadLimits l;
  l.max_bytes = profile_mib >= static_cast<double>(UINT64_MAX >> 20)
                    ? UINT64_MAX
                    : static_cast<uint64_t>(profile_mib * 1024 * 1024);
  l.max_inflate_ratio = inflate_ratio;
  l.bytes_hint = "the setting hotlines.limits.profileMiB";
  l.ratio_hint = "the setting hotlines.limits.inflateRatio";
  return l;
}

ConfigChange apply_config(const nlohmann::json &settings, ServerConfig *config) {
  ConfigChange change;
  if (settings.is_null()) return change;
  const json *obj = &settings;
  if (obj->is_object() && obj->contains("hotlines")) obj = &(*obj)["hotlines"];
  if (!obj->is_object()) {
    change.errors.push_back("hotlines settings must be an object");
    return change;
  }
  Applier(config, &change).object(*obj, "");
  return change;
}

} // namespace hotlines
