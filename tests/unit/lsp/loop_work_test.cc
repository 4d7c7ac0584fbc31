// LoopWork on a real libuv loop: what a worker job, its `done` or a posted closure throws is
// reported (an internal Failure to `done`, the reason to the uncaught handler), and the loop
// goes on with the next job instead of the process aborting.
#include "server/lsp/loop_work.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace hotlines {
namespace {

TEST(LoopWork, ThrowingJobsAreReportedAndTheLoopGoesOn) {
  for (bool sync : {false, true}) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    std::vector<std::string> seen, uncaught;
    {
      LoopWork work(&loop, sync);
      work.set_on_uncaught([&](const std::string &why) { uncaught.push_back(why); });
      work.queue([] { throw std::bad_alloc(); },
                 [&](const Failure *thrown) {
                   ASSERT_NE(thrown, nullptr);
                   EXPECT_EQ(thrown->kind, Failure::Kind::internal);
                   EXPECT_EQ(thrown->rpc().code, kInternalError);
                   seen.push_back(thrown->message);
                 });
      work.queue([] { throw std::runtime_error("disk on fire"); },
                 [&](const Failure *thrown) { seen.push_back(thrown ? thrown->message : "ok"); });
      work.queue([] {}, [&](const Failure *) { throw std::logic_error("done broke"); });
      work.post([] { throw std::out_of_range("posted broke"); });
      int after = 0;
      work.queue([&] { after = 1; },
                 [&](const Failure *thrown) { seen.push_back(thrown ? "thrown" : "ok"); });
      work.close();
      uv_run(&loop, UV_RUN_DEFAULT);
      EXPECT_EQ(after, 1);
    }
    std::sort(seen.begin(), seen.end()); // worker jobs finish in any order
    EXPECT_EQ(seen, (std::vector<std::string>{"internal error: disk on fire",
                                              "internal error: out of memory", "ok"}))
        << (sync ? "sync" : "async");
    std::sort(uncaught.begin(), uncaught.end());
    EXPECT_EQ(uncaught, (std::vector<std::string>{"done broke", "posted broke"}));
    uv_loop_close(&loop);
  }
}

} // namespace
} // namespace hotlines
