#!/usr/bin/env python3
"""Checks the shape of a source tree: no include cycle between modules, no big source file.

A module is x.c together with x.h (one node, named by its path without the extension). Every
`#include "..."` of another module is an edge. Every elementary cycle of that graph is listed,
and every .c/.h file over --max-lines lines; either fails (exit 1). tests/, hidden directories
and build trees (a directory holding CMakeCache.txt) are not scanned.

usage: include-graph.py [--max-lines N] [--expect FILE] ROOT
With --expect, the findings must be exactly the lines of FILE (in any order): how the test
checks that a planted fixture is rejected, and for what.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from srctree import sources  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module(path):
    return os.path.splitext(path)[0]


def resolve(root, path, name):
    """The included file's path relative to root: as the build finds it (the source root is
    on the include path), else beside the including file."""
    beside = os.path.normpath(os.path.join(os.path.dirname(path), name))
    if not os.path.exists(os.path.join(root, name)) and \
            os.path.exists(os.path.join(root, beside)):
        return beside
    return os.path.normpath(name)


def graph(root, files):
    edges = {}
    for path in files:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        src = module(path)
        edges.setdefault(src, set())
        for name in INCLUDE.findall(text):
            dst = module(resolve(root, path, name))
            if dst != src:
                edges[src].add(dst)
                edges.setdefault(dst, set())
    return edges


def cycles(edges):
    """Every elementary cycle once, as a node list starting at its smallest node."""
    found = []
    nodes = sorted(edges)
    for i, start in enumerate(nodes):
        allowed = set(nodes[i:])
        stack = [(start, iter(sorted(edges[start] & allowed)))]
        path, on_path = [start], {start}
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                on_path.discard(path.pop())
            elif nxt == start:
                found.append(list(path))
            elif nxt not in on_path:
                path.append(nxt)
                on_path.add(nxt)
                stack.append((nxt, iter(sorted(edges[nxt] & allowed))))
    return found


def findings(root, max_lines):
    files = list(sources(root))
    out = []
    for c in cycles(graph(root, files)):
        out.append("include cycle: " + " -> ".join(c + [c[0]]))
    for path in files:
        with open(os.path.join(root, path), "rb") as f:
            n = sum(1 for _ in f)
        if n > max_lines:
            out.append("over %d lines: %s (%d)" % (max_lines, path, n))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-lines", type=int, default=1000)
    ap.add_argument("--expect")
    ap.add_argument("root")
    a = ap.parse_args()
    got = findings(a.root, a.max_lines)
    if a.expect:
        with open(a.expect, encoding="utf-8") as f:
            want = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        if sorted(got) == sorted(want):
            print("include-graph: the fixture is rejected for exactly:")
            print("\n".join("  " + l for l in sorted(got)))
            return 0
        print("include-graph: expected findings differ", file=sys.stderr)
        for l in sorted(set(want) - set(got)):
            print("  missing: " + l, file=sys.stderr)
        for l in sorted(set(got) - set(want)):
            print("  unexpected: " + l, file=sys.stderr)
        return 1
    for l in got:
        print(l)
    if got:
        print("include-graph: %d finding(s) in '%s'" % (len(got), a.root), file=sys.stderr)
        return 1
    print("include-graph: no include cycle, no file over %d lines" % a.max_lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
