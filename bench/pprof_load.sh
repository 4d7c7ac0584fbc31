#!/usr/bin/env bash
# End-to-end pprof load benchmark: builds pprof_load_bench, generates build/bench-data/
# pprof-1m.pb.gz (1,000,000 distinct stacks; kept between runs, not committed), then times
# `hotlines` loading it (file -> model) against `go tool pprof -top` on the same file in the
# same run and prints the ratio (target >= 5x), then the peak RSS of each (/usr/bin/time) loading
# that file: `hotlines info` and `go tool pprof -top`. HOTLINES_BUILD_DIR picks the build dir.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${HOTLINES_BUILD_DIR:-build}
[ -f "$dir/build.ninja" ] || [ -f "$dir/Makefile" ] || cmake -S . -B "$dir" -G Ninja >/dev/null
cmake --build "$dir" --target pprof_load_bench hotlines -j"$(nproc)"
command -v go >/dev/null || { echo "go not found: apt-get install golang-go" >&2; exit 1; }
bin=$(find "$dir" -name pprof_load_bench -type f -executable | head -1)
"$bin" --make build/bench-data
"$bin" --compare build/bench-data/pprof-1m.pb.gz
echo "== peak RSS loading build/bench-data/pprof-1m.pb.gz ($(du -m build/bench-data/pprof-1m.pb.gz | cut -f1) MB gzipped)"
rss() {
  /usr/bin/time -f "%e s, peak RSS %M KB" -o /tmp/pprof_load_rss.$$ "$@" > /dev/null
  echo "$*: $(< /tmp/pprof_load_rss.$$)"
  rm -f /tmp/pprof_load_rss.$$
}
rss "$dir/hotlines" info build/bench-data/pprof-1m.pb.gz
rss go tool pprof -top build/bench-data/pprof-1m.pb.gz
