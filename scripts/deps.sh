#!/usr/bin/env bash
# Installs the Debian packages hotlines needs that are missing (as root, or with sudo).
# Usage: scripts/deps.sh [build|test|ci]  — build: compile and demo; test: + the test
# toolchains (JDK, Go, Node, python3; JUnit 4 and 5, Gradle, Maven and the Maven plugins in
# Debian's /usr/share/maven-repo for the profiled-run tests; chromium with a font for the
# browser tests); ci: + clang and libFuzzer.
set -euo pipefail
level=${1:-build}
pkgs=(build-essential cmake ninja-build pkg-config git nlohmann-json3-dev libprotobuf-dev
      protobuf-compiler zlib1g-dev libuv1-dev libgtest-dev libgmock-dev libbenchmark-dev)
if [ "$level" != build ]; then
  pkgs+=(python3 openjdk-17-jdk-headless golang-go neovim junit4 junit5 maven gradle libsurefire-java
         libmaven-compiler-plugin-java libmaven-resources-plugin-java chromium fonts-dejavu-core)
  command -v node >/dev/null && command -v npm >/dev/null || pkgs+=(nodejs npm)
  pkgs+=(tmux) # the Neovim plugin's screen test runs Neovim inside tmux
fi
# The demo's scripted editor session runs in Node.
command -v node >/dev/null && command -v npm >/dev/null || pkgs+=(nodejs npm)
[ "$level" = ci ] && pkgs+=(clang libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
