#!/usr/bin/env python3
"""Reference aggregates for a JFR file, computed from the JDK's own `jfr print --json`.

Usage: query_jfr_aggregate.py FILE.jfr [--event NAME] [--top N] [--thread NAME]
                              [--from-ns EPOCH_NS] [--to-ns EPOCH_NS]

A copy of ../shared/oracles/jfr-aggregate extended for the query tests: --thread keeps the
events of threads with that name (javaName, else osName), --from-ns/--to-ns keep events whose
startTime is in [from, to) (epoch nanoseconds).

Prints JSON: for every product event (cpu, wall, alloc, lock, live, nativemem, ...)
  count          number of samples (wall: sum of the `samples` field)
  weight         sum of the event's weight (alloc/live: bytes, lock: nanoseconds, else = count)
  threads        {thread name: count}
  self / total   {method: count}  self = leaf frame, total = once per sample per method
  lines_self / lines_total {"pkg/Outer.java:LINE": count} for Java frames with a line number
  self_value, total_value, lines_self_value, lines_total_value: the same, summing the value
Method keys are "dotted.Class.method" (inner classes keep their $ suffix).
The mapping of JFR event types to product events is the one in docs/architecture.md;
jdk.ExecutionSample is named by the recording's `event` ActiveSetting (hardware counters
keep their own names, cpu/itimer/ctimer/cpu-clock are "cpu").
"""
import json, subprocess, sys, collections, argparse, calendar, time

TYPES = {
    "jdk.ExecutionSample": "cpu", "jdk.CPUTimeSample": "cpu",
    "profiler.WallClockSample": "wall", "jdk.NativeMethodSample": "native",
    "jdk.ObjectAllocationInNewTLAB": "alloc", "jdk.ObjectAllocationOutsideTLAB": "alloc",
    "jdk.ObjectAllocationSample": "alloc", "profiler.LiveObject": "live",
    "jdk.JavaMonitorEnter": "lock", "jdk.ThreadPark": "lock",
    "profiler.Malloc": "nativemem", "profiler.NativeLock": "nativelock",
    "jdk.MethodTrace": "trace",
}

def weight(t, v):
    if t == "profiler.WallClockSample":
        return max(1, int(v.get("samples") or 1)), None
    if t in ("jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB"):
        tl = int(v.get("tlabSize") or 0)
        return 1, tl if tl else int(v.get("allocationSize") or 0)
    if t == "jdk.ObjectAllocationSample":
        return 1, int(v.get("weight") or 0)
    if t == "profiler.LiveObject":
        return 1, int(v.get("allocationSize") or 0)
    if t == "profiler.Malloc":
        return 1, int(v.get("size") or 0)
    if t in ("jdk.JavaMonitorEnter", "jdk.ThreadPark", "profiler.NativeLock", "jdk.MethodTrace"):
        return 1, duration_ns(v.get("duration"))
    return 1, None

def duration_ns(d):
    # jfr print --json renders durations like "PT0.000123S" (ISO-8601) or as numbers
    if d is None: return 0
    if isinstance(d, (int, float)): return int(d)
    s = str(d)
    if s.startswith("PT") and s.endswith("S"):
        body, total = s[2:-1], 0.0
        for unit, mult in (("H", 3600), ("M", 60)):
            if unit in body:
                n, body = body.split(unit, 1); total += float(n) * mult
        return int(round((total + float(body or 0)) * 1e9))
    return 0

def execution_sample_name(path):
    """async-profiler names what jdk.ExecutionSample measures in an `event` ActiveSetting."""
    out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ActiveSetting", path],
                         check=True, capture_output=True, text=True).stdout
    for e in json.loads(out)["recording"]["events"]:
        v = e["values"]
        if v.get("name") == "event" and v.get("value"):
            val = v["value"]
            return "cpu" if val in ("cpu", "itimer", "ctimer", "cpu-clock") else val
    return "cpu"

def thread_name(v):
    th = v.get("sampledThread") or v.get("eventThread") or {}
    return th.get("javaName") or th.get("osName") or "?"

def frame_keys(f):
    m = f.get("method") or {}
    cls = ((m.get("type") or {}).get("name") or "").replace("/", ".")
    meth = m.get("name") or "?"
    key = (cls + "." + meth) if cls else meth
    line = f.get("lineNumber") or 0
    src = None
    if cls and line > 0 and f.get("type") in ("Interpreted", "JIT compiled", "Inlined", "C1 compiled"):
        outer = cls.split("$")[0]
        src = outer.replace(".", "/") + ".java:" + str(line)
    return key, src

def epoch_ns(iso):
    """'2026-11-21T05:27:44.741685871Z' -> epoch nanoseconds, without losing digits."""
    s = iso.rstrip("Z")
    whole, _, frac = s.partition(".")
    secs = calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S"))
    return secs * 1000000000 + int((frac + "000000000")[:9])

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file"); ap.add_argument("--event"); ap.add_argument("--top", type=int, default=0)
    ap.add_argument("--thread"); ap.add_argument("--from-ns", type=int); ap.add_argument("--to-ns", type=int)
    a = ap.parse_args()
    exec_name = execution_sample_name(a.file)
    types = [t for t, e in TYPES.items() if a.event in (None, e, exec_name if t == "jdk.ExecutionSample" else None)]
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "8192", "--events", ",".join(types), a.file],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    agg = collections.defaultdict(lambda: {"count": 0, "weight": 0, "threads": collections.Counter(),
        "self": collections.Counter(), "total": collections.Counter(),
        "lines_self": collections.Counter(), "lines_total": collections.Counter(),
        "self_value": collections.Counter(), "total_value": collections.Counter(),
        "lines_self_value": collections.Counter(), "lines_total_value": collections.Counter()})
    for e in events:
        t, v = e["type"], e["values"]
        name = exec_name if t == "jdk.ExecutionSample" else TYPES.get(t)
        if name is None: continue
        if a.thread is not None and thread_name(v) != a.thread: continue
        if a.from_ns is not None or a.to_ns is not None:
            ts = epoch_ns(v["startTime"])
            if a.from_ns is not None and ts < a.from_ns: continue
            if a.to_ns is not None and ts >= a.to_ns: continue
        n, w = weight(t, v)
        w = n if w is None else w
        g = agg[name]
        g["count"] += n; g["weight"] += w
        g["threads"][thread_name(v)] += n
        frames = ((v.get("stackTrace") or {}).get("frames")) or []
        seen_m, seen_l = set(), set()
        for i, f in enumerate(frames):
            k, src = frame_keys(f)
            if i == 0:
                g["self"][k] += n; g["self_value"][k] += w
                if src: g["lines_self"][src] += n; g["lines_self_value"][src] += w
            if k not in seen_m:
                seen_m.add(k); g["total"][k] += n; g["total_value"][k] += w
            if src and src not in seen_l:
                seen_l.add(src); g["lines_total"][src] += n; g["lines_total_value"][src] += w
    res = {}
    for name, g in agg.items():
        r = {"count": g["count"], "weight": g["weight"]}
        for k in ("threads", "self", "total", "lines_self", "lines_total",
                  "self_value", "total_value", "lines_self_value", "lines_total_value"):
            items = g[k].most_common(a.top or None)
            r[k] = dict(items)
        res[name] = r
    json.dump(res, sys.stdout, indent=1, sort_keys=True); print()

if __name__ == "__main__":
    main()
