#!/usr/bin/env bash
# Installs the VS Code test harness (code-server 4.100.3, Debian chromium, playwright-core,
# vsce) into $1 with ../shared/tools/vscode-harness/setup.sh — apt and npm only — unless it is
# there already, then stops the code-server setup.sh leaves running. Usage: harness.sh BASE SHARED
set -euo pipefail
base=$1
shared=$2
if [ -x "$base/cs.sh" ] && [ -f "$base/.installed" ]; then
  echo "harness present: $base"
  exit 0
fi
port=$((20000 + RANDOM % 20000))
BASE="$base" PORT="$port" DEMO=0 bash "$shared/tools/vscode-harness/setup.sh"
[ -f "$base/server.pid" ] && kill "$(cat "$base/server.pid")" 2>/dev/null || true
touch "$base/.installed"
