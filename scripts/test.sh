#!/usr/bin/env bash
# Quick start, command 2: installs the test toolchains if missing, builds, runs every test.
# Extra arguments go to ctest (e.g. -R Transcript). HOTLINES_BUILD_DIR picks the build dir.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
scripts/build.sh ${HOTLINES_CMAKE_ARGS:-}
ctest --test-dir "${HOTLINES_BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" "$@"
