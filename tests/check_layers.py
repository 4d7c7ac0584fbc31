#!/usr/bin/env python3
"""The server's layers, checked: every #include "..." in server/ (and formats/, protocol/)
must point down the dependency order of README's Layout section, never up or sideways.

  formats   <- nothing          protocol <- nothing
  engine    <- formats          sources  <- engine
  runs      <- protocol         web      <- engine, sources
  cli       <- engine, sources, web
  lsp       <- engine, sources, runs, web, protocol
  server/main.cc <- cli, lsp

The unit tests mirror those folders (tests/unit/<layer>/) and are held to the same order:
a test includes its own layer and those below, directly or through the shared helpers in
tests/unit/ (whose layer is the highest they include).

Also: engine/ includes neither nlohmann/json nor uv.h. Exits 1 listing each violation.
"""
import os
import re
import sys

ALLOWED = {
    "formats": {"formats"},
    "protocol": {"protocol"},
    "engine": {"engine", "formats"},
    "sources": {"sources", "engine", "formats"},
    "runs": {"runs", "protocol", "formats"},
    "web": {"web", "engine", "sources", "formats"},
    "cli": {"cli", "engine", "sources", "web", "formats"},
    "lsp": {"lsp", "engine", "sources", "runs", "web", "protocol", "formats"},
    "main": {"cli", "lsp", "engine", "sources", "runs", "web", "protocol", "formats"},
}
FORBIDDEN_SYSTEM = {"engine": ("nlohmann/", "uv.h")}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


# The shared test helpers in tests/unit/, by the layer they reach.
TEST_HELPERS = {
    "test_util.h": "formats",
    "test_profile.h": "formats",
    "query_test_util.h": "engine",
    "source_test_util.h": "sources",
}


def layer_of(path):
    parts = path.split("/")
    if parts[0] in ("formats", "protocol"):
        return parts[0]
    if parts[0] == "server":
        return "main" if len(parts) == 2 else parts[1]
    if parts[:2] == ["tests", "unit"]:
        return parts[2] if len(parts) == 4 else TEST_HELPERS.get(parts[2])
    if len(parts) == 1:
        return TEST_HELPERS.get(parts[0])
    return None


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = []
    for top in ("formats", "protocol", "server", "tests/unit"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if not name.endswith((".h", ".cc")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                layer = layer_of(rel)
                if layer is None:
                    bad.append(f"{rel}: in no layer (tests/unit/<layer>/, or a helper listed)")
                    continue
                with open(os.path.join(root, rel), encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        kind, target = m.groups()
                        if kind == "<":
                            if not rel.startswith("tests/") and any(target.startswith(x) for x in FORBIDDEN_SYSTEM.get(layer, ())):
                                bad.append(f"{rel}:{n}: {layer} includes <{target}>")
                            continue
                        to = layer_of(target)
                        if to is not None and to not in ALLOWED[layer]:
                            bad.append(f"{rel}:{n}: {layer} includes {target} ({to})")
    for b in bad:
        print(b)
    print(f"{len(bad)} include(s) against the layer order")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
