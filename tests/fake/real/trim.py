#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Trim a captured /sys+/proc tree to what its readers open (a maintainer's tool, not a test).

    trim.py SRC DST STRACE_LOG...

STRACE_LOG: `strace -f -y` logs of the readers run on SRC (hostprep topology/check/rdma,
lstopo-no-graphics -i SRC --whole-io). Copies into DST every regular file and directory
whose real path one of the logs names (an fd annotation or a returned fd), and every
symlink (cheap, and a directory listing may need it). Config spaces stay as captured."""
import os
import re
import shutil
import sys


def named_paths(src, logs):
    pat = re.compile(r"<(%s[^>]*)>" % re.escape(src))
    # openat(3</dir>, "name", ...), faccessat(...): a name relative to an fd, also when
    # the call failed or returns no fd (access, stat)
    rel = re.compile(r"<(%s[^>]*)>, \"([^\"]+)\"" % re.escape(src))
    absolute = re.compile(r"\"(%s[^\"]*)\"" % re.escape(src))
    seen = set()
    for log in logs:
        with open(log, errors="replace") as f:
            for line in f:
                for m in pat.finditer(line):
                    seen.add(os.path.relpath(m.group(1), src))
                for m in absolute.finditer(line):
                    seen.add(os.path.relpath(m.group(1), src))
                for m in rel.finditer(line):
                    seen.add(os.path.relpath(os.path.realpath(
                        os.path.join(m.group(1), m.group(2))), src))
    return seen


def main(src, dst, logs):
    src = os.path.realpath(src)
    keep = named_paths(src, logs)
    for top, dirs, files in os.walk(src):
        rel_top = os.path.relpath(top, src)
        for name in dirs + files:
            rel = os.path.normpath(os.path.join(rel_top, name))
            s, d = os.path.join(src, rel), os.path.join(dst, rel)
            if os.path.islink(s):
                os.makedirs(os.path.dirname(d), exist_ok=True)
                os.symlink(os.readlink(s), d)
            elif rel in keep and os.path.isdir(s):
                os.makedirs(d, exist_ok=True)
            elif rel in keep and os.path.isfile(s):
                os.makedirs(os.path.dirname(d), exist_ok=True)
                shutil.copy2(s, d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
