// Session: profile and event checks, the session view and the heat cache (see session.h).
#include "server/lsp/session.h"

#include "server/engine/line_keys.h"
#include "server/engine/profile_index.h"
#include "server/engine/view_filter.h"
#include "server/engine/view_spec.h"
#include "server/lsp/uri.h"

#include <optional>

namespace hotlines {

const LoadedProfile &Session::profile(const std::string &id) const {
  const LoadedProfile *lp = id.empty() ? profiles.latest() : profiles.find(id);
  if (!lp)
    throw Failure::bad_params(id.empty() ? "no profile is loaded"
                                         : "unknown profileId '" + id + "'");
  return *lp;
}

void Session::check_method(const LoadedProfile &lp, FunctionGrouping grouping, const char *field,
                           const std::string &pattern) {
  std::string error;
  if (pattern.empty() || lp.index->functions(grouping).check_method(pattern, &error)) return;
  throw Failure::bad_params("params." + std::string(field) + ": " + error);
}

void Session::check_event(const Profile &p, const std::string &event) {
  if (event.empty() || p.find_event(event) >= 0) return;
  throw Failure::bad_params(unknown_event_error(p, event));
}

bool Session::view(const LoadedProfile &lp, const std::string &event, View *out,
                   Failure *failure) const {
  ViewSpec spec;
  spec.event = event.empty() ? config.event : event;
  // A configured event the profile lacks falls back to the profile's default event.
  if (event.empty() && !spec.event.empty() && lp.profile->find_event(spec.event) < 0)
    spec.event.clear();
  spec.measure = config.by_value() ? Measure::value : Measure::count;
  spec.threads = config.threads;
  // The states apply to the events whose samples record one; the others show every sample.
  const int e =
      spec.event.empty() ? lp.profile->metadata.default_event : lp.profile->find_event(spec.event);
  if (e >= 0 && static_cast<size_t>(e) < lp.profile->events.size() &&
      !lp.profile->events[static_cast<size_t>(e)].states.empty())
    spec.states = config.states;
  spec.from = config.window_from;
  spec.to = config.window_to;
  spec.hide = config.hide;
  std::string err;
  if (make_view(spec, *lp.index, out, &err)) return true;
  *failure = Failure::bad_params("the view's window: " + err);
  return false;
}

View Session::view(const LoadedProfile &lp, const std::string &event) const {
  View v;
  Failure failure;
  if (!view(lp, event, &v, &failure)) throw failure;
  return v;
}

const TextDocument *Session::document(const std::string &uri) const {
  auto it = documents.find(uri);
  return it == documents.end() ? nullptr : &it->second;
}

HeatText Session::heat_text(const FileHeat &heat) const {
  HeatText t;
  t.event = heat.event;
  t.unit = heat.unit;
  t.view_total = heat.view_total;
  t.format = config.format;
  t.by_value = config.by_value();
  t.self_only = heat.self_only;
  return t;
}

namespace {

// What the heat of one profile's file is computed from, copied to the worker.
struct HeatSource {
  std::shared_ptr<ViewCache> views;
  std::shared_ptr<const FileFunctions> files;
  std::shared_ptr<const ProfileResolution> resolution;
  View view;
};

// The heat of `path` under src.view in both measures; null with *failure when the view
// could not be computed. Worker thread.
std::shared_ptr<FileHeat> heat_of(const HeatSource &src, const std::string &path,
                                  const std::atomic<bool> *cancel, Failure *failure) {
  View count_view = src.view;
  count_view.measure = Measure::count;
  View value_view = src.view;
  value_view.measure = Measure::value;
  ViewResult v = src.views->get(value_view, cancel), c = src.views->get(count_view, cancel);
  if (!v.ok() || !c.ok()) {
    *failure = v.cancelled || c.cancelled ? Failure::cancelled()
                                          : Failure::bad_params(v.ok() ? c.error : v.error);
    return nullptr;
  }
  std::vector<std::string> keys =
      recorded_keys_for_path(src.resolution.get(), src.views->index().lines(), path);
  return std::make_shared<FileHeat>(compute_file_heat(*v.weights, *c.weights, *src.files, keys));
}

} // namespace

void Session::heat(const std::string &uri, const LoadedProfile *lp, const std::string &event,
                   const std::atomic<bool> *cancel, HeatUse use) {
  if (!lp) return use(nullptr, nullptr, nullptr);
  Failure failure;
  View main_view;
  if (!view(*lp, event, &main_view, &failure)) return use(nullptr, nullptr, &failure);
  std::string path = path_of_uri(uri);
  std::string key = lp->id + '\x1d' + std::to_string(lp->generation) + '\x1d' +
                    ViewCache::signature(main_view) + '\x1d' + path;
  // With a baseline set: the same file in the baseline profile, same view and event.
  const LoadedProfile *base =
      baseline_id.empty() || baseline_id == lp->id ? nullptr : profiles.find(baseline_id);
  View base_view;
  if (base) {
    const Profile &p = *lp->profile;
    std::string name = main_view.event.empty()
                           ? std::string(p.str(p.events[p.metadata.default_event].name))
                           : main_view.event;
    if (base->profile->find_event(name) < 0 || !view(*base, name, &base_view, &failure))
      base = nullptr;
    else
      key += '\x1d' + base->id + ':' + std::to_string(base->generation);
  }
  if (auto it = heat_.find(key); it != heat_.end()) return use(lp, it->second, nullptr);
  struct Job {
    std::shared_ptr<const FileHeat> heat;
    Failure failure;
  };
  auto job = std::make_shared<Job>();
  HeatSource main{lp->views, lp->file_functions, lp->resolution, main_view};
  std::optional<HeatSource> baseline;
  if (base) baseline = HeatSource{base->views, base->file_functions, base->resolution, base_view};
  work_->queue(
      [job, main, baseline, path, cancel] {
        std::shared_ptr<FileHeat> heat = heat_of(main, path, cancel, &job->failure);
        if (!heat) return;
        if (baseline) {
          heat->baseline = heat_of(*baseline, path, cancel, &job->failure);
          if (!heat->baseline) return;
        }
        job->heat = std::move(heat);
      },
      [this, job, id = lp->id, generation = lp->generation, key, use](const Failure *thrown) {
        if (thrown) return use(nullptr, nullptr, thrown);
        const LoadedProfile *now = profiles.find(id);
        if (!job->heat) return use(nullptr, nullptr, &job->failure);
        if (!now || now->generation != generation) {
          Failure stale = Failure::stale();
          return use(nullptr, nullptr, &stale);
        }
        heat_[key] = job->heat;
        use(now, job->heat, nullptr);
      });
}

} // namespace hotlines
