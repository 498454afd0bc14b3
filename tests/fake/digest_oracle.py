#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The configuration digest, computed independently (hashlib) for tests/fake 350-352.

  digest_oracle.py ROOT NAME...   NAMEs as the report lists them (config_files); each is
                                  read at ROOT/NAME ("" for ROOT: --config paths as given)

SHA-256 over, for each file in order: its name, a NUL, its size as 8 bytes little endian,
its bytes (docs/report-schema.md, config_digest). Prints the lower-case hex digest.
"""
import hashlib
import sys

root, names = sys.argv[1], sys.argv[2:]
h = hashlib.sha256()
for n in names:
    with open(root + n, "rb") as f:
        data = f.read()
    h.update(n.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
print(h.hexdigest())
