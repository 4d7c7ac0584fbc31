#!/usr/bin/env bash
# hotlines against the tools people use today, on the corpus of bench/corpus.sh (a busy JDK
# Flight Recorder file of 100+ chunks, a deep-stacks file from the JDK's recorder and, when
# async-profiler is installed, the same from async-profiler) and on bench/jfr_load.sh's file
# (concatenated copies of one small recording). Makes the files that are missing, then measures
# in one run, on each file, the tools alternated (round 1 runs every tool once, then round 2...;
# the best round counts), with the machine's load average printed at the start and the end:
#   - hotlines' load (read + parse + model) in `jfr_load_bench --load FILE` on 1 and 2 threads:
#     seconds, MB/s, bytes per sample, the process's peak RSS, and in the notes the seconds of
#     the index built after the load (what an editor's first requests read);
#   - end to end, `hotlines hot -e cpu FILE` and `hotlines hot -e alloc FILE`: wall seconds and
#     peak RSS (/usr/bin/time);
#   - peers, each "not installed" when absent: async-profiler's converter
#     (`jfrconv --cpu|--alloc -o collapsed FILE OUT`; found as $JFRCONV, in $ASYNC_PROFILER_HOME's
#     bin/ or build/bin/, or on PATH), ap-query (`ap-query hot -e cpu FILE`; $AP_QUERY or PATH),
#     and the JDK's `jfr summary FILE` and `jfr print --events jdk.ExecutionSample FILE`.
# Prints a markdown table: one row per file and tool, with each peer's time over hotlines' on
# the same file: over `hotlines hot -e alloc` for `jfrconv --alloc`, else over `hotlines hot -e
# cpu` (end to end, process against process; > 1 means the peer takes longer).
# Usage: bench/compare.sh [BUILD_DIR]   (default: build; needs hotlines and jfr_load_bench)
#   BENCH_DATA=DIR  where the files are (default BUILD_DIR/bench-data; see bench/corpus.sh)
#   ROUNDS=N        rounds per file (default 2)
set -euo pipefail

. "$(dirname "$0")/lib.sh"
need_build "${1:-}" bench/jfr_load_bench hotlines
bench=$build/bench/jfr_load_bench
hotlines=$build/hotlines
[ -x /usr/bin/time ] || { echo "missing /usr/bin/time (apt-get install time)" >&2; exit 1; }
export BENCH_DATA=${BENCH_DATA:-$build/bench-data}
rounds=${ROUNDS:-2}

echo "== load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
"$root/bench/corpus.sh" "$build"
"$root/bench/jfr_load.sh" --data-only "$build"
data=$(cd "$BENCH_DATA" && pwd)

# Peers.
jfrconv=${JFRCONV:-}
if [ -z "$jfrconv" ] && [ -n "${ASYNC_PROFILER_HOME:-}" ]; then
  for c in "$ASYNC_PROFILER_HOME/bin/jfrconv" "$ASYNC_PROFILER_HOME/build/bin/jfrconv"; do
    [ -x "$c" ] && { jfrconv=$c; break; }
  done
fi
[ -n "$jfrconv" ] || jfrconv=$(command -v jfrconv || true)
apquery=${AP_QUERY:-$(command -v ap-query || true)}
echo "== peers: jfrconv=${jfrconv:-not installed} ap-query=${apquery:-not installed}" \
  "jfr=$(command -v jfr || echo 'not installed')"

files=() labels=()
add() { [ -s "$1" ] && { files+=("$1"); labels+=("$2"); }; return 0; }
add "$data/jdk-busy.jfr" "JDK recorder, busy 16 threads, 100+ chunks"
add "$data/deep-stacks.jfr" "JDK recorder, deep stacks, 1-3 chunks"
add "$data/deep-stacks-ap.jfr" "async-profiler, deep stacks"
add "$data/jfr-bench.jfr" "concatenated copies of one small recording"

tools=(load1 load2 hot_cpu hot_alloc jfrconv_cpu jfrconv_alloc apquery jfr_summary jfr_print)
declare -A name=(
  [load1]="hotlines load (jfr_load_bench, 1 thread)"
  [load2]="hotlines load (jfr_load_bench, 2 threads)"
  [hot_cpu]='`hotlines hot -e cpu`'
  [hot_alloc]='`hotlines hot -e alloc`'
  [jfrconv_cpu]='`jfrconv --cpu -o collapsed`'
  [jfrconv_alloc]='`jfrconv --alloc -o collapsed`'
  [apquery]='`ap-query hot -e cpu`'
  [jfr_summary]='`jfr summary`'
  [jfr_print]='`jfr print --events jdk.ExecutionSample`'
)
declare -A secs rss extra
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s|.*[[:space:]]$1=\([^[:space:]]*\).*|\1|p" <<< "$2"; }

# Runs a command under /usr/bin/time; keeps the best time (and that run's peak RSS) per key.
timed() {
  local key=$1 s m
  shift
  if /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err"; then
    read -r s m < <(tail -1 "$tmp/time")
    if [ -z "${secs[$key]:-}" ] || awk -v a="$s" -v b="${secs[$key]}" 'BEGIN { exit !(a < b) }'; then
      secs[$key]=$s
      rss[$key]=$(awk -v k="$m" 'BEGIN { printf "%.0f", k / 1024 }')
    fi
  else
    secs[$key]=failed
    extra[$key]="exit $(sed -n 's/^Command exited with non-zero status //p' "$tmp/time"): $(head -c 120 "$tmp/err" | tr '\n' ' ')"
  fi
}

load() {
  local key=$1 threads=$2 f=$3 out s
  out=$("$bench" --load "$f" --threads "$threads")
  s=$(field seconds "$out")
  if [ -z "${secs[$key]:-}" ] || awk -v a="$s" -v b="${secs[$key]}" 'BEGIN { exit !(a < b) }'; then
    secs[$key]=$s
    rss[$key]=$(awk -v m="$(field peak_rss_MB "$out")" 'BEGIN { printf "%.0f", m }')
    extra[$key]="$(field bytes/sample "$out") B/sample, $(field samples "$out") samples, $(field cpu_seconds "$out") CPU s, then $(field index_seconds "$out") s of index (what an editor's first requests read)"
  fi
}

for i in "${!files[@]}"; do
  f=${files[$i]}
  echo "== measuring $f (${labels[$i]}), $rounds rounds"
  for ((r = 1; r <= rounds; r++)); do
    for t in "${tools[@]}"; do
      key="$i/$t"
      case $t in
        load1) load "$key" 1 "$f" ;;
        load2) load "$key" 2 "$f" ;;
        hot_cpu) timed "$key" "$hotlines" hot "$f" -e cpu ;;
        hot_alloc) timed "$key" "$hotlines" hot "$f" -e alloc ;;
        jfrconv_cpu | jfrconv_alloc)
          if [ -n "$jfrconv" ]; then
            timed "$key" "$jfrconv" "--${t#jfrconv_}" -o collapsed "$f" "$tmp/out.collapsed"
            rm -f "$tmp/out.collapsed"
          fi ;;
        apquery) [ -z "$apquery" ] || timed "$key" "$apquery" hot -e cpu "$f" ;;
        jfr_summary) timed "$key" jfr summary "$f" ;;
        jfr_print) timed "$key" jfr print --events jdk.ExecutionSample "$f" ;;
      esac
    done
  done
done

echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | tool | seconds | MB/s | peak RSS MB | peer time / hotlines time | notes |"
echo "|---|---|---:|---:|---:|---:|---|"
for i in "${!files[@]}"; do
  f=${files[$i]}
  mb=$(awk -v s="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", s / 1e6 }')
  for t in "${tools[@]}"; do
    key="$i/$t"
    s=${secs[$key]:-}
    base=${secs[$i/hot_cpu]:-}
    [ "$t" = jfrconv_alloc ] && base=${secs[$i/hot_alloc]:-}
    if [ -z "$s" ]; then
      row="not installed | | | |"
    elif [ "$s" = failed ]; then
      row="failed | | | | ${extra[$key]:-}"
    else
      ratio=""
      case $t in
        load* | hot_*) ;;
        *) [ -n "$base" ] && [ "$base" != failed ] &&
             ratio=$(awk -v a="$s" -v b="$base" 'BEGIN { if (b > 0) printf "%.2g×", a / b }') ;;
      esac
      rate=$(awk -v m="$mb" -v s="$s" 'BEGIN { if (s > 0) printf "%.0f", m / s }')
      row="$s | $rate | ${rss[$key]} | $ratio | ${extra[$key]:-}"
    fi
    echo "| $(basename "$f") ($mb MB; ${labels[$i]}) | ${name[$t]} | $row |"
  done
done
