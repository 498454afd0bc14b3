#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Every result a module adds that can be other than a pass names its action
# (docs/report-schema.md: repair controllers key on it): each
# "&(const struct result_spec){ ... }" in src/ has ".action =" unless its verdict is
# VERDICT_PASS or VERDICT_SKIP (a skip is "none" by default). Prints each
# offender as FILE:LINE; exit 1 when there is one.
import pathlib
import re
import sys

top = pathlib.Path(sys.argv[1])
# the reader of the report file passes what it read; nothing to name there
exempt = {"src/report/report-file.c"}


def blocks(s):
    for m in re.finditer(r"&\(const struct result_spec\)\{|struct result_spec \w+ = \{", s):
        i = j = m.end()
        depth = 1
        while depth:
            c = s[j]
            if c == '"':
                j += 1
                while s[j] != '"':
                    j += 2 if s[j] == "\\" else 1
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            j += 1
        yield m.start(), s[i : j - 1]


bad = 0
for path in sorted(top.glob("src/**/*.c")):
    rel = str(path.relative_to(top))
    if rel in exempt:
        continue
    s = path.read_text()
    for start, body in blocks(s):
        v = re.search(r"\.verdict\s*=\s*([^,]+),", body)
        if v and v.group(1).strip() in ("VERDICT_PASS", "VERDICT_SKIP"):
            continue
        if ".action" not in body:
            print("%s:%d: a result that may not pass names no .action" % (rel, s.count("\n", 0, start) + 1))
            bad += 1
sys.exit(1 if bad else 0)
