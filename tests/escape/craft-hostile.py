#!/usr/bin/env python3
"""Writes a hostile vmsuite.result/1 file for the escaping tests: every string of the input
result (labels, statuses, reasons, options, fingerprint values and sources, audio facts, gap
causes, metric units, ...) replaced by a payload, and the keys that reports print (metric
names, option names, fingerprint and audio fact keys, gap causes) given hostile twins.

usage: craft-hostile.py --base IN.json --out OUT.json --mode markup|control [--side A|B]

--mode markup: the payload is HTML (`<script>`, an `onerror` attribute, an entity that must stay
  text) followed by a tag naming the field, e.g. `...#label`, so a checker can tell which field
  reached the page.
--mode control: the payload holds terminal escapes and line breaks (ESC [31m, CR, LF, the C1
  CSI, a right-to-left override) around the tag: text output must show them escaped.
--side: B differs from A in its label and fingerprint values, so compare lists them.
The "format" string is kept (a file without it is refused before anything renders), and so are
the catalogue's metric names: the hostile metrics are added next to them.
"""
import argparse
import json

MARKUP = "<script>alert(1)</script><img src=x onerror=alert(2)><b onclick=\"x\">&amp;\"'"
# ESC [31m, CR LF and a forged line, C1 CSI (U+009B), a right-to-left override (U+202E), BEL
CONTROL = "red\u001b[31mRED\r\nFORGED LINE\u009b2J\u202eevil\u0007"
KEEP_STRINGS = {"format"}


def payload(mode, tag):
    if mode == "markup":
        return MARKUP + "#" + tag
    return CONTROL + "#" + tag


def hostile_strings(node, mode, path):
    """Replaces every string value under node (in place), tagging it with its key."""
    if isinstance(node, dict):
        for k in list(node):
            v = node[k]
            if isinstance(v, str):
                if path == "" and k in KEEP_STRINGS:
                    continue
                node[k] = payload(mode, k)
            else:
                hostile_strings(v, mode, path + "/" + k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            if isinstance(v, str):
                node[i] = payload(mode, path.rsplit("/", 1)[-1])
            else:
                hostile_strings(v, mode, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mode", choices=["markup", "control"], required=True)
    ap.add_argument("--side", choices=["A", "B"], default="A")
    a = ap.parse_args()
    d = json.load(open(a.base))
    mode = a.mode

    # fields a real file may lack: a machine note, a reason per run, a fingerprint
    d["protocol"]["machine"]["note"] = "x"
    d["fingerprint"] = {
        "kernel_release": {"value": "6.1." + a.side, "source": "uname(2) release"},
        "architecture": {"value": "x86_64", "source": "uname(2) machine"},
        "mem_total_bytes": {"value": 2060410880 if a.side == "A" else 2067591168,
                            "source": "/proc/meminfo"},
        "vm": {"value": {"swappiness": "60" + a.side}, "source": "/proc/sys/vm"},
    }
    if isinstance(d.get("audio"), dict):
        d["audio"]["facts"]["path"] = "/music/a.mp3"
    for w in d["workloads"]:
        w["summary"] = "x"
        for r in w.get("runs", []):
            r["status"] = "x"
            r["reason"] = "x"
    hostile_strings(d, mode, "")
    d["label"] = payload(mode, "label" + a.side)

    # hostile keys next to the catalogue's ones
    def hk(tag):
        return payload(mode, "key-" + tag)

    d["fingerprint"][hk("fingerprint")] = {"value": payload(mode, "fpvalue" + a.side),
                                           "source": payload(mode, "fpsource")}
    if isinstance(d.get("audio"), dict):
        d["audio"]["facts"][hk("fact")] = payload(mode, "factvalue" + a.side)
    for i, w in enumerate(d["workloads"]):
        w["name"] = payload(mode, "workload%d" % i)
        w["options"] = {hk("option"): payload(mode, "optvalue"), **w.get("options", {})}
        ms = w["metrics"]
        first = dict(next(iter(ms.values())))
        first["unit"] = payload(mode, "unit")
        first["primary"] = True
        ms[hk("metric")] = first
        for r in w.get("runs", []):
            au = r.get("audio")
            if isinstance(au, dict):
                au.setdefault("causes", {})[hk("cause")] = 1
                for g in au.get("gaps", []):
                    g["cause"] = payload(mode, "cause")
    json.dump(d, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
