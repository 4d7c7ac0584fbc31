// Which leaf frames mean "this thread was not running" for `--no-idle`: parked, waiting,
// sleeping, polling, futex and condition waits in Java, glibc, the kernel and the Go
// runtime, including glibc's `__syscall_cancel_arch*` leaves, and V8's `(idle)`. Pure function;
// thread-safe.
#pragma once

#include <string_view>

namespace hotlines {

// True when a function with this display name, as a sample's leaf, means the thread idled.
bool is_idle_function_name(std::string_view name);

} // namespace hotlines
