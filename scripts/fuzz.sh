#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/*_fuzzer.cc) in build-fuzz (-DHOTLINES_FUZZ=ON: clang,
# ASan + UBSan; .ci/run builds and tests the whole suite there first) and runs each for SECONDS
# over a corpus seeded from its .seeds globs (relative to the repository root).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
dir=build-fuzz
ls tests/fuzz/*_fuzzer.cc >/dev/null 2>&1 || { echo "no fuzzers"; exit 0; }
cmake -S . -B $dir -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DHOTLINES_FUZZ=ON >/dev/null
for src in tests/fuzz/*_fuzzer.cc; do
  name=$(basename "$src" .cc)
  cmake --build $dir --target "$name" -j"$(nproc)"
  corpus=$dir/corpus/$name
  mkdir -p "$corpus"
  if [ -f "tests/fuzz/$name.seeds" ]; then
    while read -r glob; do
      [ -z "$glob" ] && continue
      for f in $glob; do [ -f "$f" ] && cp "$f" "$corpus/"; done
    done < "tests/fuzz/$name.seeds"
  fi
  echo "== $name for ${seconds}s"
  find $dir -name "$name" -type f -executable | head -1 | {
    read -r bin
    "$bin" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 "$corpus"
  }
done
