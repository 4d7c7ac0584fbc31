// RunManager (see run_manager.h).
#include "server/runs/run_manager.h"

#include <algorithm>

#include <csignal>
#include <vector>

extern char **environ;

namespace hotlines {

namespace {

// Cleanup steps (JFR.stop) get this long once a run is being stopped.
constexpr int64_t kCleanupLimitMs = 10000;
// After a step's leader exits, its pipes get this long to reach end of file.
constexpr int64_t kDrainMs = 1000;

std::string display(const std::vector<std::string> &argv) {
  std::string out = "$";
  for (const std::string &a : argv) {
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$*?;&|<>()") == std::string::npos;
    out += " " + (plain ? a : "'" + a + "'");
  }
  return out + "\n";
}

} // namespace

struct RunManager::Child {
  uv_process_t process;
  uv_pipe_t pipes[2];            // stdout, stderr
  RunManager *manager = nullptr; // null once the manager is gone
  Run *run = nullptr;            // null once nobody waits for it
  int pid = 0;
  bool exited = false;
  int64_t exit_status = 0;
  int term_signal = 0;
  bool pipe_open[2] = {false, false};
  int open_handles = 0;

  static void on_closed(uv_handle_t *h) {
    auto *c = static_cast<Child *>(h->data);
    if (--c->open_handles == 0) delete c;
  }
  void close_pipe(int i) {
    if (!pipe_open[i]) return;
    pipe_open[i] = false;
    uv_read_stop(reinterpret_cast<uv_stream_t *>(&pipes[i]));
    uv_close(reinterpret_cast<uv_handle_t *>(&pipes[i]), on_closed);
  }
  // Closes everything once nobody waits; the process handle only after the exit (or when the
  // manager goes away, which kills the group first).
  void close_all(bool process_too) {
    close_pipe(0);
    close_pipe(1);
    if (process_too) uv_close(reinterpret_cast<uv_handle_t *>(&process), on_closed);
  }
};

struct RunManager::Run {
  RunManager *manager = nullptr;
  std::string id;
  RunPlan plan;
  Callbacks cb;
  OutputDecoder output;
  std::vector<std::string> env;
  size_t step = 0;
  bool stopping = false;  // cancel, timeout or exit: only cleanup steps remain
  bool skip_main = false; // a step failed: only cleanup steps remain
  bool noted = false;     // the plan's notes were said
  RunOutcome outcome;
  uint64_t start_ns = 0;
  Child *child = nullptr;
  enum class TimerUse { none, start, delay, grace, drain } timer_use = TimerUse::none;
  uv_timer_t *timer = nullptr;    // start, delay before a step, kill grace, pipe drain
  uv_timer_t *deadline = nullptr; // the run's timeout

  void say(const std::string &text) {
    output.note(text);
    if (cb.output) cb.output("hotlines", text);
  }
  void arm(TimerUse use, int64_t ms) {
    timer_use = use;
    uv_timer_start(timer, on_timer, static_cast<uint64_t>(ms), 0);
  }
  static void on_timer(uv_timer_t *t) {
    auto *run = static_cast<Run *>(t->data);
    TimerUse use = run->timer_use;
    run->timer_use = TimerUse::none;
    switch (use) {
    case TimerUse::start:
      return run->manager->next_step(run);
    case TimerUse::delay:
      return run->manager->spawn(run);
    case TimerUse::grace:
      if (run->child && !run->child->exited) {
        run->say("hotlines: still running; killing process group " +
                 std::to_string(run->child->pid) + "\n");
        kill(-run->child->pid, SIGKILL);
      }
      return;
    case TimerUse::drain:
      if (run->child) {
        run->child->close_pipe(0);
        run->child->close_pipe(1);
        run->manager->child_progress(run->child);
      }
      return;
    case TimerUse::none:
      return;
    }
  }
  static void on_deadline(uv_timer_t *t) {
    auto *run = static_cast<Run *>(t->data);
    run->say("hotlines: timeout reached; stopping\n");
    run->manager->stop(run, true, 2000);
  }
  void close_timers() {
    for (uv_timer_t *t : {timer, deadline}) {
      uv_timer_stop(t);
      t->data = nullptr;
      uv_close(reinterpret_cast<uv_handle_t *>(t),
               [](uv_handle_t *h) { delete reinterpret_cast<uv_timer_t *>(h); });
    }
    timer = deadline = nullptr;
  }
};

RunManager::RunManager(uv_loop_t *loop) : loop_(loop), watchdog_(loop) {}

RunManager::~RunManager() {
  for (auto &[id, run] : runs_) {
    if (Child *c = run->child) {
      c->run = nullptr;
      c->manager = nullptr; // its exit may come after the manager is gone
      if (!c->exited) kill(-c->pid, SIGKILL);
    }
    run->close_timers();
  }
}

std::string RunManager::new_id() {
  return "r" + std::to_string(next_id_++);
}

void RunManager::start(const std::string &id, RunPlan plan, int64_t timeout_ms,
                       Callbacks callbacks) {
  auto run = std::make_unique<Run>();
  Run *r = run.get();
  r->manager = this;
  r->id = id;
  r->plan = std::move(plan);
  r->cb = std::move(callbacks);
  r->start_ns = uv_hrtime();
  for (char **e = environ; *e; e++) {
    std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    if (!r->plan.env.count(name) && std::find(r->plan.unset_env.begin(), r->plan.unset_env.end(),
                                              name) == r->plan.unset_env.end())
      r->env.push_back(std::move(kv));
  }
  for (const auto &[k, v] : r->plan.env) r->env.push_back(k + "=" + v);
  r->timer = new uv_timer_t;
  r->deadline = new uv_timer_t;
  uv_timer_init(loop_, r->timer);
  uv_timer_init(loop_, r->deadline);
  r->timer->data = r->deadline->data = r;
  if (timeout_ms > 0)
    uv_timer_start(r->deadline, Run::on_deadline, static_cast<uint64_t>(timeout_ms), 0);
  runs_[id] = std::move(run);
  r->arm(Run::TimerUse::start, 0); // never call back before the caller has returned
}

void RunManager::next_step(Run *run) {
  const auto &steps = run->plan.steps;
  while (run->step < steps.size() && (run->stopping || run->skip_main) && !steps[run->step].cleanup)
    run->step++;
  if (run->step == steps.size()) return finish(run);
  const RunStep &s = steps[run->step];
  if (s.delay_ms > 0 && !run->stopping && !run->skip_main) {
    run->say("hotlines: waiting " + std::to_string(s.delay_ms) + " ms\n");
    return run->arm(Run::TimerUse::delay, s.delay_ms);
  }
  spawn(run);
}

void RunManager::spawn(Run *run) {
  const RunStep &s = run->plan.steps[run->step];
  if (!run->noted)
    for (const std::string &note : run->plan.notes) run->say("hotlines: " + note + "\n");
  run->noted = true;
  run->say(display(s.argv));
  std::vector<char *> args, env;
  for (const std::string &a : s.argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string &e : run->env) env.push_back(const_cast<char *>(e.c_str()));
  env.push_back(nullptr);

  if (!watchdog_.running() && !watchdog_failed_) {
    std::string error;
    if (!watchdog_.start(&error)) {
      watchdog_failed_ = true;
      run->say("hotlines: " + error + "; runs would outlive a crash of the server\n");
    }
  }
  auto *c = new Child;
  c->manager = this;
  c->run = run;
  uv_stdio_container_t stdio[3];
  stdio[0].flags = UV_IGNORE;
  for (int i = 0; i < 2; i++) {
    uv_pipe_init(loop_, &c->pipes[i], 0);
    c->pipes[i].data = c;
    c->pipe_open[i] = true;
    c->open_handles++;
    stdio[i + 1].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
    stdio[i + 1].data.stream = reinterpret_cast<uv_stream_t *>(&c->pipes[i]);
  }
  uv_process_options_t options{};
  options.exit_cb = on_exit;
  options.file = args[0];
  options.args = args.data();
  options.env = env.data();
  options.cwd = run->plan.cwd.c_str();
  options.flags = UV_PROCESS_DETACHED; // its own session and process group
  options.stdio_count = 3;
  options.stdio = stdio;
  c->process.data = c;
  c->open_handles++;
  int err = uv_spawn(loop_, &c->process, &options);
  if (err != 0) {
    c->run = nullptr;
    c->close_all(true);
    run->say("hotlines: cannot start " + s.argv[0] + ": " + uv_strerror(err) + "\n");
    if (!s.cleanup) {
      run->outcome.spawn_error = err;
      run->outcome.spawn_file = s.argv[0];
      run->skip_main = true;
    }
    run->step++;
    return next_step(run);
  }
  c->pid = c->process.pid;
  watchdog_.watch(c->pid);
  run->child = c;
  for (int i = 0; i < 2; i++)
    uv_read_start(reinterpret_cast<uv_stream_t *>(&c->pipes[i]), on_alloc, on_read);
  if (run->stopping) run->arm(Run::TimerUse::grace, kCleanupLimitMs);
}

void RunManager::on_alloc(uv_handle_t *, size_t, uv_buf_t *buf) {
  static char storage[64 * 1024]; // loop thread only; each read is consumed before the next
  *buf = uv_buf_init(storage, sizeof storage);
}

void RunManager::on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *buf) {
  auto *c = static_cast<Child *>(stream->data);
  int which = stream == reinterpret_cast<uv_stream_t *>(&c->pipes[0]) ? 0 : 1;
  const char *name = which == 0 ? "stdout" : "stderr";
  if (n > 0) {
    if (Run *run = c->run) {
      std::string text = run->output.feed(which, std::string_view(buf->base, size_t(n)));
      if (!text.empty() && run->cb.output) run->cb.output(name, text);
    }
    return;
  }
  if (n == 0) return; // EAGAIN
  if (Run *run = c->run) {
    std::string text = run->output.finish(which);
    if (!text.empty() && run->cb.output) run->cb.output(name, text);
  }
  c->close_pipe(which);
  if (c->run)
    c->run->manager->child_progress(c);
  else if (c->exited && !c->pipe_open[0] && !c->pipe_open[1])
    uv_close(reinterpret_cast<uv_handle_t *>(&c->process), Child::on_closed);
}

void RunManager::on_exit(uv_process_t *process, int64_t status, int term_signal) {
  auto *c = static_cast<Child *>(process->data);
  c->exited = true;
  c->exit_status = status;
  c->term_signal = term_signal;
  // Whatever the step left behind in its group goes with it.
  kill(-c->pid, SIGKILL);
  if (c->manager) c->manager->watchdog_.unwatch(c->pid);
  if (c->run) return c->run->manager->child_progress(c);
  if (!c->pipe_open[0] && !c->pipe_open[1])
    uv_close(reinterpret_cast<uv_handle_t *>(&c->process), Child::on_closed);
}

void RunManager::child_progress(Child *c) {
  Run *run = c->run;
  if (!c->exited) return;
  if (c->pipe_open[0] || c->pipe_open[1]) {
    if (run->timer_use != Run::TimerUse::drain) run->arm(Run::TimerUse::drain, kDrainMs);
    return;
  }
  step_done(run);
}

void RunManager::step_done(Run *run) {
  Child *c = run->child;
  run->child = nullptr;
  c->run = nullptr;
  uv_timer_stop(run->timer);
  run->timer_use = Run::TimerUse::none;
  const RunStep &s = run->plan.steps[run->step];
  std::string how = c->term_signal ? "was killed by signal " + std::to_string(c->term_signal)
                                   : "exited with code " + std::to_string(c->exit_status);
  run->say("hotlines: " + s.argv[0] + " " + how + "\n");
  if (!s.cleanup) {
    run->outcome.exit_code.reset();
    if (!c->term_signal) run->outcome.exit_code = c->exit_status;
    run->outcome.signal = c->term_signal;
    if (c->term_signal || c->exit_status != 0) { // the later main steps do not run
      run->skip_main = true;
      run->outcome.failed_step = static_cast<int64_t>(run->step);
    }
  }
  c->close_all(true);
  run->step++;
  next_step(run);
}

void RunManager::stop(Run *run, bool timed_out, int64_t grace_ms) {
  Child *c = run->child;
  if (run->stopping) { // stopped already: escalate
    if (grace_ms == 0 && c && !c->exited) kill(-c->pid, SIGKILL);
    return;
  }
  run->stopping = true;
  (timed_out ? run->outcome.timed_out : run->outcome.cancelled) = true;
  if (run->timer_use == Run::TimerUse::delay) { // waiting between steps: on to the cleanup,
    uv_timer_stop(run->timer);                  // from the loop, not from inside this call
    return run->arm(Run::TimerUse::start, 0);
  }
  if (c && !c->exited && !run->plan.steps[run->step].cleanup) {
    kill(-c->pid, grace_ms > 0 ? SIGTERM : SIGKILL);
    if (grace_ms > 0) run->arm(Run::TimerUse::grace, grace_ms);
  }
}

bool RunManager::cancel(const std::string &id, int64_t grace_ms) {
  auto it = runs_.find(id);
  if (it == runs_.end()) return false;
  it->second->say("hotlines: cancelled\n");
  stop(it->second.get(), false, grace_ms);
  return true;
}

void RunManager::kill_all() {
  std::vector<std::string> ids;
  for (const auto &[id, run] : runs_) ids.push_back(id);
  for (const std::string &id : ids) {
    auto it = runs_.find(id);
    if (it != runs_.end()) stop(it->second.get(), false, 0);
  }
}

void RunManager::finish(Run *run) {
  run->outcome.duration_ms = static_cast<int64_t>((uv_hrtime() - run->start_ns) / 1000000);
  run->outcome.output = run->output.tail();
  run->close_timers();
  RunOutcome outcome = std::move(run->outcome);
  auto done = std::move(run->cb.finished);
  runs_.erase(run->id); // `run` is gone from here on
  if (done) done(std::move(outcome));
}

} // namespace hotlines
