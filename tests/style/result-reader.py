#!/usr/bin/env python3
"""Checks that result documents are read in one place: core/resultdoc.c.

Every .c/.h file outside tests/ (hidden directories and build trees are not scanned either) that
calls json_object_get() must be the reader or be listed in the allow file with the reason it
looks up keys in JSON that is not a result document (the host journal, a compare document, the
output a renderer builds, ...). A listed file that no longer calls it, or a line without a
reason, is a finding too, so that the list stays true. Any finding fails (exit 1).

usage: result-reader.py [--reader PATH] [--allow FILE] [--expect FILE] ROOT
--allow defaults to result-reader.allow beside this script; each line is "PATH  REASON"
(# starts a comment). With --expect, the findings must be exactly the lines of FILE (in any
order): how the test checks that a planted fixture is rejected, and for what.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from srctree import sources  # noqa: E402

CALL = re.compile(r"\bjson_object_getn?\s*\(")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def calls(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        return len(CALL.findall(COMMENT.sub("", f.read())))


def read_allow(path):
    allow, findings = {}, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                findings.append("exception without a reason: %s (line %d)" % (parts[0], n))
            allow[os.path.normpath(parts[0])] = parts[1] if len(parts) > 1 else ""
    return allow, findings


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", default="core/resultdoc.c")
    ap.add_argument("--allow", default=os.path.join(here, "result-reader.allow"))
    ap.add_argument("--expect")
    ap.add_argument("root")
    a = ap.parse_args()

    allow, findings = read_allow(a.allow)
    seen = set()
    for path in sources(a.root):
        n = calls(a.root, path)
        if path in allow:
            seen.add(path)
            if not n:
                findings.append("stale exception: %s calls json_object_get no more" % path)
        elif n and path != os.path.normpath(a.reader):
            findings.append("json_object_get outside the reader: %s (%d call%s)"
                            % (path, n, "" if n == 1 else "s"))
    for path in sorted(set(allow) - seen):
        findings.append("stale exception: %s does not exist" % path)

    if a.expect:
        with open(a.expect, encoding="utf-8") as f:
            want = sorted(l.strip() for l in f if l.strip() and not l.startswith("#"))
        if sorted(findings) != want:
            print("result-reader: findings differ from %s" % a.expect)
            print("  got:\n    " + "\n    ".join(sorted(findings)))
            print("  want:\n    " + "\n    ".join(want))
            return 1
        print("result-reader: the %d expected findings" % len(want))
        return 0
    for f in findings:
        print("result-reader: " + f)
    if findings:
        print("result-reader: result documents are read by %s (struct vms_rdoc); other JSON "
              "that is not a result document is listed with its reason in %s"
              % (a.reader, os.path.relpath(a.allow, a.root)))
        return 1
    print("result-reader: json_object_get only in %s and %d listed exception(s)"
          % (a.reader, len(allow)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
