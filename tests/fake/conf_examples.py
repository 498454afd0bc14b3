#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The example configurations shipped in conf/, one file each, for 440-conf-examples.

    conf_examples.py CONFDIR OUTDIR

Writes OUTDIR/ID.conf for every example and prints "ID<TAB>where" lines. An example is
  - each "# Example...:" comment block of conf/*.conf: the "#   [Section]",
    "#   Key=value" and "#   # why" lines that follow it (a why stays a comment in
    the example), up to the first line that is none of them;
  - each commented-out section of conf/*.conf ("#[Port:rails]" then "#Key=value" lines,
    doc lines "#   ..." between them skipped, up to the first other line);
  - each conf/*.conf other than the shipped default, and each conf/examples/*.conf, whole.
The shipped default conf/hostprep.conf itself is "shipped-default". ID: the example's
title's (or its first section's) first five words in lower case, joined by '-'.
"""

import os
import re
import sys

EXAMPLE = re.compile(r"^# Example\b[^:]*?(?:\((?P<paren>[^)]*)\))?:?\s*(?P<title>.*)$")
BLOCK_LINE = re.compile(r"^#\s{2,}(\[[A-Za-z0-9:_.-]+\]|[A-Za-z][A-Za-z0-9]*=.*|# .*)$")
COMMENTED_SECTION = re.compile(r"^#(\[[A-Za-z0-9:_.-]+\])$")
COMMENTED_KEY = re.compile(r"^#([A-Za-z][A-Za-z0-9]*=.*)$")
DOC_LINE = re.compile(r"^#\s{2,}\S")


def slug(text):
    """The first five words: a title may grow without renaming its host."""
    return "-".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split()[:5])


def blocks(path):
    """(title, where, [lines]) for each embedded example of a file."""
    lines = open(path).read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = EXAMPLE.match(lines[i])
        c = COMMENTED_SECTION.match(lines[i])
        if m:
            title = (m.group("title") or m.group("paren") or "").strip().rstrip(".")
            body, j = [], i + 1
            while j < len(lines) and BLOCK_LINE.match(lines[j]):
                body.append(BLOCK_LINE.match(lines[j]).group(1))
                j += 1
            if body:
                out.append((title or body[0].strip("[]"), "%s:%d" % (path, i + 1), body))
            i = j
            continue
        if c:
            body, j = [c.group(1)], i + 1
            while j < len(lines) and (COMMENTED_KEY.match(lines[j]) or DOC_LINE.match(lines[j])):
                k = COMMENTED_KEY.match(lines[j])
                if k:
                    body.append(k.group(1))
                j += 1
            out.append(("commented " + c.group(1).strip("[]"), "%s:%d" % (path, i + 1), body))
            i = j
            continue
        i += 1
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    confdir, outdir = argv[1], argv[2]
    os.makedirs(outdir, exist_ok=True)
    found = {}

    def add(ident, where, text):
        if ident in found:
            sys.stderr.write("two examples named %s: %s and %s\n" % (ident, found[ident], where))
            sys.exit(1)
        found[ident] = where
        with open(os.path.join(outdir, ident + ".conf"), "w") as f:
            f.write(text)
        print("%s\t%s" % (ident, where))

    files = sorted(f for f in os.listdir(confdir) if f.endswith(".conf"))
    exdir = os.path.join(confdir, "examples")
    examples = sorted(f for f in os.listdir(exdir) if f.endswith(".conf")) \
        if os.path.isdir(exdir) else []
    for f in files:
        path = os.path.join(confdir, f)
        if f == "hostprep.conf":
            add("shipped-default", path, open(path).read())
        else:
            add(slug(f[:-5]), path, open(path).read())
        for title, where, body in blocks(path):
            add(slug(title), where, "\n".join(body) + "\n")
    for f in examples:
        path = os.path.join(exdir, f)
        add(slug(f[:-5]), path, open(path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
