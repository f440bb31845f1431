#!/usr/bin/env python3
"""Validates KCIDB documents against a KCIDB I/O JSON schema with Draft 7 and format checking.

usage: kcidb-validate.py SCHEMA FILE...

jsonschema checks "date-time" and "uri" only when optional modules are installed
(rfc3339-validator, rfc3987); Debian 12 packages rfc3987 but not rfc3339-validator. Where the
library cannot check a format, a strict RFC 3339 / RFC 3986 check is registered here, and before
validating anything the checker must reject known-bad values, so a format can never pass
unchecked. Exit 0: all valid; 1: a document is invalid or the checker cannot check a format.
"""
import datetime
import json
import re
import sys

import jsonschema

DATE_TIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?"
                       r"([Zz]|[+-]\d{2}:\d{2})$")
URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+$")


def rfc3339(value):
    if not isinstance(value, str):
        return True
    m = DATE_TIME.match(value)
    if not m:
        return False
    y, mo, d, h, mi, s = (int(x) for x in m.groups()[:6])
    try:
        datetime.datetime(y, mo, d, h, mi, min(s, 59))  # 60: a leap second
    except ValueError:
        return False
    return s <= 60


def rfc3986(value):
    return not isinstance(value, str) or bool(URI.match(value))


def main():
    schema_path, files = sys.argv[1], sys.argv[2:]
    with open(schema_path) as f:
        schema = json.load(f)
    checker = jsonschema.FormatChecker()
    own = []
    if "date-time" not in checker.checkers:
        checker.checks("date-time")(rfc3339)
        own.append("date-time")
    if "uri" not in checker.checkers:
        checker.checks("uri")(rfc3986)
        own.append("uri")
    print("format checks: date-time and uri%s" %
          (" (own check for %s)" % ", ".join(own) if own else " (jsonschema's)"))
    for fmt, good, bad in (("date-time", "2026-12-01T17:00:01Z", "2026-13-01T17:00:01Z"),
                           ("date-time", "2026-12-01T17:00:01.5+01:00", "yesterday"),
                           ("uri", "https://example.org/r.json", "https://exa mple.org/")):
        if not checker.conforms(good, fmt) or checker.conforms(bad, fmt):
            print("FAIL: the format checker cannot check %s (%r / %r)" % (fmt, good, bad))
            return 1
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema, format_checker=checker)
    bad = 0
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:20]:
            print("%s: %s: %s" % (path, "/".join(str(p) for p in e.path), e.message))
        print("%s: %s (%d tests)" % (path, "INVALID" if errors else "valid",
                                      len(doc.get("tests", []))))
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
