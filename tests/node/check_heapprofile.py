#!/usr/bin/env python3
"""Checks hotlines' reading of a real .heapprofile against the file itself, read here apart
from the reader: the total bytes (the tree's selfSize), and for every named function of the
project's scripts (URLs containing PROJECT) its bytes (selfSize summed over the tree), which
hotlines must show on the function of the same name in a .ts source.

Usage: check_heapprofile.py HOTLINES PROFILE PROJECT
"""
import json
import subprocess
import sys

hotlines, profile, project = sys.argv[1:4]
with open(profile) as f:
    doc = json.load(f)
total, mine, stack = 0, {}, [doc["head"]]
while stack:
    node = stack.pop()
    total += node["selfSize"]
    frame = node["callFrame"]
    if project in frame["url"] and frame["functionName"]:
        mine[frame["functionName"]] = mine.get(frame["functionName"], 0) + node["selfSize"]
    stack.extend(node["children"])
hot = json.loads(subprocess.check_output([hotlines, "hot", profile, "--json", "-n", "100000"]))
shown = {r["name"].split(" (")[0]: r for r in hot["functions"] if r["file"].endswith(".ts")}
checks = [
    (hot["view"]["event"] == "alloc" and hot["view"]["unit"] == "bytes", f"event {hot['view']['event']}"),
    (hot["view"]["total"] == total, f"total bytes: hotlines {hot['view']['total']}, file {total}"),
    (len(mine) > 0, f"{len(mine)} named project functions allocate"),
]
for name, size in sorted(mine.items()):
    got = shown.get(name, {}).get("self", 0) if size else 0
    checks.append((got == size, f"{name}: hotlines {got} bytes in {shown.get(name, {}).get('file')}, file {size}"))
failed = 0
for ok, what in checks:
    print(("ok   " if ok else "FAIL ") + what)
    failed += not ok
print(f"{len(checks) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
