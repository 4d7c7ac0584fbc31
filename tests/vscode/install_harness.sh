#!/usr/bin/env bash
# Installs the VS Code the extension tests drive into BASE (default build/vscode-harness):
# code-server 4.100.3 (VS Code 1.100 in the browser, the last release for Node 20) and
# playwright-core, pinned by tests/vscode/harness/package-lock.json, from the npm registry
# only, and BASE/cs.sh, which runs code-server with its settings, extensions and logs inside
# BASE. The Debian packages it builds with (g++, headers, ripgrep, chromium) come from
# `scripts/deps.sh test`. Skips the work when BASE already holds this lockfile's install.
#
# code-server's npm package normally finishes its install in a postinstall script, whose
# downloads (ripgrep and prebuilt native modules from GitHub) fail without that network; so
# the scripts are skipped and the same steps are done here: VS Code's own dependencies from
# its shrinkwrap, ripgrep from Debian, native modules compiled against Debian's Node headers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=${1:-$here/../../build/vscode-harness}
mkdir -p "$base"
base=$(cd "$base" && pwd)
stamp=$(cat "$here/harness/package-lock.json" "$0" | sha256sum | cut -c1-16)
if [ -x "$base/cs.sh" ] && [ "$(cat "$base/.installed" 2>/dev/null)" = "$stamp" ]; then
  echo "VS Code harness present: $base"
  exit 0
fi
for tool in node npm g++ make python3 rg; do
  command -v "$tool" >/dev/null || { echo "missing $tool: run scripts/deps.sh test" >&2; exit 1; }
done
[ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ] ||
  { echo "code-server 4.100 needs Node 20; this is $(node --version)" >&2; exit 1; }

# node-gyp builds against /usr/include/node instead of downloading headers; npx runs unasked.
export npm_config_nodedir=/usr npm_config_yes=true npm_config_audit=false npm_config_fund=false
step() { echo "== vscode harness: $*"; }

step "code-server and playwright-core from the lockfile (scripts skipped)"
rm -f "$base/.installed"
cp "$here/harness/package.json" "$here/harness/package-lock.json" "$base/"
(cd "$base" && npm ci --ignore-scripts --loglevel=error)
step "argon2 (code-server's password hashing) built from source"
(cd "$base" && npm rebuild argon2 --loglevel=error >/dev/null)

vscode="$base/node_modules/code-server/lib/vscode"
step "VS Code's own modules, as its shrinkwrap pins them"
# `npm install`, not `npm ci`: the shrinkwrap code-server ships lacks one of its entries.
(cd "$vscode" && npm install --omit=dev --ignore-scripts --loglevel=error >/dev/null)
# @vscode/ripgrep's install script downloads rg; with bin/rg present it has nothing to do.
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
ln -sf "$(command -v rg)" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
step "native modules (node-pty, spdlog, kerberos, watchdog, deviceid) compiled"
(cd "$vscode" && npm rebuild --loglevel=error >/dev/null)
# What code-server's postinstall links: the unpacked asar and the platform's helper scripts.
ln -sfn node_modules "$vscode/node_modules.asar"
ln -sf code-linux.sh "$vscode/bin/remote-cli/code-server"
ln -sf browser-linux.sh "$vscode/bin/helpers/browser.sh"
step "built-in extensions' modules (the TypeScript service)"
(cd "$vscode/extensions" && npm install --omit=dev --loglevel=error >/dev/null)
(cd "$vscode" && node -e '
  for (const m of ["@parcel/watcher", "@vscode/spdlog", "kerberos", "native-watchdog", "node-pty", "@vscode/deviceid"])
    require(m);')

mkdir -p "$base/ud/User" "$base/ext" "$base/xdg/config" "$base/xdg/data"
cat >"$base/cs.sh" <<EOF
#!/bin/sh
# code-server with its user data, extensions, config and logs inside $base.
exec env XDG_CONFIG_HOME="$base/xdg/config" XDG_DATA_HOME="$base/xdg/data" \\
  "$base/node_modules/.bin/code-server" --config "$base/config.yaml" \\
  --user-data-dir "$base/ud" --extensions-dir "$base/ext" "\$@"
EOF
chmod +x "$base/cs.sh"
"$base/cs.sh" --version 2>/dev/null | grep -m1 "with Code"
echo "$stamp" >"$base/.installed"
step "installed in $base"
