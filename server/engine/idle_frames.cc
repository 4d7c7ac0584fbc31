// The idle leaf list (see idle_frames.h).
// Threading: Constant tables; any thread.
#include "server/engine/idle_frames.h"

#include <algorithm>

namespace hotlines {

namespace {

// Native (libc, kernel, JVM C++) names, compared with the whole name or the name cut at its
// first '.' (compiler clones such as `futex_wait.constprop.0`).
constexpr std::string_view kNative[] = {
    "epoll_wait",
    "epoll_pwait",
    "epoll_pwait2",
    "__GI_epoll_wait",
    "__epoll_wait_nocancel",
    "futex",
    "futex_wait",
    "futex_wait_queue",
    "futex_wait_queue_me",
    "do_futex",
    "__x64_sys_futex",
    "__futex_abstimed_wait_common",
    "__futex_abstimed_wait_common64",
    "__GI___futex_abstimed_wait_cancelable64",
    "futex_abstimed_wait_cancelable",
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "__pthread_cond_wait",
    "__pthread_cond_timedwait",
    "___pthread_cond_timedwait64",
    "pthread_cond_clockwait",
    "__pthread_clockjoin_ex",
    "pthread_join",
    "nanosleep",
    "__nanosleep",
    "clock_nanosleep",
    "__clock_nanosleep",
    "__GI___clock_nanosleep",
    "__GI___nanosleep",
    "usleep",
    "sleep",
    "poll",
    "__poll",
    "ppoll",
    "__GI___poll",
    "select",
    "pselect",
    "pselect6",
    "__select",
    "accept",
    "accept4",
    "__libc_accept",
    "sem_wait",
    "sem_timedwait",
    "__new_sem_wait_slow",
    "__new_sem_wait_slow64",
    "sigwait",
    "sigtimedwait",
    "__sigtimedwait",
    "pause",
    "wait4",
    "waitpid",
    "os::PlatformEvent::park",
    "os::PlatformParker::park",
    "os::PlatformMonitor::wait",
    "Monitor::wait",
    "ObjectMonitor::wait",
    "SafepointSynchronize::block",
};

// Go runtime names: exact.
constexpr std::string_view kGo[] = {
    "runtime.gopark",    "runtime.goparkunlock", "runtime.futex",       "runtime.futexsleep",
    "runtime.notesleep", "runtime.notetsleep",   "runtime.notetsleepg", "runtime.usleep",
    "runtime.epollwait", "runtime.netpoll",      "runtime.semasleep",   "runtime.osyield",
    "runtime.park_m",    "runtime.stopm",        "runtime.mPark",
};

// Java methods, matched as the end of a display name after a '.' (any package).
constexpr std::string_view kJava[] = {
    "Unsafe.park",
    "LockSupport.park",
    "LockSupport.parkNanos",
    "LockSupport.parkUntil",
    "Object.wait",
    "Object.wait0",
    "Thread.sleep",
    "Thread.sleep0",
    "Thread.sleepNanos",
    "Thread.sleepNanos0",
    "EPoll.wait",
    "EPoll.epollWait",
    "EPollArrayWrapper.epollWait",
    "KQueue.poll",
    "Net.poll",
    "Net.accept",
    "Net.connect0",
    "PlainSocketImpl.socketAccept",
    "SocketInputStream.socketRead0",
    "NioSocketImpl.park",
    "Process.waitFor",
    "ProcessImpl.waitForProcessExit0",
    "ProcessHandleImpl.waitForProcessExit0",
};

bool ends_with_member(std::string_view name, std::string_view member) {
  if (name.size() < member.size()) return false;
  if (name.compare(name.size() - member.size(), member.size(), member) != 0) return false;
  return name.size() == member.size() || name[name.size() - member.size() - 1] == '.' ||
         name[name.size() - member.size() - 1] == '/';
}

} // namespace

bool is_idle_function_name(std::string_view name) {
  if (name.starts_with("__syscall_cancel_arch")) return true;
  if (name == "(idle)") return true; // V8's profiles: the JavaScript thread waits for work
  auto in = [](auto &table, std::string_view n) {
    return std::find(std::begin(table), std::end(table), n) != std::end(table);
  };
  if (in(kNative, name) || in(kGo, name)) return true;
  if (size_t dot = name.find('.');
      dot != std::string_view::npos && dot > 0 && in(kNative, name.substr(0, dot)))
    return true;
  for (std::string_view m : kJava)
    if (ends_with_member(name, m)) return true;
  return false;
}

} // namespace hotlines
