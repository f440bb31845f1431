#!/usr/bin/env python3
"""Checks that the unit tests mirror the source folders.

A unit test is a file tests/AREA/test_NAME.c or tests/AREA/test-NAME.c. The source it tests is
the first path DIR/FILE (DIR a top-level source folder: one that holds a CMakeLists.txt and is
not tests/) named in the file's leading comment ("Unit tests of core/machine.c"), else the first
such path it includes. That module must exist (x.c or x.h, either names it), and the test must sit
in tests/DIR/, or in a topic folder of tests/ kept for the one module it is named after (TOPICS
below: tests/cgroup holds the tests of core/cgroup.c, not those of core/machine.c).

usage: test-mirror.py [--expect FILE] ROOT
Exit 1 with one line per misplaced test. With --expect, the findings must be exactly the lines
of FILE (in any order, # comments ignored): how the test checks that a planted misplacement is
found.
"""
import argparse
import os
import re
import sys

# topic folder of tests/ -> the source files (prefixes) whose tests it may hold
TOPICS = {
    "cgroup": ("core/cgroup.",),
    "sysinfo": ("core/sysinfo.",),
    "probe": ("audio-probe/",),
    "html": ("report/html",),
}
UNIT = re.compile(r"^test[_-][\w-]+\.c$")
COMMENT = re.compile(r"\A\s*/\*(.*?)\*/", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def source_dirs(root):
    return sorted(d for d in os.listdir(root)
                  if d != "tests" and not d.startswith(".")
                  and os.path.isfile(os.path.join(root, d, "CMakeLists.txt")))


def tested_source(text, dirs):
    path = re.compile(r"\b(%s)/[\w.-]*\w" % "|".join(re.escape(d) for d in dirs))
    head = COMMENT.match(text)
    m = path.search(head.group(1)) if head else None
    if m:
        return m.group(0)
    for inc in INCLUDE.findall(text):
        if path.fullmatch(inc):
            return inc
    return None


def exists(root, rel):
    """rel as written, or its module: x.c or x.h for x, x.c and x.h alike."""
    base = rel[:-2] if rel.endswith((".c", ".h")) else rel
    return any(os.path.isfile(os.path.join(root, p)) for p in (rel, base + ".c", base + ".h"))


def findings(root):
    dirs = source_dirs(root)
    tests = os.path.join(root, "tests")
    out = []
    for area in sorted(os.listdir(tests)):
        adir = os.path.join(tests, area)
        if not os.path.isdir(adir):
            continue
        for f in sorted(os.listdir(adir)):
            if not UNIT.match(f):
                continue
            rel = f"tests/{area}/{f}"
            with open(os.path.join(adir, f), encoding="utf-8") as fh:
                src = tested_source(fh.read(), dirs)
            if not src:
                out.append(f"{rel}: names no source file it tests")
            elif not exists(root, src):
                out.append(f"{rel}: tests {src}, which does not exist")
            elif area != src.split("/")[0] and not src.startswith(TOPICS.get(area, ("\0",))):
                out.append(f"{rel}: tests {src}, belongs in tests/{src.split('/')[0]}/")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect")
    ap.add_argument("root")
    a = ap.parse_args()
    got = findings(a.root)
    for line in got:
        print(line)
    if a.expect:
        with open(a.expect, encoding="utf-8") as fh:
            want = [l.strip() for l in fh if l.strip() and not l.startswith("#")]
        if sorted(got) != sorted(want):
            print("test-mirror: expected exactly:", *want, sep="\n  ")
            return 1
        return 0
    return 1 if got else 0


if __name__ == "__main__":
    sys.exit(main())
