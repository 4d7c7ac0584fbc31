#!/usr/bin/env bash
# Copies tests/fixtures/node-shop into a build folder (the source tree stays clean), installs its
# npm packages (typescript, esbuild, @types/node from package-lock.json) and compiles it twice:
# tsc into dist/ (one .js and .js.map per .ts) and esbuild into bundle/main.js (one bundle with
# its map). Usage: setup_shop.sh FIXTURE DEST
set -euo pipefail
src=$1 dest=$2
rm -rf "$dest"
mkdir -p "$dest"
tar -C "$src" --exclude=node_modules --exclude=dist --exclude=bundle -cf - . | tar -C "$dest" -xf -
cd "$dest"
npm ci --no-audit --no-fund --prefer-offline --loglevel=error
npx --no-install tsc -p .
npx --no-install esbuild src/main.ts --bundle --platform=node --sourcemap --outfile=bundle/main.js --log-level=warning
