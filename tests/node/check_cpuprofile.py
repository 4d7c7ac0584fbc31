#!/usr/bin/env python3
"""Checks hotlines' reading of a real .cpuprofile against tests/oracles/cpuprofile_lines.py:
every line of the given source files, self samples (--count) and self time (ns) equal, and the
hottest line is the one expected.

Usage: check_cpuprofile.py HOTLINES PROFILE HOT_FILE:LINE SOURCE...
"""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
hotlines, profile, hot, sources = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
oracle = json.loads(subprocess.check_output(
    [sys.executable, os.path.join(here, "..", "oracles", "cpuprofile_lines.py"), profile]))


def lines(source, measure):
    run = subprocess.run([hotlines, "lines", profile, "--file", source, "--json", measure],
                         stdout=subprocess.PIPE, text=True)
    if run.returncode == 3:  # no frame in that file: equal when the oracle has none either
        return {"total": oracle["total_ns" if measure == "--value" else "samples"]}, {}
    run.check_returncode()
    doc = json.loads(run.stdout)
    return doc["view"], {row["line"]: row["self"] for row in doc["lines"]}


failures = 0
for source in sources:
    view, by_ns = lines(source, "--value")
    cview, by_count = lines(source, "--count")
    if view["total"] != oracle["total_ns"] or cview["total"] != oracle["samples"]:
        print(f"FAIL totals: hotlines {cview['total']} samples {view['total']} ns, "
              f"oracle {oracle['samples']} samples {oracle['total_ns']} ns")
        failures += 1
    want = {int(k.rsplit(":", 1)[1]): v for k, v in oracle["lines"].items()
            if k.rsplit(":", 1)[0] == source}
    for line in sorted(set(want) | set(by_ns)):
        got = [by_count.get(line, 0), by_ns.get(line, 0)]
        ok = got == want.get(line, [0, 0])
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {source}:{line}  hotlines {got[0]} samples {got[1]} ns, "
              f"oracle {want.get(line, [0, 0])}")
top = max(oracle["lines"].items(), key=lambda kv: kv[1][1])
if top[0] != hot:
    print(f"FAIL the hottest line is {top[0]}, expected {hot}")
    failures += 1
print(f"{oracle['samples']} samples, {oracle['total_ns']} ns; hottest {top[0]} {top[1]}")
print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
