#!/usr/bin/env bash
# A real `node --cpu-prof` run of the node-shop fixture, compiled by tsc (one map per file) and
# by esbuild (one bundle), read by hotlines and by the oracle: equal per .ts line. Then a
# `node --heap-prof` run of the tsc build: bytes as the file's tree has them, on the .ts source.
# Usage: cpuprofile_oracle_test.sh HOTLINES SHOP (SHOP prepared by setup_shop.sh)
set -euo pipefail
hotlines=$1 shop=$2
here=$(cd "$(dirname "$0")" && pwd)
for build in dist/src/main.js bundle/main.js; do
  out=$shop/profiles/$(basename "$(dirname "$build")")
  rm -rf "$out"
  (cd "$shop" && node --cpu-prof --cpu-prof-dir="$out" --cpu-prof-name=main.cpuprofile "$build" 800000)
  echo "== $build"
  "$hotlines" info "$out/main.cpuprofile" | head -3
  python3 "$here/check_cpuprofile.py" "$hotlines" "$out/main.cpuprofile" "$shop/src/pricing.ts:12" \
    "$shop/src/pricing.ts" "$shop/src/cart.ts" "$shop/src/main.ts"
  # gzip is transparent
  gzip -kf "$out/main.cpuprofile"
  "$hotlines" info "$out/main.cpuprofile.gz" | grep -q "^format     cpuprofile"
done
out=$shop/profiles/heap
rm -rf "$out"
(cd "$shop" && node --heap-prof --heap-prof-dir="$out" --heap-prof-name=main.heapprofile \
  --heap-prof-interval=256 dist/src/main.js 300000)
echo "== heap profile of dist/src/main.js"
python3 "$here/check_heapprofile.py" "$hotlines" "$out/main.heapprofile" "$shop/dist/"
