// FileWatcher (see file_watcher.h).
#include "server/lsp/file_watcher.h"

namespace hotlines {

struct FileWatcher::Entry {
  FileWatcher *owner = nullptr;
  std::string path, dir, name;
  uv_fs_event_t event{};
  uv_timer_t timer{};
  int open_handles = 0; // both handles are closed before the entry is freed
};

FileWatcher::FileWatcher(uv_loop_t *loop, Changed changed, uint64_t settle_ms)
    : loop_(loop), changed_(std::move(changed)), settle_ms_(settle_ms) {}

FileWatcher::~FileWatcher() {
  close_all();
}

bool FileWatcher::watch(const std::string &path, std::string *error) {
  if (entries_.count(path)) return true;
  size_t slash = path.rfind('/');
  auto *e = new Entry;
  e->owner = this;
  e->path = path;
  e->dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  e->name = slash == std::string::npos ? path : path.substr(slash + 1);
  uv_fs_event_init(loop_, &e->event);
  uv_timer_init(loop_, &e->timer);
  e->open_handles = 2;
  e->event.data = e;
  e->timer.data = e;
  int rc = uv_fs_event_start(&e->event, on_event, e->dir.c_str(), 0);
  if (rc != 0) {
    if (error) *error = "cannot watch " + e->dir + ": " + uv_strerror(rc);
    close_entry(e);
    return false;
  }
  entries_[path] = e;
  return true;
}

void FileWatcher::unwatch(const std::string &path) {
  auto it = entries_.find(path);
  if (it == entries_.end()) return;
  close_entry(it->second);
  entries_.erase(it);
}

void FileWatcher::close_all() {
  for (auto &[path, e] : entries_) close_entry(e);
  entries_.clear();
}

void FileWatcher::close_entry(Entry *e) {
  e->owner = nullptr;
  auto closed = [](uv_handle_t *h) {
    auto *entry = static_cast<Entry *>(h->data);
    if (--entry->open_handles == 0) delete entry;
  };
  uv_close(reinterpret_cast<uv_handle_t *>(&e->event), closed);
  uv_close(reinterpret_cast<uv_handle_t *>(&e->timer), closed);
}

void FileWatcher::on_event(uv_fs_event_t *handle, const char *filename, int, int status) {
  auto *e = static_cast<Entry *>(handle->data);
  if (!e->owner || status < 0) return;
  if (filename && e->name != filename) return; // another file of the folder
  // (Re)start the settle timer: report once the events stop for settle_ms.
  uv_timer_start(&e->timer, on_timer, e->owner->settle_ms_, 0);
}

void FileWatcher::on_timer(uv_timer_t *timer) {
  auto *e = static_cast<Entry *>(timer->data);
  if (!e->owner) return;
  uv_fs_t req;
  int rc = uv_fs_stat(nullptr, &req, e->path.c_str(), nullptr);
  uv_fs_req_cleanup(&req);
  if (rc != 0) return; // removed (or being replaced): wait for the next event
  e->owner->changed_(e->path);
}

} // namespace hotlines
