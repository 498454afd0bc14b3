#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Copy files into the ConfigMaps of fleet/kubernetes that carry them (after editing one).

  tests/fleet/k8s-embed.py [--check]

fleet/kubernetes/hostprep-report-status goes into daemonset.yaml's ConfigMap and into
npd/configmap.yaml, npd/hostprep-plugin-container.json into npd/configmap.yaml: each as
a literal block ("KEY: |") that ends where the indentation does. The rest of each manifest
is kept byte for byte. --check changes nothing and exits 1 when a copy differs
(tests/fleet/k8s-contracts.py checks the same through YAML).
"""
import sys

K = "fleet/kubernetes"
COPIES = {
    f"{K}/daemonset.yaml": {"hostprep-report-status": f"{K}/hostprep-report-status"},
    f"{K}/npd/configmap.yaml": {"hostprep-plugin-container.json": f"{K}/npd/hostprep-plugin-container.json",
                                "hostprep-report-status": f"{K}/hostprep-report-status"},
}


def embed(text, key, content):
    lines = text.splitlines(True)
    head = f"  {key}: |\n"
    i = lines.index(head) + 1
    j = i
    while j < len(lines) and (lines[j].startswith("    ") or lines[j] == "\n"):
        j += 1
    while j > i and lines[j - 1] == "\n":  # blank lines after the block are not its own
        j -= 1
    body = ["    " + l if l.strip() else l for l in content.splitlines(True)]
    return "".join(lines[:i] + body + lines[j:])


def main(check):
    stale = []
    for manifest, keys in COPIES.items():
        old = open(manifest).read()
        new = old
        for key, src in keys.items():
            new = embed(new, key, open(src).read())
        if new != old:
            stale.append(manifest)
            if not check:
                open(manifest, "w").write(new)
    for m in stale:
        print(f"{'stale' if check else 'updated'}: {m}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
