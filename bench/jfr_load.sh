#!/usr/bin/env bash
# End-to-end JFR load benchmark. Records a real JDK Flight Recorder file from a busy
# multi-threaded program (1 ms execution sampling, allocation, monitor and park events; see
# bench/jfr_load_workload.java), concatenates copies of it to >= 200 MB under
# BUILD/bench-data/ (not committed, reused when present), then measures in one run:
#   - hotlines: read + parse + model, and the query index, on 1 and 2 threads (best of 3):
#     MB/s (wall and per CPU second), samples/s, bytes/sample, peak heap;
#   - peak RSS of `hotlines info FILE` (the file is read into memory: its bytes count in RSS);
#   - the JDK's `jfr summary` and `jfr print --events jdk.ExecutionSample` on the same file,
#     and the ratios.
# Copies of one recording, not different recordings: the JDK's parser reuses constant-pool
# entries across chunks by key, so `jfr print` mixes up (and may crash on) concatenations of
# different recordings; hotlines reads each chunk with its own pools.
# Usage: bench/jfr_load.sh [--data-only] [BUILD_DIR]   (default: build; needs jfr_load_bench and
#   hotlines). --data-only makes the file and measures nothing (bench/compare.sh uses it);
#   BENCH_DATA=DIR keeps the file in DIR instead of BUILD_DIR/bench-data.
set -euo pipefail

data_only=false
if [ "${1:-}" = --data-only ]; then data_only=true; shift; fi
. "$(dirname "$0")/lib.sh"
need_build "${1:-}" bench/jfr_load_bench hotlines
need_tools java javac jfr
bench=$build/bench/jfr_load_bench
hotlines=$build/hotlines

data=${BENCH_DATA:-$build/bench-data}
big=$data/jfr-bench.jfr
target=$((200 * 1000 * 1000))
mkdir -p "$data"

if [ ! -s "$big" ] || [ "$(stat -c %s "$big")" -lt $target ]; then
  echo "== recording (about a minute)"
  work=$data/workload
  mkdir -p "$work"
  cp "$root/bench/jfr_load_workload.java" "$work/Workload.java"
  javac -d "$work" "$work/Workload.java"
  cat > "$work/bench.jfc" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event>
  <event name="jdk.NativeMethodSample"><setting name="enabled">true</setting><setting name="period">20 ms</setting></event>
  <event name="jdk.ObjectAllocationInNewTLAB"><setting name="enabled">true</setting><setting name="stackTrace">true</setting></event>
  <event name="jdk.ObjectAllocationOutsideTLAB"><setting name="enabled">true</setting><setting name="stackTrace">true</setting></event>
  <event name="jdk.ObjectAllocationSample"><setting name="enabled">true</setting><setting name="stackTrace">true</setting><setting name="throttle">1000/s</setting></event>
  <event name="jdk.JavaMonitorEnter"><setting name="enabled">true</setting><setting name="stackTrace">true</setting><setting name="threshold">0 ms</setting></event>
  <event name="jdk.ThreadPark"><setting name="enabled">true</setting><setting name="stackTrace">true</setting><setting name="threshold">0 ms</setting></event>
  <event name="jdk.JVMInformation"><setting name="enabled">true</setting><setting name="period">beginChunk</setting></event>
</configuration>
EOF
  # One recording of 8 threads for 30 s, default 12 MB chunks.
  (cd "$work" && java -XX:StartFlightRecording=filename=$data/recording.jfr,settings=bench.jfc Workload 30 8 > /dev/null)
  rm -f "$big"
  while [ ! -s "$big" ] || [ "$(stat -c %s "$big")" -lt $target ]; do
    cat "$data/recording.jfr" >> "$big"
  done
fi

$data_only && exit 0

size=$(stat -c %s "$big")
echo "== file: $big"
echo "size_MB=$(awk "BEGIN{printf \"%.1f\", $size/1e6}") $(jfr summary "$big" | grep -E '^ Chunks:' | tr -s ' ')"
jfr summary "$big" | grep -E 'jdk\.(ExecutionSample|ObjectAllocation|JavaMonitorEnter|ThreadPark|NativeMethodSample) ' || true

echo "== hotlines (read + parse + model; then the query index), best of 3"
one=$("$bench" --load "$big" --threads 1 --repeat 3)
two=$("$bench" --load "$big" --threads 2 --repeat 3)
echo "$one"
echo "$two"
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<< "$2"; }
t1=$(field seconds "$one")
t2=$(field seconds "$two")

echo "== peak RSS of hotlines info (the file read into memory counts in RSS)"
/usr/bin/time -f "hotlines_info_seconds=%e peak_rss_MB=%M" "$hotlines" info "$big" 2>&1 > /dev/null |
  awk -F'peak_rss_MB=' '{ if (NF > 1) printf "%speak_rss_MB=%.1f\n", $1, $2/1024; else print }'

echo "== the JDK's tools on the same file"
seconds() { # elapsed seconds of a command whose output is discarded; fails with it
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}
ts=$(seconds jfr summary "$big")
tp=$(seconds jfr print --events jdk.ExecutionSample "$big")
echo "jfr_summary_seconds=$ts jfr_print_execution_samples_seconds=$tp"
awk -v ts="$ts" -v tp="$tp" -v t1="$t1" -v t2="$t2" 'BEGIN {
  printf "ratio jfr_summary/hotlines: %.1fx (1 thread) %.1fx (2 threads)\n", ts / t1, ts / t2
  printf "ratio jfr_print/hotlines:   %.1fx (1 thread) %.1fx (2 threads)\n", tp / t1, tp / t2
}'
