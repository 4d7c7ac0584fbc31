// FileWatcher: reports when a watched file is rewritten, once the writing has settled. It
// watches the file's folder (uv_fs_event) rather than the file, so a profiler that replaces
// the file (write elsewhere, rename over it) is seen too, and debounces events with a timer
// so a file written in pieces causes one report. Loop thread only; close_all() before the
// loop ends.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace hotlines {

class FileWatcher {
public:
  using Changed = std::function<void(const std::string &path)>;
  FileWatcher(uv_loop_t *loop, Changed changed, uint64_t settle_ms = 300);
  ~FileWatcher();
  FileWatcher(const FileWatcher &) = delete;
  FileWatcher &operator=(const FileWatcher &) = delete;

  // Starts watching `path` (absolute); false with *error when the folder cannot be watched.
  bool watch(const std::string &path, std::string *error = nullptr);
  void unwatch(const std::string &path);
  bool watching(const std::string &path) const { return entries_.count(path) > 0; }
  void close_all();

private:
  struct Entry;
  static void on_event(uv_fs_event_t *handle, const char *filename, int events, int status);
  static void on_timer(uv_timer_t *timer);
  static void close_entry(Entry *e);

  uv_loop_t *loop_;
  Changed changed_;
  uint64_t settle_ms_;
  std::map<std::string, Entry *> entries_;
};

} // namespace hotlines
