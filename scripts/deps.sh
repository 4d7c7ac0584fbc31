#!/usr/bin/env bash
# Installs the Debian packages hotlines needs that are missing, in one apt transaction (as
# root, or with sudo), printing one line per group it installs and why; apt's own output goes
# to a log that is shown only when it fails.
# Usage: scripts/deps.sh [build|quick|test|ci]
#   build  compiler, libraries, perf and Node: build and run the demo
#   quick  + the reference tools of the unit and transcript tests (JDK's jfr, Go, python3,
#          rustc)
#   test   + every toolchain the full suite drives: Neovim, Emacs and tmux, JUnit, Maven, Gradle,
#          chromium, and what code-server's native modules compile against
#   ci     + clang and libFuzzer
set -euo pipefail
level=${1:-build}
case $level in build | quick | test | ci) ;; *) echo "usage: $0 [build|quick|test|ci]" >&2; exit 2 ;; esac

# "why: packages" per group, in the order of the levels above.
groups=("build hotlines: build-essential cmake ninja-build pkg-config git nlohmann-json3-dev
         libprotobuf-dev protobuf-compiler zlib1g-dev libuv1-dev libre2-dev libdw-dev libgtest-dev
         libgmock-dev libbenchmark-dev libiberty-dev"
        "reading perf.data (perf script): linux-perf")
command -v node >/dev/null && command -v npm >/dev/null ||
  groups+=("Node for the demo's scripted editor and the client tests: nodejs npm")
if [ "$level" != build ]; then
  groups+=("the JDK's jfr (the JFR oracle) and Java runs: openjdk-17-jdk-headless python3"
           "go tool pprof (the pprof oracle) and Go runs: golang-go"
           "the perf tests (real perf record of C++ and Rust builds; perf report's srcline uses
            addr2line): binutils rustc")
fi
if [ "$level" = test ] || [ "$level" = ci ]; then
  groups+=("Java test runs (JUnit 4 and 5, Maven with Debian's repository, Gradle): junit4
            junit5 maven gradle libsurefire-java libmaven-compiler-plugin-java
            libmaven-resources-plugin-java"
           "the Neovim tests (headless, and on screen in tmux): neovim tmux"
           "the Emacs tests (ERT in batch, eglot beside the package, on screen in tmux):
            emacs-nox elpa-eglot"
           "the browser and VS Code tests (headless chromium): chromium fonts-dejavu-core"
           "code-server's native modules (tests/vscode/install_harness.sh): libkrb5-dev
            libx11-dev libxkbfile-dev libsecret-1-dev ripgrep")
fi
[ "$level" = ci ] && groups+=("the libFuzzer targets: clang libclang-rt-14-dev")

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for g in "${groups[@]}"; do
  why=${g%%:*}
  need=()
  for p in ${g#*:}; do installed "$p" || need+=("$p"); done
  [ ${#need[@]} -eq 0 ] && continue
  echo "deps: for $why: ${need[*]}"
  missing+=("${need[@]}")
done
[ ${#missing[@]} -eq 0 ] && { echo "deps: everything for '$level' is installed"; exit 0; }

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
log=$(mktemp -t hotlines-apt.XXXXXX)
echo "deps: installing ${#missing[@]} packages with apt (log: $log)"
if ! { $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
  --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "deps: apt failed; the whole log is $log" >&2
  exit 1
fi
echo "deps: done ($(grep -c '^Setting up' "$log") packages set up with their dependencies)"
rm -f "$log"
