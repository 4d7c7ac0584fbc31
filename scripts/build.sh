#!/usr/bin/env bash
# Configures and builds hotlines into build/ (Release with debug info, warnings as errors).
# Extra arguments go to cmake, e.g. scripts/build.sh -DHOTLINES_SANITIZE=address,undefined
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${HOTLINES_BUILD_DIR:-build}
cmake -S . -B "$dir" -G Ninja -DHOTLINES_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
