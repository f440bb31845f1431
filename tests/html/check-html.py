#!/usr/bin/env python3
"""Checks the structure of a vmsuite HTML report against the result file it came from and
prints its outline (one line per chart and panel: labels, ticks, gap bands) for a golden
comparison.

usage: check-html.py REPORT.html RESULT.json [TEXT-REPORT.txt]

Asserts: tags balance; nothing is fetched (no script, link, img, src/href to another host); one
timeline per run that has a series or audio detail; in each, one gap band per gap of that
run's audio detail with its duration and cause in the <title>; every line of the text report
(if given) appears on the page, the 2001 rows as table rows with the same value. Exit 1 with
the reasons on stderr when anything fails.
"""
import json
import re
import sys
from html.parser import HTMLParser

CAUSES = {"paging", "runqueue", "io", "decode", "unexplained", "probe_died"}
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "source", "wbr"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors = [], []
        self.svgs = []           # per <svg>: dict
        self.cur = None          # current svg dict
        self.panel = None
        self.text_stack = []     # (tag, cls, buffer)
        self.rows, self.lines, self.pres, self.notes, self.missing = [], [], [], [], []
        self.tag_counts = {}

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tag_counts[tag] = self.tag_counts.get(tag, 0) + 1
        if tag in ("script", "link", "img", "iframe", "object", "embed"):
            self.errors.append(f"external or active element <{tag}>")
        for k in ("src", "href"):
            v = a.get(k)
            if v and not v.startswith("#"):
                self.errors.append(f"{tag} {k}={v!r} points outside the page")
        if tag in VOID:
            return
        self.stack.append(tag)
        cls = a.get("class", "")
        if tag == "svg" and "chart" in cls.split():
            self.cur = {"class": cls, "label": a.get("aria-label", ""), "panels": [],
                        "gaps": [], "axis": [], "legend": [], "ticks": [], "paths": 0,
                        "bars": 0, "bar_titles": []}
            self.svgs.append(self.cur)
        elif self.cur is not None:
            if tag == "g" and cls == "panel":
                self.panel = {"key": None, "ticks": [], "legend": [], "paths": 0,
                              "title": None, "note": None}
                self.cur["panels"].append(self.panel)
            elif tag == "rect" and cls.startswith("gap gap-") and self.stack[-2:-1] == ["g"]:
                self.cur["gaps"].append({"cause": cls.split("gap-")[1], "title": None})
            elif tag == "rect" and cls in ("bar0", "bar1"):
                self.cur["bars"] += 1
            elif tag == "path" and re.fullmatch(r"s\d", cls):
                (self.panel or self.cur)["paths"] += 1
        self.text_stack.append((tag, cls, []))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unbalanced </{tag}> (open: {self.stack[-3:]})")
            return
        self.stack.pop()
        t, cls, buf = self.text_stack.pop()
        text = "".join(buf)
        for _, _, outer in self.text_stack:
            outer.append(text)
        if tag == "svg" and self.cur is not None and "chart" in cls.split():
            self.cur, self.panel = None, None
        elif tag == "g" and cls == "panel":
            self.panel = None
        elif self.cur is not None:
            tgt = self.panel if self.panel is not None else self.cur
            if tag == "desc" and self.panel is not None:
                self.panel["key"] = text
            elif tag == "text" and cls == "tick":
                tgt["ticks"].append(text)
            elif tag == "text" and cls == "legend":
                tgt["legend"].append(text)
            elif tag == "text" and cls == "axis":
                self.cur["axis"].append(text)
            elif tag == "text" and cls == "ptitle" and self.panel is not None:
                self.panel["title"] = text
            elif tag == "text" and cls == "pnote" and self.panel is not None:
                self.panel["note"] = text
            elif tag == "title" and self.cur["gaps"] and self.cur["gaps"][-1]["title"] is None \
                    and self.stack and self.stack[-1] == "rect":
                self.cur["gaps"][-1]["title"] = text
        else:
            if tag == "tr":
                self.rows.append(text)
            elif tag == "p" and cls == "line":
                self.lines.append(text)
            elif tag == "pre" and cls == "sound":
                self.pres.append(text)
            elif tag == "p" and cls == "note":
                self.notes.append(text)
            elif tag == "li":
                self.missing.append(text)

    def handle_data(self, data):
        if self.text_stack:
            self.text_stack[-1][2].append(data)


class RowText(HTMLParser):
    """Collects table rows as 'th: td'."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.cells, self.cur = [], [], None

    def handle_starttag(self, tag, attrs):
        if tag in ("th", "td"):
            self.cur = []
        if tag == "tr":
            self.cells = []

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.cur is not None:
            self.cells.append("".join(self.cur))
            self.cur = None
        if tag == "tr":
            self.rows.append(": ".join(self.cells))

    def handle_data(self, data):
        if self.cur is not None:
            self.cur.append(data)


def main():
    html_path, result_path = sys.argv[1], sys.argv[2]
    text_path = sys.argv[3] if len(sys.argv) > 3 else None
    html = open(html_path, encoding="utf-8").read()
    doc = json.load(open(result_path))
    p = Page()
    p.feed(html)
    p.close()
    errors = list(p.errors)
    if p.stack:
        errors.append(f"unclosed tags at the end: {p.stack}")
    if re.search(r"https?://(?!www\.w3\.org/2000/svg)", html):
        errors.append("a network address other than the SVG namespace is in the page")
    if "<style>" not in html:
        errors.append("no inline CSS")

    # timelines against runs
    timelines = {s["label"]: s for s in p.svgs if "timeline" in s["class"].split()}
    for w in doc["workloads"]:
        for i, run in enumerate(w["runs"]):
            label = f"{w['name']} run {i + 1}: timeline"
            audio = run.get("audio") or None
            series = run.get("series") or None
            if not series and not audio:
                if label in timelines:
                    errors.append(f"{label}: drawn without series or audio")
                continue
            svg = timelines.get(label)
            if not svg:
                errors.append(f"{label}: missing")
                continue
            keys = [q["key"] for q in svg["panels"]]
            drawable = series and len(series.get("t_s") or []) >= 2
            want = (["faults", "swap", "psi", "free", "dirty"] if drawable else []) + \
                (["audio"] if audio else [])
            if keys != want:
                errors.append(f"{label}: panels {keys}, want {want}")
            gaps = (audio or {}).get("gaps", [])
            if len(svg["gaps"]) != len(gaps):
                errors.append(f"{label}: {len(svg['gaps'])} gap bands, {len(gaps)} gaps")
            for g, band in zip(gaps, svg["gaps"]):
                dur = g.get("duration_ms")
                dur = dur if isinstance(dur, (int, float)) else 0
                want_t = f"gap of {dur:.0f} ms at {g['start_s']:.2f} s: {g['cause']}"
                known = g["cause"] if g["cause"] in CAUSES else "unexplained"
                if not (band["title"] or "").startswith(want_t) or band["cause"] != known:
                    errors.append(f"{label}: band {band} does not say {want_t!r}")
            if "time since the run started (s)" not in svg["axis"]:
                errors.append(f"{label}: no time axis label")
    # text report lines
    if text_path:
        rt = RowText()
        rt.feed(html)
        rows = set(rt.rows)
        page_lines = set(p.lines) | set(p.rows) | rows | set(p.notes)  # disturbed runs: notes
        sound = "\n".join(p.pres)
        text = open(text_path, encoding="utf-8").read().splitlines()
        names = {w["name"] for w in doc["workloads"]}
        for ln in text:
            if not ln.strip() or ln in names or ln.startswith("vmsuite ") \
                    or ln.startswith("Machine: ") or ln.startswith("Note: "):
                continue
            if re.match(r"Averages? for \d+ \S+ runs$", ln):
                if ln not in html:
                    errors.append(f"caption {ln!r} not on the page")
                continue
            if ln.startswith("Sound") or ln.startswith("       gaps caused by"):
                if ln not in sound.splitlines():
                    errors.append(f"sound line {ln!r} not on the page")
                continue
            if ln not in page_lines:
                errors.append(f"text report line {ln!r} not on the page")
        head = [ln for ln in text[:3] if ln.startswith(("vmsuite ", "Machine: ", "Note: "))]
        for ln in head:
            if ln.replace("&", "&amp;") not in html:
                errors.append(f"header line {ln!r} not on the page")

    # outline
    print(f"svg charts {len(p.svgs)}; sound blocks {len(p.pres)}; notes {len(p.notes)}; "
          f"missing {len(p.missing)}")
    for m in p.missing:
        print(f"missing: {m}")
    for n in p.notes:
        print(f"note: {n}")
    for s in p.svgs:
        print(f"svg {s['class']!r} {s['label']!r}: axis {s['axis']}; gaps "
              f"{[g['cause'] for g in s['gaps']]}; bars {s['bars']}; legend {s['legend']}")
        if s["ticks"]:
            print(f"  ticks {s['ticks']}")
        for q in s["panels"]:
            print(f"  panel {q['key']} {q['title']!r} lines {q['paths']} legend {q['legend']} "
                  f"ticks {q['ticks']}" + (f" note {q['note']!r}" if q["note"] else ""))
    for e in errors:
        print(f"check-html: {e}", file=sys.stderr)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
