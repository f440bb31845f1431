#!/usr/bin/env python3
"""Checks that a vmsuite output rendered from a hostile result file (tests/escape/craft-hostile.py)
shows the file's strings as text and never as markup or terminal control.

usage: check-escape.py html FILE TAG...           an HTML page
       check-escape.py markdown FILE TAG...       markdown, read through cmark-gfm --unsafe (raw
                                                  HTML passed through), then checked as HTML
       check-escape.py markdown-text FILE TAG...  the same for a file crafted with --mode
                                                  control: the escaped payload is in the text
       check-escape.py text FILE TAG...           plain text from a file crafted with --mode
                                                  control

html/markdown: parsed with html.parser, the page has no element the payload tries to inject
(<script>, <img>, <b>) and no on* attribute, and for each TAG the whole payload "...#TAG" is in
the page's text exactly (so it was escaped once, not dropped, not double-escaped).
text: no byte below 0x20 but the newline, no DEL, no C1 control, no bidirectional override;
no line begins with the payload's forged line; for each TAG the payload appears in its escaped
form on one line. Exit 1 with the reasons on stderr.
"""
import re
import subprocess
import sys
from html.parser import HTMLParser

MARKUP = "<script>alert(1)</script><img src=x onerror=alert(2)><b onclick=\"x\">&amp;\"'"
CONTROL_ESCAPED = "red\\x1b[31mRED\\x0d\\x0aFORGED LINE\\u009b2J\\u202eevil\\x07"
INJECTED = {"script", "img", "b", "iframe", "object", "embed"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.errors, self.text = [], []

    def handle_starttag(self, tag, attrs):
        if tag in INJECTED:
            self.errors.append("injected element <%s %s>" % (tag, attrs))
        for name, value in attrs:
            if name.startswith("on"):
                self.errors.append("event attribute %s=%r on <%s>" % (name, value, tag))
            if value and "javascript:" in value.lower():
                self.errors.append("javascript: URL in %s of <%s>" % (name, tag))
            if value and name in ("title", "aria-label", "alt"):
                self.text.append(value)

    def handle_data(self, data):
        self.text.append(data)


def check_html(html, tags, payload=MARKUP):
    p = Page()
    p.feed(html)
    p.close()
    text = "\n".join(p.text)
    errors = p.errors
    for tag in tags:
        if payload + "#" + tag not in text:
            errors.append("payload #%s is not on the page as text" % tag)
    return errors


def check_text(raw, tags):
    errors = []
    for i, b in enumerate(raw):
        if (b < 0x20 and b != 0x0A) or b == 0x7F:
            errors.append("control byte 0x%02x at offset %d: %r" % (b, i, raw[max(0, i - 20):i + 20]))
            break
    text = raw.decode("utf-8", errors="replace")
    if "\ufffd" in text:
        errors.append("invalid UTF-8 in the output")
    m = re.search("[\u0080-\u009f\u202a-\u202e\u2066-\u2069]", text)
    if m:
        errors.append("C1 or bidirectional control U+%04X in the output" % ord(m.group(0)))
    for line in text.split("\n"):
        if line.lstrip(" |-`*#").startswith("FORGED"):
            errors.append("a forged line: %r" % line)
    for tag in tags:
        if CONTROL_ESCAPED + "#" + tag not in text:
            errors.append("payload #%s is not in the output in its escaped form" % tag)
    return errors


def main():
    mode, path, tags = sys.argv[1], sys.argv[2], sys.argv[3:]
    raw = open(path, "rb").read()
    if mode == "html":
        errors = check_html(raw.decode("utf-8"), tags)
    elif mode in ("markdown", "markdown-text"):
        html = subprocess.run(["cmark-gfm", "--unsafe", "-e", "table"], input=raw,
                              capture_output=True, check=True).stdout.decode("utf-8")
        errors = check_html(html, tags, MARKUP if mode == "markdown" else CONTROL_ESCAPED)
    elif mode == "text":
        errors = check_text(raw, tags)
    else:
        sys.exit("usage: check-escape.py html|markdown|markdown-text|text FILE TAG...")
    for e in errors:
        print("%s: %s" % (path, e), file=sys.stderr)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
