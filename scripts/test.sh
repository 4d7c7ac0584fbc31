#!/usr/bin/env bash
# Quick start, command 2: installs the test toolchains if missing, builds, runs every test.
#   scripts/test.sh            the whole suite (what CI runs)
#   scripts/test.sh --quick    the unit and transcript tests alone (ctest label `unit`), with
#                              only the toolchains they need: about a minute on a built tree
# Other arguments go to ctest (e.g. -R Transcript). HOTLINES_BUILD_DIR picks the build dir,
# HOTLINES_CMAKE_ARGS adds cmake arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
level=test
ctest_args=()
for a in "$@"; do
  if [ "$a" = --quick ]; then
    level=quick
    ctest_args+=(-L unit)
  else
    ctest_args+=("$a")
  fi
done
scripts/deps.sh "$level"
scripts/build.sh ${HOTLINES_CMAKE_ARGS:-}
ctest --test-dir "${HOTLINES_BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" "${ctest_args[@]}"
