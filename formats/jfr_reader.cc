// JFR reader: splits the file into chunks, reads them (in parallel when options.threads
// allows, each into its own builder) and merges the results in file order, so the profile
// is the same whatever the thread count. A truncated tail becomes a warning; corrupt data
// in a complete chunk is an error with its byte offset.
#include "formats/jfr_reader.h"

#include "formats/jfr_chunk.h"
#include "formats/jfr_chunk_reader.h"
#include "formats/jfr_event_table.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace hotlines {

namespace {

struct ChunkResult {
  std::unique_ptr<Profile> profile;
  JfrChunkInfo info;
  std::string error;
  int64_t error_offset = -1;
  bool done = false;
};

StringId find_or_add_string(Profile &p, std::string_view s) {
  for (size_t i = 0; i < p.strings.size(); i++)
    if (p.strings[i] == s) return static_cast<StringId>(i);
  p.strings.emplace_back(s);
  return static_cast<StringId>(p.strings.size() - 1);
}

// Appends src's samples to dst, materializing optional columns where only one side has them.
void append_columns(SampleColumns &d, const SampleColumns &s) {
  const size_t nd = d.size(), ns = s.size();
  if (!d.value.empty() || !s.value.empty()) {
    if (d.value.empty())
      for (size_t i = 0; i < nd; i++) d.value.push_back(d.count_at(i));
    for (size_t i = 0; i < ns; i++) d.value.push_back(s.value_at(i));
  }
  if (!d.count.empty() || !s.count.empty()) {
    if (d.count.empty()) d.count.assign(nd, 1);
    for (size_t i = 0; i < ns; i++) d.count.push_back(s.count_at(i));
  }
  if (!d.thread.empty() || !s.thread.empty()) {
    if (d.thread.empty()) d.thread.assign(nd, 0);
    for (size_t i = 0; i < ns; i++) d.thread.push_back(s.thread_at(i));
  }
  if (!d.time.empty() || !s.time.empty()) {
    if (d.time.empty()) d.time.assign(nd, 0);
    for (size_t i = 0; i < ns; i++) d.time.push_back(s.time_at(i));
  }
  if (!d.labels.empty() || !s.labels.empty()) {
    if (d.labels.empty()) d.labels.assign(nd, 0);
    for (size_t i = 0; i < ns; i++) d.labels.push_back(s.labels_at(i));
  }
  d.stack.insert(d.stack.end(), s.stack.begin(), s.stack.end());
}

// Gives the chunk's jdk.ExecutionSample placeholder event its product name, merging it into
// an event of that name if the chunk already has one (jdk.CPUTimeSample is also "cpu").
bool name_execution_event(Profile &p, const std::string &name) {
  int ph = p.find_event(kJfrExecutionSample);
  if (ph < 0) return true;
  int existing = p.find_event(name);
  if (existing < 0) {
    p.events[ph].name = find_or_add_string(p, name);
    return true;
  }
  Event &dst = p.events[existing];
  Event &src = p.events[ph];
  if (__builtin_add_overflow(dst.total_count, src.total_count, &dst.total_count) ||
      __builtin_add_overflow(dst.total_value, src.total_value, &dst.total_value))
    return false;
  append_columns(dst.samples, src.samples);
  for (StringId s : src.sources)
    if (std::find(dst.sources.begin(), dst.sources.end(), s) == dst.sources.end())
      dst.sources.push_back(s);
  p.events.erase(p.events.begin() + ph);
  return true;
}

int default_event(const Profile &p, const std::string &exec_name) {
  for (std::string_view name :
       {std::string_view("cpu"), std::string_view(exec_name), std::string_view("wall"),
        std::string_view("alloc"), std::string_view("lock"), std::string_view("live"),
        std::string_view("nativemem"), std::string_view("nativelock"), std::string_view("native"),
        std::string_view("trace")}) {
    int e = p.find_event(name);
    if (e >= 0) return e;
  }
  return 0;
}

} // namespace

LoadResult read_jfr(std::string_view data, const LoadOptions &options) {
  JfrChunkList list = scan_jfr_chunks(data);
  if (list.chunks.empty())
    return LoadResult::failure(list.problem.empty() ? "empty JFR file" : list.problem,
                               list.problem_offset < 0 ? 0 : list.problem_offset);
  const size_t n = list.chunks.size();
  int64_t start = INT64_MAX, end = INT64_MIN;
  for (const JfrChunkHeader &c : list.chunks) {
    start = std::min(start, c.start_nanos);
    int64_t e;
    if (__builtin_add_overflow(c.start_nanos, std::max<int64_t>(0, c.duration_nanos), &e))
      e = INT64_MAX;
    end = std::max(end, e);
  }

  std::vector<ChunkResult> results(n);
  auto parse = [&](size_t i) {
    ProfileBuilder builder;
    JfrChunkReader reader(data, list.chunks[i], start, options);
    ChunkResult &r = results[i];
    if (reader.read(builder)) {
      r.profile = builder.finish();
    } else {
      r.error = reader.error();
      r.error_offset = reader.error_offset();
    }
    r.info = reader.info();
  };

  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = static_cast<unsigned>(std::clamp<size_t>(threads, 1, n));
  std::mutex mu;
  std::condition_variable cv;
  size_t next = 0, merged = 0;
  bool stop = false;
  std::vector<std::thread> workers;
  if (threads > 1) {
    // Workers stay at most a few chunks ahead of the merge, which bounds memory.
    const size_t window = threads + 1;
    for (unsigned w = 0; w < threads; w++)
      workers.emplace_back([&] {
        for (;;) {
          size_t i;
          {
            std::unique_lock<std::mutex> lock(mu);
            cv.wait(lock, [&] { return stop || next >= n || next < merged + window; });
            if (stop || next >= n) return;
            i = next++;
          }
          parse(i);
          {
            std::lock_guard<std::mutex> lock(mu);
            results[i].done = true;
          }
          cv.notify_all();
        }
      });
  }
  auto finish_workers = [&] {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    cv.notify_all();
    for (std::thread &t : workers) t.join();
    workers.clear();
  };

  ProfileBuilder out;
  std::unique_ptr<Profile> single;
  std::string exec_name = "cpu";
  std::vector<std::string> producers;
  int64_t period = 0;
  std::unordered_map<std::string, std::pair<int64_t, int64_t>> totals; // event -> count, value
  size_t done_bytes = 0;
  for (size_t i = 0; i < n; i++) {
    if (threads > 1) {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return results[i].done; });
    } else {
      parse(i);
    }
    ChunkResult &r = results[i];
    if (!r.profile) {
      finish_workers();
      return LoadResult::failure(r.error, r.error_offset);
    }
    if (!r.info.exec_setting.empty()) exec_name = jfr_execution_event_name(r.info.exec_setting);
    if (std::find(producers.begin(), producers.end(), r.info.producer) == producers.end())
      producers.push_back(r.info.producer);
    if (period == 0) period = r.info.period_ns;
    Profile &p = *r.profile;
    bool overflow = !name_execution_event(p, exec_name);
    for (const Event &e : p.events) {
      auto &t = totals[p.strings[e.name]];
      overflow |= __builtin_add_overflow(t.first, e.total_count, &t.first);
      overflow |= __builtin_add_overflow(t.second, e.total_value, &t.second);
    }
    if (overflow) {
      finish_workers();
      return LoadResult::failure("JFR event values overflow a 64-bit total",
                                 static_cast<int64_t>(list.chunks[i].offset));
    }
    if (n == 1) {
      single = std::move(r.profile);
    } else {
      out.add_profile(p);
      r.profile.reset();
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      merged = i + 1;
    }
    cv.notify_all();
    done_bytes += static_cast<size_t>(list.chunks[i].size);
    if (options.progress) options.progress(static_cast<double>(done_bytes) / data.size());
    if (options.cancelled()) {
      finish_workers();
      return LoadResult::failure("cancelled");
    }
  }
  finish_workers();

  if (!single) single = out.finish();
  Profile &p = *single;
  Metadata &md = p.metadata;
  md.format = "jfr";
  md.producer.clear();
  for (const std::string &s : producers) md.producer += (md.producer.empty() ? "" : ", ") + s;
  md.start_time_ns = start;
  md.duration_ns = end > start ? end - start : 0;
  md.chunks = static_cast<uint32_t>(n);
  if (period > 0) {
    md.period = period;
    md.period_type = "nanoseconds";
  }
  if (!list.problem.empty())
    md.warnings.push_back(LoadWarning{list.problem + "; loaded the " + std::to_string(n) +
                                          " complete chunk(s) before it",
                                      list.problem_offset, -1});
  md.default_event = p.events.empty() ? 0 : default_event(p, exec_name);
  return LoadResult::success(std::move(single));
}

} // namespace hotlines
