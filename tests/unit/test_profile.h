// A hand-built profile for tests: JVM, native and path frames, samples on named threads at
// given times. Formats only, so the readers' and writers' tests can use it too.
#pragma once

#include "formats/jvm_names.h"
#include "formats/profile_builder.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines::test {

class TestProfile {
public:
  // A JVM frame of internal class `cls` (e.g. `org/acme/Pricing$Inner`).
  FrameId java(std::string_view cls, std::string_view method, int line = 0,
               FrameKind kind = FrameKind::jit) {
    Function f;
    f.name = b_.intern(jvm_display_name(cls, method));
    f.class_name = b_.intern(cls);
    f.method = b_.intern(method);
    f.system_name = b_.intern(std::string(cls) + "." + std::string(method));
    return b_.frame(Frame{b_.function(f), line, -1, kind});
  }
  // A JVM frame with a method descriptor in system_name (for fqn grouping).
  FrameId java_desc(std::string_view cls, std::string_view method, std::string_view desc,
                    int line) {
    Function f;
    f.name = b_.intern(jvm_display_name(cls, method));
    f.class_name = b_.intern(cls);
    f.method = b_.intern(method);
    f.system_name = b_.intern(desc);
    return b_.frame(Frame{b_.function(f), line, -1, FrameKind::jit});
  }
  FrameId native(std::string_view name, FrameKind kind = FrameKind::native) {
    Function f;
    f.name = b_.intern(name);
    f.system_name = f.name;
    return b_.frame(Frame{b_.function(f), 0, -1, kind});
  }
  // A frame of a path format (pprof-like): function in a recorded file.
  FrameId path(std::string_view name, std::string_view file, int line) {
    Function f;
    f.name = b_.intern(name);
    f.system_name = f.name;
    f.file = b_.intern(file);
    return b_.frame(Frame{b_.function(f), line, -1, FrameKind::unknown});
  }
  void sample(std::string_view event, const std::vector<FrameId> &root_first,
              std::string_view thread = "main", int64_t time_ns = 0, int64_t count = 1,
              int64_t value = -1, int64_t tid = -1) {
    EventId e = b_.event(event, event == "alloc" ? "bytes" : "samples");
    ThreadId t = b_.thread(thread, tid);
    StackId s = b_.stack_from_root(root_first);
    b_.add_sample(e, s, t, time_ns, count, value < 0 ? count : value);
  }
  Metadata &metadata() { return b_.metadata(); }
  std::shared_ptr<const Profile> finish() {
    auto p = std::shared_ptr<const Profile>(b_.finish());
    return p;
  }

private:
  ProfileBuilder b_;
};

} // namespace hotlines::test
