# Shared by the bench scripts (sourced, not run): the checkout in $root, and checks for what a
# script needs before it starts.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# need_build DIR TARGET...: sets $build to DIR (default $root/build) and checks that each
# target (a path in it: bench/jfr_load_bench, hotlines) is built.
need_build() {
  build=$(cd "${1:-$root/build}" && pwd)
  shift
  local target
  for target in "$@"; do
    [ -x "$build/$target" ] || {
      echo "missing $build/$target: build the ${target##*/} target" >&2
      exit 1
    }
  done
}

# need_tools TOOL...: checks that each is on PATH (java, javac and jfr come with a JDK).
need_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" > /dev/null || { echo "missing $tool (a JDK is needed)" >&2; exit 1; }
  done
}
