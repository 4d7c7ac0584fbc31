#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds, and runs the demo — the real
# server answering a scripted editor session on a bundled real profile.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
scripts/build.sh
(cd tests/client && npm ci --no-audit --no-fund --prefer-offline >/dev/null)
node scripts/demo.js build/hotlines
