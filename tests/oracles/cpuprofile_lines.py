#!/usr/bin/env python3
"""The reference for hotlines' V8 .cpuprofile reader, written apart from it: per source line,
the samples and the time that landed on it as the leaf, with frames mapped through the
scripts' source maps (its own base64 VLQ decoder).

Usage: cpuprofile_lines.py PROFILE...   prints JSON {"samples", "total_ns",
                                        "lines": {"FILE:LINE": [samples, ns]}}
(several profiles, one per process of a run: their sums)

A profile X.cpuprofile written by hotlines' preload has X.scripts.json beside it: the source map
URL each script was compiled with ({"scripts": [{"url", "sourceMapURL"}]}, for code a test runner
transformed in memory); those are used instead of the comment in the file on disk.

The rules (README, "Formats"): samples in time order; each lasts until the next one (the last
until endTime); a node's samples take the lines of its positionTicks in time order, in the
order listed, ticks times each, and any left over its function's first line. A line maps
through the script's map at the line's first segment with a source (at the function's column
on the function's own first line); when it lands in another file than the function's first
line, or maps to nothing, the frame keeps the function's first line. A function's first
line that maps to nothing takes the next segment with a source.
"""
import base64
import json
import os
import sys
import urllib.parse

B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def decode_mappings(text):
    """Per generated line, its segments sorted by column: (column, source, line) or
    (column, None, None)."""
    out, src, line = [], 0, 0
    for group in text.split(";"):
        segs, col = [], 0
        for seg in filter(None, group.split(",")):
            nums, value, shift = [], 0, 0
            for ch in seg:
                digit = B64[ch]
                value += (digit & 31) << shift
                shift += 5
                if not digit & 32:
                    nums.append(-(value >> 1) if value & 1 else value >> 1)
                    value, shift = 0, 0
            col += nums[0]
            if len(nums) >= 4:
                src += nums[1]
                line += nums[2]
                segs.append((col, src, line))
            else:
                segs.append((col, None, None))
        out.append(sorted(segs, key=lambda s: s[0]))
    return out


MAPS = {}
KNOWN = {}  # url -> sourceMapURL, from the profiles' .scripts.json files


def script_path(url):
    if url.startswith("file://"):
        return urllib.parse.unquote(url[len("file://"):])
    return url if url.startswith("/") else None


def source_map(url):
    if url in MAPS:
        return MAPS[url]
    MAPS[url] = None
    path = script_path(url)
    if not path:
        return None
    if url in KNOWN:
        ref = KNOWN[url]
    else:
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8", errors="replace") as f:
            script = f.read()
        at = script.rfind("//# sourceMappingURL=")
        if at < 0:
            return None
        ref = script[at + len("//# sourceMappingURL="):].split()[0]
    if ref.startswith("data:"):
        doc, map_dir = json.loads(base64.b64decode(ref.split(",", 1)[1])), os.path.dirname(path)
    else:
        map_path = os.path.normpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(ref)))
        try:  # a map that cannot be read leaves the script unmapped (hotlines warns)
            with open(map_path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            return None
        map_dir = os.path.dirname(map_path)
    sources, lines = [], []
    for section in doc.get("sections") or [{"offset": {"line": 0, "column": 0}, "map": doc}]:
        part, off = section["map"], section["offset"]
        root = part.get("sourceRoot") or ""
        base = len(sources)
        sources += [os.path.normpath(os.path.join(map_dir, root + s)) for s in part["sources"]]
        for i, segs in enumerate(decode_mappings(part["mappings"])):
            at = off["line"] + i
            lines += [[] for _ in range(at + 1 - len(lines))]
            shift = off["column"] if i == 0 else 0
            lines[at] = sorted(lines[at] + [(c + shift, None if s is None else s + base, l)
                                            for c, s, l in segs], key=lambda s: s[0])
    MAPS[url] = (sources, lines)
    return MAPS[url]


def place(frame, line0, column, start=False):
    """(file, 1-based line) of a generated position; column None: the line's first mapping,
    a column below 0 (a wrapper's, as vitest's module function): the line's start. A function's
    start (start=True) that maps to nothing takes the next segment with a source; a tick that
    maps to nothing in a mapped script is (None, 0): it keeps the function's start line."""
    url = frame["url"]
    column = None if column is None else max(column, 0)
    unmapped = (script_path(url) or url, line0 + 1)
    m = source_map(url) if line0 >= 0 else None
    if not m:
        return unmapped
    if line0 >= len(m[1]):
        return unmapped if start else (None, 0)
    segs = m[1][line0]
    if column is None:
        hits = [s for s in segs if s[1] is not None][:1]
    else:
        hits = [s for s in segs if s[0] <= column][-1:]
    if start and (not hits or hits[0][1] is None):
        after = [s for l0, segs in enumerate(m[1][line0:], line0) for s in segs
                 if s[1] is not None and (l0 > line0 or s[0] >= column)][:1]
        hits = after
    if not hits or hits[0][1] is None:  # a tick that maps to nothing keeps the start line
        return unmapped if start else (None, 0)
    return m[0][hits[0][1]], hits[0][2] + 1


def add(path, lines, used, totals):
    with open(path) as f:
        prof = json.load(f)
    sidecar = path[: -len(".cpuprofile")] + ".scripts.json"
    if path.endswith(".cpuprofile") and os.path.isfile(sidecar):
        with open(sidecar) as f:
            for script in json.load(f)["scripts"]:
                KNOWN.setdefault(script["url"], script["sourceMapURL"])
    nodes = {n["id"]: n for n in prof["nodes"]}
    times, t = [], prof["startTime"]
    for d in prof["timeDeltas"]:
        t += d
        times.append(t)
    order = sorted(range(len(times)), key=lambda i: times[i])
    for k, i in enumerate(order):
        end = times[order[k + 1]] if k + 1 < len(order) else max(prof["endTime"], times[i])
        ns = (end - times[i]) * 1000
        totals[0] += 1
        totals[1] += ns
        node = nodes[prof["samples"][i]]
        frame = node["callFrame"]
        if not frame["url"]:
            continue
        start_file, start_line = place(frame, frame["lineNumber"], frame["columnNumber"], True)
        # Which positionTicks line this sample takes.
        n = used.get((path, node["id"]), 0)
        used[(path, node["id"])] = n + 1
        line = start_line
        for tick in node.get("positionTicks", []):
            if n < tick["ticks"]:
                l0 = tick["line"] - 1
                f, l = place(frame, l0, frame["columnNumber"] if l0 == frame["lineNumber"] else None)
                if f == start_file:
                    line = l
                break
            n -= tick["ticks"]
        row = lines.setdefault(f"{start_file}:{line}", [0, 0])
        row[0] += 1
        row[1] += ns


def main():
    lines, used, totals = {}, {}, [0, 0]
    for path in sys.argv[1:]:
        add(path, lines, used, totals)
    json.dump({"samples": totals[0], "total_ns": totals[1], "lines": lines}, sys.stdout, indent=1,
              sort_keys=True)


if __name__ == "__main__":
    main()
