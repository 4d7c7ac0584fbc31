#!/usr/bin/env bash
# End-to-end pprof load benchmark: builds pprof_load_bench, generates build/bench-data/
# pprof-1m.pb.gz (1,000,000 distinct stacks; kept between runs, not committed), then times
# `hotlines` loading it (file -> model) against `go tool pprof -top` on the same file in the
# same run and prints the ratio (target >= 5x). HOTLINES_BUILD_DIR picks the build dir.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${HOTLINES_BUILD_DIR:-build}
[ -f "$dir/build.ninja" ] || [ -f "$dir/Makefile" ] || cmake -S . -B "$dir" -G Ninja >/dev/null
cmake --build "$dir" --target pprof_load_bench -j"$(nproc)"
command -v go >/dev/null || { echo "go not found: apt-get install golang-go" >&2; exit 1; }
bin=$(find "$dir" -name pprof_load_bench -type f -executable | head -1)
"$bin" --make build/bench-data
"$bin" --compare build/bench-data/pprof-1m.pb.gz
