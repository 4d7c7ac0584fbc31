// `hotlines info FILE`: what a profile holds (a first version; the query issue extends it).
#include "formats/loader.h"
#include "server/cli.h"

#include <cstdio>

namespace hotlines {

int cli_info(const std::vector<std::string> &args) {
  if (args.size() != 1) {
    fprintf(stderr, "usage: hotlines info FILE\n");
    return kExitUsage;
  }
  LoadResult r = load_profile_file(args[0]);
  if (!r.ok()) {
    fprintf(stderr, "hotlines: %s\n", r.describe().c_str());
    return kExitInput;
  }
  const Profile &p = *r.profile;
  printf("format     %s\nproducer   %s\nsamples    %zu\nthreads    %zu\n",
         p.metadata.format.c_str(), p.metadata.producer.c_str(), p.sample_count(),
         p.threads.size());
  for (const Event &e : p.events)
    printf("event      %-10s count %lld  value %lld %s\n", std::string(p.str(e.name)).c_str(),
           static_cast<long long>(e.total_count), static_cast<long long>(e.total_value),
           std::string(p.str(e.unit)).c_str());
  for (const LoadWarning &w : p.metadata.warnings) printf("warning    %s\n", w.message.c_str());
  return kExitOk;
}

} // namespace hotlines
