#!/usr/bin/env python3
"""The JFR oracle: reference aggregates of a JFR file computed from the JDK's own parser.

Usage: jfr_aggregate.py FILE.jfr [--event NAME] [--thread NAME] [--state S[,S...]]
                        [--from-ns NS] [--to-ns NS]

Runs `jfr print --json` (the JDK's reader, independent of ours) and sums its events into
events as the README's table (under "Formats") says: which JFR event type feeds which event,
with what count and value. The tests compare our reader and query engine with it.

Event types the table does not know whose metadata (`jfr metadata`) has a stackTrace field are
product events of their own, named by the type: counted, or weighted by their duration when
the type has one and some event lasted longer than 0; a type none of whose events has frames
is left out.

  --event NAME     only that product event (cpu, wall, alloc, alloc-sample, lock, ...), or
                   only the events of that JFR type (jdk.ThreadPark, under its product event)
  --thread NAME    only events of threads with that name (javaName, else osName)
  --state S,...    only events in these thread states (RUNNABLE or STATE_RUNNABLE, any case)
  --from-ns/--to-ns  only events whose startTime is in [from, to) (epoch nanoseconds)

Prints one JSON object keyed by product event, each with
  count, weight        samples (wall: the `samples` field) and summed value (bytes, ns, or count)
  threads              {thread name: count}
  states               {thread state without STATE_: count}; STATE_DEFAULT (async-profiler's
                       "no state") and events without a state field are left out
  self, total          {"dotted.Class.method": count}: leaf frame; once per sample per method;
                       a sample without frames (stackTrace null or empty) is the method
                       "[no stack]", as hotlines shows it
  lines_self, lines_total  {"pkg/Outer.java:LINE": count} for Java frames with a line
  self_value, total_value, lines_self_value, lines_total_value  the same summing values
"""
import argparse
import calendar
import collections
import json
import re
import subprocess
import sys
import time
from decimal import Decimal

# JFR event type -> (product event, how its count and value are read from the event).
# A value of None means "the count" (samples).
RULES = {
    "jdk.ExecutionSample": ("cpu", "one", None),
    "jdk.CPUTimeSample": ("cpu", "one", None),
    "profiler.WallClockSample": ("wall", "samples", None),
    "jdk.NativeMethodSample": ("native", "one", None),
    "jdk.ObjectAllocationInNewTLAB": ("alloc", "one", "tlab"),
    "jdk.ObjectAllocationOutsideTLAB": ("alloc", "one", "tlab"),
    "jdk.ObjectAllocationSample": ("alloc", "one", "weight"),
    "profiler.LiveObject": ("live", "one", "allocationSize"),
    "jdk.JavaMonitorEnter": ("lock", "one", "duration"),
    "jdk.ThreadPark": ("lock", "one", "duration"),
    "profiler.Malloc": ("nativemem", "one", "size"),
    "profiler.NativeLock": ("nativelock", "one", "duration"),
    "jdk.MethodTrace": ("trace", "one", "duration"),
}
TLAB_TYPES = ("jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB")
CPU_SETTINGS = ("cpu", "itimer", "ctimer", "cpu-clock")
JAVA_FRAME_TYPES = ("Interpreted", "JIT compiled", "Inlined", "C1 compiled")
DURATION = re.compile(r"^PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?[\d.]+)S)?$")


def jfr_events(path, types):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "8192", "--events",
                          ",".join(types), path], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["recording"]["events"]


def stack_types(path):
    """{JFR event type: whether it has a duration field} for the event types whose metadata has
    a stackTrace field, from `jfr metadata` (the JDK's printer of the file's own metadata)."""
    out = subprocess.run(["jfr", "metadata", path], check=True, capture_output=True, text=True)
    types, name, fields, current = {}, None, set(), None
    for line in out.stdout.splitlines():
        if line.startswith('@Name("'):
            name = line[len('@Name("'):line.index('")')]
        elif line.startswith("class ") and line.endswith(" extends jdk.jfr.Event {"):
            current, fields = name, set()
        elif line == "}":
            if current and "stackTrace" in fields:
                types[current] = "duration" in fields
            current = name = None
        elif current and line.startswith("  ") and line.endswith(";"):
            fields.add(line.strip().rstrip(";").split()[-1])
    return types


def execution_sample_name(path):
    """What jdk.ExecutionSample measures: async-profiler's `event` setting names it (cpu for
    the CPU timers, else a hardware counter); JDK recordings have none: cpu. Second: whether
    the samples in a thread state are wall-clock ones (async-profiler 2.x wrote cpu and wall
    both as jdk.ExecutionSample when the settings have a cpu `event` and a `wall` interval)."""
    name, wall = "cpu", False
    for e in jfr_events(path, ["jdk.ActiveSetting"]):
        setting, value = e["values"].get("name"), e["values"].get("value")
        if setting == "event" and value:
            name = "cpu" if value in CPU_SETTINGS else value
        if setting == "wall" and value:
            wall = True
    return name, wall and name == "cpu"


def state_name(v):
    """The sample's thread state without its STATE_ prefix; "" for none (or STATE_DEFAULT)."""
    state = v.get("state") or ""
    if isinstance(state, dict):
        state = state.get("name") or ""
    state = state[6:] if state.startswith("STATE_") else state
    return "" if state == "DEFAULT" else state


def nanoseconds(duration):
    """An ISO-8601 duration as `jfr print --json` writes it ("PT0.000000831S") in ns."""
    if isinstance(duration, (int, float)):
        return int(duration)
    m = DURATION.match(str(duration or ""))
    if not m:
        return 0
    h, mi, s = (Decimal(g) if g else Decimal(0) for g in m.groups())
    return int((h * 3600 + mi * 60 + s) * 1_000_000_000)


def epoch_ns(stamp):
    """'2026-11-21T05:27:44.741685871Z' in epoch nanoseconds, every digit kept."""
    whole, _, fraction = stamp.rstrip("Z").partition(".")
    seconds = calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S"))
    return seconds * 1_000_000_000 + int((fraction + "000000000")[:9])


def count_and_value(how_count, how_value, v):
    count = max(1, int(v.get("samples") or 1)) if how_count == "samples" else 1
    if how_value is None:
        return count, count
    if how_value == "tlab":
        return count, int(v.get("tlabSize") or 0) or int(v.get("allocationSize") or 0)
    if how_value == "duration":
        return count, nanoseconds(v.get("duration"))
    return count, int(v.get(how_value) or 0)


def thread_name(v):
    thread = v.get("sampledThread") or v.get("eventThread") or {}
    return thread.get("javaName") or thread.get("osName") or "?"


def frame_keys(frame):
    """(method key, line key or None) of one frame: "dotted.Class.method" and, for a Java frame
    with a line, the outer class's source path "pkg/Outer.java:LINE"."""
    method = frame.get("method") or {}
    cls = ((method.get("type") or {}).get("name") or "").replace("/", ".")
    name = method.get("name") or "?"
    key = cls + "." + name if cls else name
    line = frame.get("lineNumber") or 0
    if not cls or line <= 0 or frame.get("type") not in JAVA_FRAME_TYPES:
        return key, None
    return key, cls.split("$")[0].replace(".", "/") + ".java:" + str(line)


class Aggregate:
    MAPS = ("threads", "states", "self", "total", "lines_self", "lines_total",
            "self_value", "total_value", "lines_self_value", "lines_total_value")

    def __init__(self):
        self.count = self.weight = 0
        self.maps = {k: collections.Counter() for k in self.MAPS}

    def add(self, count, value, thread, state, frames):
        m = self.maps
        self.count += count
        self.weight += value
        m["threads"][thread] += count
        if state:
            m["states"][state] += count
        seen_methods, seen_lines = set(), set()
        if not frames:
            for k in ("self", "total"):
                m[k]["[no stack]"] += count
                m[k + "_value"]["[no stack]"] += value
        for depth, frame in enumerate(frames):
            method, line = frame_keys(frame)
            if depth == 0:
                m["self"][method] += count
                m["self_value"][method] += value
                if line:
                    m["lines_self"][line] += count
                    m["lines_self_value"][line] += value
            if method not in seen_methods:
                seen_methods.add(method)
                m["total"][method] += count
                m["total_value"][method] += value
            if line and line not in seen_lines:
                seen_lines.add(line)
                m["lines_total"][line] += count
                m["lines_total_value"][line] += value

    def to_json(self):
        out = {"count": self.count, "weight": self.weight}
        out.update({k: dict(v) for k, v in self.maps.items()})
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--event")
    ap.add_argument("--thread")
    ap.add_argument("--state")
    ap.add_argument("--from-ns", type=int)
    ap.add_argument("--to-ns", type=int)
    a = ap.parse_args()

    exec_name, split_wall = execution_sample_name(a.file)
    states = None
    if a.state is not None:
        states = {x.upper()[6:] if x.upper().startswith("STATE_") else x.upper()
                  for x in a.state.split(",") if x}
    rules = dict(RULES)
    own = {t: d for t, d in stack_types(a.file).items()
           if t not in RULES and t not in ("jdk.ActiveSetting", "jdk.JVMInformation")}
    events = jfr_events(a.file, list(RULES) + list(own))
    # A type of its own is weighted by duration when one of its events lasted, else counted;
    # it is left out when none of its events has frames.
    lasted, framed = set(), set()
    for e in events:
        if e["type"] in own:
            if nanoseconds(e["values"].get("duration")) > 0:
                lasted.add(e["type"])
            if ((e["values"].get("stackTrace") or {}).get("frames")):
                framed.add(e["type"])
    for t in own:
        rules[t] = (t, "one", "duration" if own[t] and t in lasted else None)
    has_tlab = any(e["type"] in TLAB_TYPES for e in events)
    aggregates = collections.defaultdict(Aggregate)
    for e in events:
        t, v = e["type"], e["values"]
        if t in own and t not in framed:
            continue
        product, how_count, how_value = rules[t]
        state = state_name(v)
        if t == "jdk.ExecutionSample":
            product = "wall" if split_wall and state else exec_name
        elif t == "jdk.ObjectAllocationSample" and has_tlab:
            product = "alloc-sample"  # the TLAB events already count these allocations
        if a.event is not None and product != a.event and t != a.event:
            continue
        if a.thread is not None and thread_name(v) != a.thread:
            continue
        if states is not None and state not in states:
            continue
        if a.from_ns is not None or a.to_ns is not None:
            start = epoch_ns(v["startTime"])
            if (a.from_ns is not None and start < a.from_ns) or (a.to_ns is not None and start >= a.to_ns):
                continue
        count, value = count_and_value(how_count, how_value, v)
        frames = (v.get("stackTrace") or {}).get("frames") or []
        aggregates[product].add(count, value, thread_name(v), state, frames)

    json.dump({k: g.to_json() for k, g in aggregates.items()}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
