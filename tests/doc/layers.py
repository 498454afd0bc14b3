#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The house drawn from the #include lines of src/ (docs/HACKING.md, "Layers").

Every file of src/ is in one layer (the table below, top to bottom; the first pattern
that matches a path below src/ wins). A file may include what is in its own layer or in
one below it, never above; within a layer, the folders' includes must not make a cycle
(a folder's command files are a node of their own: `acs/*-cmd.c` is "acs (commands)").

Usage: layers.py [-v] [SRC]   (SRC: the src/ folder, by default the one of this tree)
Prints "layers: FAIL: ..." for each upward arrow and each folder cycle and exits 1;
-v draws the house: each layer's folders and what they include.
"""
import fnmatch
import os
import re
import sys

# (layer, path patterns below src/), top first.
LAYERS = [
    ("app", ["main.c", "modules.c", "modules.h"]),
    # A command of any folder: its argv, its output (src/cli/command.h).
    ("commands", ["*/*-cmd.c", "report/status.h"]),
    ("cli", ["cli/*"]),
    # The capabilities and the report model with its sinks: peers, no folder cycle.
    ("capabilities", ["acs/*", "aer/*", "bond/*", "facts/*", "gpu/*", "inventory/*", "iommu/*", "kmod/*",
                      "rdma/*", "report/*", "snapshot/*", "sysctl/*", "topo/*",
                      "nvml/*", "workload/*", "xid/*"]),
    ("run", ["run/*"]),
    ("pci", ["pci/*"]),
    ("core", ["core/*"]),
]
RANK = {name: len(LAYERS) - i for i, (name, _) in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    for name, pats in LAYERS:
        if any(fnmatch.fnmatchcase(rel, p) for p in pats):
            return name
    return None


def node_of(rel):
    """The node of the folder graph: the folder, its command files apart."""
    folder = os.path.dirname(rel) or "."
    return folder + " (commands)" if layer_of(rel) == "commands" else folder


def sources(src):
    for d, _, files in os.walk(src):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(d, f), src)


def resolve(src, rel, inc):
    """An include as a path below src/: spelled with its folder, or beside the file."""
    if os.path.exists(os.path.join(src, inc)):
        return os.path.normpath(inc)
    beside = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
    return beside if os.path.exists(os.path.join(src, beside)) else None


def arrows(src):
    for rel in sorted(sources(src)):
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    yield rel, no, m.group(1), resolve(src, rel, m.group(1))


def cycles(edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    src = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..", "src")
    fails = []
    edges, why = {}, {}
    for rel in sources(src):
        if layer_of(rel) is None:
            fails.append(f"src/{rel} is in no layer (tests/doc/layers.py)")
    for rel, no, inc, target in arrows(src):
        if target is None:
            fails.append(f"src/{rel}:{no}: \"{inc}\" is no file of src/")
            continue
        a, b = layer_of(rel), layer_of(target)
        if a is None or b is None:
            continue
        if RANK[b] > RANK[a]:
            fails.append(f"src/{rel}:{no}: includes \"{inc}\": an arrow up, {a} -> {b}")
            continue
        na, nb = node_of(rel), node_of(target)
        if na != nb and a == b:
            edges.setdefault(na, set()).add(nb)
            why.setdefault((na, nb), f"src/{rel}:{no} \"{inc}\"")
    for comp in cycles(edges):
        ins = [why[(x, y)] for x in comp for y in sorted(edges.get(x, ())) if y in comp]
        fails.append(f"a folder cycle: {' <-> '.join(comp)} ({'; '.join(ins)})")
    if verbose:
        for name, _ in LAYERS:
            nodes = sorted({node_of(r) for r in sources(src) if layer_of(r) == name})
            print(f"{name}: {', '.join(nodes)}")
            for n in nodes:
                if edges.get(n):
                    print(f"  {n} -> {', '.join(sorted(edges[n]))}")
    for f in fails:
        print(f"layers: FAIL: {f}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
