#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Crash-consistency tier: kill hostprep at every write, fsync, rename and unlink it makes
(before and after each), fill the disk under its records, make their directory read-only,
and check after each that `revert` puts back every byte of the original tree.

    tests/crash/run.py BINARY                 everything (make check-crash)
    CRASH_ONLY='apply-kill*' tests/crash/run.py BINARY    phases whose name matches a glob
    JOBS=N   parallel runs (default: the number of CPUs, at most 2)
    KEEP=1   keep the scratch directory (and the tree of the first failure)
    CRASH_UPDATE=1   rewrite tests/crash/killpoints with the counted crash points

See tests/crash/README.md. Last line: "crash: N checks, N failed (T s)"; exit 1 on a failure.
"""

import concurrent.futures
import fnmatch
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "..", "fake")
KILLED = -9  # subprocess's returncode for a process killed by SIGKILL

# What a run publishes (the one publish step, src/cli/run-publish.c): the report, the
# [Sinks] files at their default paths (their directories made by every scenario's
# setup), the modules' files.
REPORT = "run/hostprep/report.json"
PROM = "var/lib/prometheus/node-exporter/hostprep.prom"
NFD = "etc/kubernetes/node-feature-discovery/features.d/hostprep"
RDMA_ENV = "run/hostprep/rdma.env"
GPUS = "run/hostprep/gpus.json"
P2P_JSON = "run/hostprep/p2p.json"  # issue 29 §3: the pairs' P2P verdict, for jobs
P2P_ENV = "run/hostprep/p2p.env"
ARTIFACTS = (REPORT, PROM, NFD, RDMA_ENV, GPUS, P2P_JSON, P2P_ENV)
# A sink's dot-file temp ("<dir>/.<name>.tmp-XXXXXX") that a kill left: nothing reads it
# (nfd-worker skips dot-files, node_exporter reads *.prom), and hostprep does not clean the
# other tool's directory (README: not fixed here).
SINK_TEMP_RE = re.compile(r"^(.*)/\.([^/]+)\.tmp-[A-Za-z0-9]{6}$")
# What hostprep may leave behind after a complete revert: its state directories (and the run
# lock and what it published). Everything else must equal the original, byte for byte.
RESIDUE_DIRS = {"run/hostprep", "var", "var/lib", "var/lib/hostprep", "var/lib/hostprep/files"}
RESIDUE_FILES = {"run/hostprep/lock"} | set(ARTIFACTS)
ACS_RECORD = "run/hostprep/acs-originals"
PERSIST_RECORD = "var/lib/hostprep/originals"
BACKUPS = "var/lib/hostprep/files"
# The records' files for the disk-full phase (temp files of their rewrites included).
RECORD_PATHS = ["/" + ACS_RECORD, "/var/lib/hostprep/"]
TEMP_RE = re.compile(r"^(.*)\.tmp-[A-Za-z0-9]{6}$")
# Each scenario's pinned number of crash points ("PHASE SCENARIO N" lines): a count that
# moves either way fails the tier; CRASH_UPDATE=1 rewrites the file (review the diff).
KILLPOINTS = os.path.join(HERE, "killpoints")


# ---------------------------------------------------------------- scenarios
#
# A scenario: a fake fixture, a config and a setup of its /etc. Everything below is
# computed from what an uninterrupted run does, so a new writer (the GRUB drop-in, say) is
# covered by adding a scenario whose config makes hostprep write it: the invariant checker
# (covered()) reads "file PATH ..." lines of the persistent record for any file outside
# /sys, whatever its path.
#
# Another hostprep-owned file: a Scenario whose command writes it (cmd), the file in
# owned and the check of its result; see "grub" below.


class Scenario:
    def __init__(self, name, fixture, conf, setup, owned, cmd=("apply",),
                 check="module.persist", phases=None):
        self.name, self.fixture, self.conf, self.setup = name, fixture, conf, setup
        self.owned = owned  # files outside /sys the command must write (checked to happen)
        self.cmd = list(cmd)  # the command that writes (killed in the first phase)
        self.check = check  # its result for the owned file
        self.phases = phases  # None: every phase; else the names of those that apply


def setup_modprobe_vendor(root):
    """A host has /etc/modprobe.d with the distribution's and vendors' files in it."""
    d = os.path.join(root, "etc", "modprobe.d")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "mlx5.conf"), "w") as f:
        f.write("# from the MLNX_OFED packages\noptions mlx5_core prof_sel=2\n")


def setup_modprobe_admin(root):
    """... and an admin's own hostprep.conf, which apply replaces (kept as a backup)."""
    setup_modprobe_vendor(root)
    p = os.path.join(root, "etc", "modprobe.d", "hostprep.conf")
    with open(p, "w") as f:
        f.write("# written by hand before hostprep was installed\noptions ib_core netns_mode=Y\n"
                "blacklist nouveau\n")
    os.chmod(p, 0o640)


def setup_sinks(root):
    """Every scenario: the directories node_exporter and NFD would have made, so that each
    run's publish step writes their files (the invariant checks them)."""
    for f in (PROM, NFD):
        os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)


def setup_none(root):
    pass


def setup_grub(root):
    """A GRUB host on a 6.12 kernel (config_acs=), the form `acs cmdline --install` writes.
    /etc/default/grub.d exists: install creates it when missing and revert leaves it (an
    empty directory; see README)."""
    os.makedirs(os.path.join(root, "etc", "default", "grub.d"), exist_ok=True)
    with open(os.path.join(root, "etc", "default", "grub"), "w") as f:
        f.write('GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n')
    with open(os.path.join(root, "proc", "sys", "kernel", "osrelease"), "w") as f:
        f.write("6.12.30-amd64\n")


SCENARIOS = [
    # 12 ACS ports of the 8-GPU tree and a Persist=yes module: /etc/modprobe.d/hostprep.conf
    # did not exist before.
    Scenario("acs+persist", "ofed-gpu", "crash-acs-persist.conf", setup_modprobe_vendor,
             ["etc/modprobe.d/hostprep.conf"]),
    # Persist=yes over an admin's hostprep.conf: the backup in /var/lib/hostprep/files.
    Scenario("persist-replace", "ofed-gpu", "crash-persist.conf", setup_modprobe_admin,
             ["etc/modprobe.d/hostprep.conf"]),
    # The GRUB drop-in of `acs cmdline --install` (same record and plumbing, its own file).
    Scenario("grub", "ofed-gpu", "crash-grub.conf", setup_grub,
             ["etc/default/grub.d/50-hostprep-acs.cfg"], cmd=["acs", "cmdline", "--install"],
             check="acs.grub"),
    # Every published artifact at once (rdma.env needs RDMA ports: ib-gpu): ACS only, so
    # the phases about owned files and records do not apply.
    Scenario("publish", "ib-gpu", "crash-publish.conf", setup_none, [],
             phases=("apply-kill", "revert-kill")),
]


# ---------------------------------------------------------------- trees


def walk(root):
    """rel -> (mode, ino, size, mtime_ns, ctime_ns, link target) for every entry below root."""
    ents = {}
    stack = [root]
    while stack:
        d = stack.pop()
        with os.scandir(d) as it:
            for e in it:
                st = e.stat(follow_symlinks=False)
                link = os.readlink(e.path) if stat.S_ISLNK(st.st_mode) else None
                ents[os.path.relpath(e.path, root)] = (st.st_mode, st.st_ino, st.st_size,
                                                       st.st_mtime_ns, st.st_ctime_ns, link)
                if stat.S_ISDIR(st.st_mode):
                    stack.append(e.path)
    return ents


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Pristine:
    """A scenario's reference tree: every entry, every byte (read once)."""

    def __init__(self, root):
        self.root = root
        self.ents = walk(root)
        self.data = {rel: read(os.path.join(root, rel)) for rel, e in self.ents.items()
                     if stat.S_ISREG(e[0])}


class Tree:
    """A work copy of a pristine tree. Comparing reads only the files whose inode, size,
    mtime or ctime moved since the copy was last known equal to the pristine one: every
    write, truncate, chmod or rename changes one of them (a kill does not undo that), so a
    file whose stat is unchanged still holds the bytes it was verified to hold."""

    def __init__(self, pristine, path):
        self.p, self.root = pristine, path
        self.recopy()

    def recopy(self):
        if os.path.lexists(self.root):
            shutil.rmtree(self.root)
        subprocess.run(["cp", "-a", self.p.root, self.root], check=True)
        self.base = walk(self.root)
        self.verified_full()

    def verified_full(self):
        diff = self.diff(full=True)
        if diff:
            raise RuntimeError("a fresh copy differs from the fixture: %s" % diff[:3])

    def diff(self, full=False, now=None):
        """Differences from the pristine tree (empty: identical)."""
        now = now if now is not None else walk(self.root)
        out = []
        for rel in sorted(set(self.p.ents) | set(now)):
            a, b = self.p.ents.get(rel), now.get(rel)
            if a is None:
                out.append(Diff(rel, "+" + kind(b[0]), "+%s %s" % (kind(b[0]), rel)))
                continue
            if b is None:
                out.append(Diff(rel, "-" + kind(a[0]), "-%s %s" % (kind(a[0]), rel)))
                continue
            if stat.S_IFMT(a[0]) != stat.S_IFMT(b[0]) or stat.S_IMODE(a[0]) != stat.S_IMODE(b[0]):
                out.append(Diff(rel, "mode", "%s: %s %o -> %s %o" % (
                    rel, kind(a[0]), stat.S_IMODE(a[0]), kind(b[0]), stat.S_IMODE(b[0]))))
                continue
            if a[5] != b[5]:
                out.append(Diff(rel, "link", "%s: -> %s, was -> %s" % (rel, b[5], a[5])))
            if not stat.S_ISREG(b[0]):
                continue
            base = self.base.get(rel)
            if not full and base is not None and base[1:5] == b[1:5]:
                continue  # not written since it was known equal
            data = read(os.path.join(self.root, rel))
            if data != self.p.data[rel]:
                out.append(Diff(rel, "bytes", bytes_diff(rel, self.p.data[rel], data)))
        return out

    def reset(self, diffs):
        """Back to the pristine state: remove hostprep's residue, or copy afresh."""
        if all(residue(d) for d in diffs):
            for d in sorted(diffs, key=lambda d: d.rel.count("/"), reverse=True):
                p = os.path.join(self.root, d.rel)
                if d.what == "+f" and os.path.lexists(p):
                    os.unlink(p)
                elif d.what == "+d" and os.path.lexists(p):
                    shutil.rmtree(p)
            self.base = walk(self.root)
            if self.diff(now=self.base):
                self.recopy()
        else:
            self.recopy()


def kind(mode):
    return "d" if stat.S_ISDIR(mode) else "l" if stat.S_ISLNK(mode) else "f" if stat.S_ISREG(
        mode) else "?"


def bytes_diff(rel, a, b):
    if len(a) != len(b):
        return "%s: %d bytes, was %d" % (rel, len(b), len(a))
    offs = [i for i in range(len(a)) if a[i] != b[i]]
    return "%s: +0x%x: %s" % (rel, offs[0], " ".join("%02x->%02x" % (a[i], b[i])
                                                       for i in offs[:4]))


class Diff:
    def __init__(self, rel, what, text):
        self.rel, self.what, self.text = rel, what, text

    def __repr__(self):
        return self.text


def residue(d):
    """Is this difference what a complete revert may leave (an added state dir or file, a
    published file, a killed sink write's dot-file temp)?"""
    return (d.what == "+d" and d.rel in RESIDUE_DIRS) or (d.what == "+f" and (
        d.rel in RESIDUE_FILES or is_sink_temp(d.rel)))


def is_sink_temp(rel):
    m = SINK_TEMP_RE.match(rel)
    return bool(m) and "%s/%s" % (m.group(1), m.group(2)) in (PROM, NFD)


# ---------------------------------------------------------------- the records


def sealed(path):
    """Intact lines of a whole record: bodies whose crc32 seal matches (others are not used),
    under a header that counts every line after it; a record that is not whole holds none
    (revert keeps it as it is: a change it covers would not be undone)."""
    try:
        data = read(path)
    except FileNotFoundError:
        return []
    lines = data.split(b"\n")
    if lines[-1] != b"":
        return []  # torn
    lines.pop()
    out = []
    for line in lines:
        m = re.fullmatch(rb"(.*) crc32:([0-9a-f]{8})", line)
        if m and zlib.crc32(m.group(1)) == int(m.group(2), 16):
            out.append(m.group(1).decode("ascii", "replace"))
        else:
            out.append(None)
    if not out or out[0] != "hostprep-record 2 lines %d" % (len(out) - 1):
        return []
    return [l for l in out[1:] if l is not None]


def covered(tree, diffs):
    """The invariant at every crash point: each change hostprep made to the tree is named by
    an intact record line that holds the original (so revert can put it back). Returns the
    changes that are not."""
    root, p = tree.root, tree.p
    acs = [l.split() for l in sealed(os.path.join(root, ACS_RECORD)) if l.startswith("acs ")]
    persist = sealed(os.path.join(root, PERSIST_RECORD))
    bad = []
    for d in diffs:
        rel = d.rel
        if rel.startswith("run/") or rel == "run" or rel.startswith("var"):
            continue  # hostprep's own state: checked by what revert makes of it
        if rel in ARTIFACTS or is_sink_temp(rel):
            continue  # what it publishes: checked by published()
        if rel.startswith("sys/") and rel.endswith("/config") and rel in p.data:
            if not acs_covered(tree, rel, acs):
                bad.append("%s (not in %s with its original)" % (d, ACS_RECORD))
            continue
        t = TEMP_RE.match(rel)
        target = t.group(1) if t and d.what == "+f" else rel
        if not file_covered(tree, target, persist, temp=target != rel):
            bad.append("%s (no original in %s)" % (d, PERSIST_RECORD))
    return bad


def acs_covered(tree, rel, acs):
    """A config file may differ only in one recorded port's Control word, whose recorded
    value is the original's."""
    addr = os.path.basename(os.path.dirname(rel))
    old, new = tree.p.data[rel], read(os.path.join(tree.root, rel))
    if len(old) != len(new):
        return False
    offs = [i for i in range(len(old)) if old[i] != new[i]]
    for f in acs:
        if len(f) != 5 or f[1] != addr or f[4] != "/" + os.path.dirname(rel):
            continue
        ctrl = int(f[2], 16) + 6
        orig = int(f[3], 16)
        if all(ctrl <= o < ctrl + 2 for o in offs) and \
                old[ctrl] | old[ctrl + 1] << 8 == orig:
            return True
    return False


def file_covered(tree, rel, persist, temp):
    """A file outside /sys: its original is recorded ("file /REL absent", or "bytes N CRC
    MODE" with an intact backup), and what is there now is that original (a temp file next
    to it: not renamed yet) or what hostprep recorded writing ("wrote /REL N CRC")."""
    path = "/" + rel
    orig = tree.p.data.get(rel)
    if orig is None and rel in tree.p.ents:
        return False  # hostprep owns no directory or link
    want = "file %s absent" % path if orig is None else "file %s bytes %d %08x %04o" % (
        path, len(orig), zlib.crc32(orig), stat.S_IMODE(tree.p.ents[rel][0]))
    if want not in persist:
        return False
    if orig is not None:
        try:
            if read(os.path.join(tree.root, BACKUPS, "%08x.orig" % zlib.crc32(orig))) != orig:
                return False
        except FileNotFoundError:
            return False
    if temp:
        return True
    try:
        now = read(os.path.join(tree.root, rel))
    except FileNotFoundError:
        return orig is None
    return now == orig or "wrote %s %d %08x" % (path, len(now), zlib.crc32(now)) in persist


# ---------------------------------------------------------------- running hostprep


class Env:
    def __init__(self, binary, scratch):
        self.bin, self.scratch = binary, scratch
        self.shim = os.path.join(scratch, "crashshim.so")
        self.lock = threading.Lock()
        self.checks = 0
        self.failures = []
        self.kept = False
        self.pinned = read_killpoints()
        self.counted = {}  # "PHASE SCENARIO" -> crash points of this run

    def hp(self, tree, args, shim=None, wrap=None):
        """Run hostprep on the tree; shim: the CRASH_* variables (LD_PRELOAD'ed)."""
        env = dict(os.environ, LC_ALL="C", TZ="UTC", NO_COLOR="1")
        for v in ("HOSTPREP_CONFIG", "SYSTEMD_LOG_LEVEL", "NOTIFY_SOCKET", "LD_PRELOAD"):
            env.pop(v, None)
        if shim is not None:
            env.update(shim, LD_PRELOAD=self.shim, CRASH_ROOT=tree.root)
        # -v: the whole result text (the table stops at 120 columns)
        cmd = [self.bin, "--root", tree.root, "--no-color", "-v"] + args
        r = subprocess.run((wrap or []) + cmd, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, errors="replace")
        return r

    def result(self, name, problems, tree=None, detail=""):
        with self.lock:
            self.checks += 1
            if not problems:
                return True
            self.failures.append(name)
            print("FAIL %s" % name)
            for p in problems[:12]:
                print("     %s" % p)
            if detail:
                print("     " + detail.rstrip().replace("\n", "\n     "))
            if tree is not None and os.environ.get("KEEP") == "1" and not self.kept:
                self.kept = True
                dst = os.path.join(self.scratch, "failed-tree")
                shutil.copytree(tree.root, dst, symlinks=True)
                print("     tree kept: %s" % dst)
            return False


def tail(r, n=8):
    lines = (r.stdout + r.stderr).rstrip().split("\n")
    return "\n".join("| " + l for l in lines[-n:])


def log_lines(path, root):
    """The shim's log: [n, class, function, path relative to the root] per counted call."""
    try:
        with open(path) as f:
            lines = [l.rstrip("\n").split(" ", 3) for l in f]
    except FileNotFoundError:
        return []
    for l in lines:  # mkostemp's random suffix is not part of a call's identity
        l[3] = re.sub(r"\.tmp-[A-Za-z0-9]{6}$", ".tmp-XXXXXX", os.path.relpath(l[3], root))
    return lines


class Workers:
    """One work tree per worker thread and scenario."""

    def __init__(self, env, pristine):
        self.env, self.pristine = env, pristine
        self.local = threading.local()
        self.n = 0
        self.nlock = threading.Lock()

    def tree(self, scen):
        trees = getattr(self.local, "trees", None)
        if trees is None:
            with self.nlock:
                self.n += 1
                self.local.id = self.n
            trees = self.local.trees = {}
        if scen.name not in trees:
            trees[scen.name] = Tree(self.pristine[scen.name],
                                    os.path.join(self.env.scratch, "w%d-%s" % (self.local.id,
                                                                               scen.name)))
        return trees[scen.name]

    def logfile(self):
        return os.path.join(self.env.scratch, "log-w%d" % self.local.id)


# ---------------------------------------------------------------- phases


def expect_revert_clean(env, tree, name, extra=()):
    """revert (no shim) exits 0 and leaves exactly the original tree."""
    r = env.hp(tree, ["revert"])
    diffs = tree.diff()
    problems = list(extra)
    if r.returncode != 0:
        problems.append("revert exit %d, want 0" % r.returncode)
    problems += ["after revert: %s" % d for d in diffs if not residue(d)]
    ok = env.result(name, problems, tree, tail(r) if problems else "")
    tree.reset(diffs)
    return ok


def count_calls(env, wk, scen, args, prepare):
    """Run once with the shim counting (no kill): the crash points of this command."""
    tree = wk.tree(scen)
    prepare(tree)
    log = wk.logfile()
    if os.path.exists(log):
        os.unlink(log)
    r = env.hp(tree, args, shim={"CRASH_LOG": log})
    calls = log_lines(log, tree.root)
    tree.reset(tree.diff())
    return r, calls


def kill_run(env, wk, scen, args, k, when, calls, prepare, label):
    """Fresh tree (prepared), ARGS killed at call k, the invariant, then revert restores."""
    tree = wk.tree(scen)
    prepare(tree)
    log = wk.logfile()
    if os.path.exists(log):
        os.unlink(log)
    r = env.hp(tree, args, shim={"CRASH_AT": str(k), "CRASH_WHEN": when, "CRASH_LOG": log})
    seen = log_lines(log, tree.root)
    name = "%s %s k=%d %s (%s %s)" % (label, scen.name, k, when, calls[k - 1][2],
                                      calls[k - 1][3])
    problems = []
    if r.returncode != KILLED:
        problems.append("not killed at call %d (exit %d): the calls are not deterministic"
                        % (k, r.returncode))
    elif len(seen) != k or seen[-1][1:] != calls[k - 1][1:]:
        problems.append("killed at %s, not at call %d %s" % (seen[-1:] or "?", k, calls[k - 1]))
    problems += ["after the kill: %s" % b for b in covered(tree, tree.diff())]
    problems += ["after the kill: %s" % b for b in published(env, tree, scen, args, calls, k,
                                                             when)]
    return expect_revert_clean(env, tree, name, problems)


def prepare_fresh(tree):
    pass


def make_prepare_checked(env):
    """A verdict published before the command (a check of the fresh host): what a kill must
    never leave standing once the command has written the host."""
    def prepare(tree):
        env.hp(tree, ["check"])
    return prepare


def make_prepare_applied(env, scen):
    def prepare(tree):
        r = env.hp(tree, scen.cmd)
        if r.returncode != 0:
            raise RuntimeError("apply before the revert kill: exit %d\n%s" % (r.returncode,
                                                                             tail(r)))
    return prepare


def phase_kill(env, wk, pool, scen, args, prepare, label, min_calls):
    """Every k, before and after: the command killed at its k-th call, then revert."""
    r, calls = count_calls(env, wk, scen, args, prepare)
    problems = []
    if r.returncode != 0:
        problems.append("uninterrupted %s: exit %d" % (" ".join(args), r.returncode))
    for what, n in min_calls(calls).items():
        if n <= 0:
            problems.append("the counted run has no %s: the shim misses calls" % what)
    key = "%s %s" % (label, scen.name)
    with env.lock:
        env.counted[key] = len(calls)
    if os.environ.get("CRASH_UPDATE") != "1" and env.pinned.get(key) != len(calls):
        problems.append("%d crash points, %s pinned in tests/crash/killpoints: a write, "
                        "fsync, rename or unlink appeared or went away. If that is meant, "
                        "rerun with CRASH_UPDATE=1 and commit the file with the reason"
                        % (len(calls), env.pinned.get(key, "none")))
    problems += durability(calls, scen, "revert" in args)
    problems += publish_order(calls, scen, args)
    if not env.result("%s %s: %d crash points counted" % (label, scen.name, len(calls)),
                      problems, detail=tail(r) if problems else ""):
        return []
    print("     %s %s: %d crash points x before/after" % (label, scen.name, len(calls)))
    futs = [pool.submit(kill_run, env, wk, scen, args, k, when, calls, prepare, label)
            for k in range(1, len(calls) + 1) for when in ("before", "after")]
    # one past the last call: the shim must not fire (the count is exact)
    futs.append(pool.submit(beyond_last, env, wk, scen, args, len(calls), prepare, label))
    return futs


def beyond_last(env, wk, scen, args, n, prepare, label):
    tree = wk.tree(scen)
    prepare(tree)
    r = env.hp(tree, args, shim={"CRASH_AT": str(n + 1)})
    problems = [] if r.returncode != KILLED else ["killed at call %d of %d" % (n + 1, n)]
    return expect_revert_clean(env, tree, "%s %s k=%d: no such call" % (label, scen.name, n + 1),
                               problems)


# ---- the order of a durable change, from the counted run's calls
#
# A kill loses nothing the process wrote, a power loss loses what was not fsync'd: the
# kills above cannot see a missing fsync, so the counted run's calls must show each one.


def durable_by(calls, i, target):
    """What is missing for the last change of TARGET (a rename onto it from its temp file,
    or its unlink) before call index i to be on disk by then: the temp file's fsync after
    its last write and before the rename, then the directory's fsync before call i."""
    ch = [j for j in range(i) if calls[j][3] == target and calls[j][1] in ("rename", "unlink")]
    if not ch:
        return ["no rename onto /%s before it" % target]
    j = ch[-1]
    missing = []
    if calls[j][1] == "rename":
        tmp = target + ".tmp-XXXXXX"
        w = [k for k in range(j) if calls[k][1] == "write" and calls[k][3] == tmp]
        if not any(calls[k][1] == "fsync" and calls[k][3] == tmp
                   for k in range((w[-1] if w else -1) + 1, j)):
            missing.append("the fsync of /%s between its last write and its rename "
                           "(call %d)" % (tmp, j + 1))
    d = os.path.dirname(target)
    if not any(calls[k][1] == "fsync" and calls[k][3] == d for k in range(j + 1, i)):
        missing.append("the fsync of /%s after the %s of /%s (call %d)" % (d, calls[j][1],
                                                                       target, j + 1))
    return missing


def durability(calls, scen, revert):
    """apply: every config-space write comes after a durable ACS record rewrite, every
    write of an owned file after durable rewrites of the persistent store (record and
    backups); revert: an owned file is put back durably before its record line goes."""
    problems = []

    def need(i, what, targets):
        for t in targets:
            for m in durable_by(calls, i, t):
                problems.append("call %d (%s %s) before %s" % (i + 1, what, calls[i][3], m))

    store = lambda i: sorted({c[3] for c in calls[:i] if c[1] == "rename" and
                              c[3].startswith("var/lib/hostprep/")}) or [PERSIST_RECORD]
    if revert:
        gone = [i for i, c in enumerate(calls) if c[1] == "unlink" and c[3] == PERSIST_RECORD]
        if gone:
            need(gone[0], "removal of", [o for o in scen.owned
                                         if any(c[3] == o for c in calls[:gone[0]])])
        return problems
    first = set()
    for i, c in enumerate(calls):
        if c[2].startswith("pwrite") and c[3].endswith("/config"):
            need(i, "config-space write", [ACS_RECORD])
        for o in scen.owned:
            if c[1] == "write" and c[3] == o + ".tmp-XXXXXX" and o not in first:
                first.add(o)
                need(i, "write of", store(i))
    return problems


# ---- what a run publishes, at every crash point
#
# Before its first hardware write a run that writes puts every artifact in its not-ready
# form (src/cli/run-publish.c), and replaces it with its verdict at the end: a kill in
# between leaves NOT READY everywhere, never the previous READY of a host it has changed.


def publishes(args):
    return args[0] in ("apply", "revert")


def first_hardware_write(calls, scen):
    """Index of the run's first change to the host: a config-space write, or a call on an
    owned file (its temp included); None without one."""
    owned = set(scen.owned) | {o + ".tmp-XXXXXX" for o in scen.owned}
    for i, c in enumerate(calls):
        if (c[2].startswith("pwrite") and c[3].endswith("/config")) or c[3] in owned:
            return i
    return None


def last_change(calls, rel):
    """Index of the last rename onto (or unlink of) rel: where the run's verdict lands."""
    ch = [i for i, c in enumerate(calls) if c[3] == rel and c[1] in ("rename", "unlink")]
    return ch[-1] if ch else None


def artifact_state(tree, rel):
    """absent, pending (the not-ready form of a run in progress), ready, not ready, or
    verdict (rdma.env, gpus.json, p2p.json and p2p.env, which say nothing of readiness)."""
    try:
        data = read(os.path.join(tree.root, rel)).decode("utf-8", "replace")
    except FileNotFoundError:
        return "absent"
    lines = [l for l in data.split("\n") if l]
    if rel == REPORT:
        try:
            j = json.loads(data)
        except ValueError:
            return "damaged"
        rs = j.get("results") or [{}]
        if len(rs) == 1 and (rs[0].get("check"), rs[0].get("object"), rs[0].get(
                "verdict")) == ("run", "host", "unknown") and "has not finished" in rs[0].get(
                    "actual", ""):
            return "pending"
        return "ready" if j.get("ready") is True else "not ready"
    if rel == PROM:
        checks = [l for l in lines if l.startswith("hostprep_check{")]
        if "hostprep_ready 0" in lines and checks == [
                'hostprep_check{check="run",object="host",verdict="unknown"} 1']:
            return "pending"
        return "ready" if "hostprep_ready 1" in lines else "not ready"
    if rel == NFD:
        ns = "feature.node.kubernetes.io/hostprep."
        if lines == [ns + "ready=false", ns + "run=unknown"]:
            return "pending"
        return "ready" if ns + "ready=true" in lines else "not ready"
    if rel == RDMA_ENV and not [l for l in lines if not l.startswith("#")] and \
            "# Not ready:" in data:
        return "pending"
    return "verdict"


def done_by(i, k, when):
    """Was call index i made before a kill at call k (before or after it)?"""
    return i is not None and (i + 1 < k or (i + 1 == k and when == "after"))


def published(env, tree, scen, args, calls, k, when):
    """The artifacts after a kill at call k: between the run's first hardware write and the
    rename of its own verdict onto an artifact, that artifact is absent or not-ready; and
    any that says READY says what a (non-publishing) check of the host now says."""
    if not publishes(args):
        return []
    hw = first_hardware_write(calls, scen)
    problems, claims = [], []
    for a in ARTIFACTS:
        st = artifact_state(tree, a)
        if done_by(hw, k, when) and not done_by(last_change(calls, a), k, when) and \
                st not in ("absent", "pending"):
            problems.append("/%s is '%s' after the first hardware write (call %d), before "
                            "this run's verdict: the previous verdict stands" % (a, st, hw + 1))
        if st == "ready":
            claims.append("/" + a)
    if claims:
        conf = os.path.join(tree.root, "etc", "hostprep", "hostprep.conf")
        r = env.hp(tree, ["--config", conf, "check"])
        if r.returncode != 0:
            problems.append("%s say(s) READY, a check of the host exits %d" % (
                ", ".join(claims), r.returncode))
    return problems


def publish_order(calls, scen, args):
    """In the counted run: each artifact is changed (its not-ready form) before the first
    hardware write, and once more after it (the verdict)."""
    if not publishes(args):
        return []
    hw = first_hardware_write(calls, scen)
    if hw is None:
        return ["the counted run makes no hardware write"]
    problems = []
    for a in ARTIFACTS:
        ch = [i for i, c in enumerate(calls) if c[3] == a and c[1] in ("rename", "unlink")]
        if not any(i < hw for i in ch):
            problems.append("call %d (%s %s) before /%s says not ready" % (
                hw + 1, calls[hw][2], calls[hw][3], a))
        if not any(i > hw for i in ch):
            problems.append("/%s never gets the run's verdict after call %d" % (a, hw + 1))
    return problems


def read_killpoints():
    pinned = {}
    try:
        with open(KILLPOINTS) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    phase, scen, n = line.split()
                    pinned["%s %s" % (phase, scen)] = int(n)
    except FileNotFoundError:
        pass
    return pinned


def write_killpoints(env):
    pinned = dict(env.pinned, **env.counted)
    with open(KILLPOINTS, "w") as f:
        f.write("# Crash points of each phase's uninterrupted run (tests/crash/run.py checks them\n"
                "# exactly; CRASH_UPDATE=1 rewrites this file, see README.md).\n")
        for key in sorted(pinned, key=lambda k: (k.split()[1], k.split()[0])):
            f.write("%s %d\n" % (key, pinned[key]))
    print("crash: %s rewritten" % KILLPOINTS)


def apply_min_calls(scen):
    def f(calls):
        paths = [c[3] for c in calls]
        need = {"config-space write (pwrite)": sum(c[2].startswith("pwrite") for c in calls),
                "append to " + ACS_RECORD: sum(p == ACS_RECORD for p in paths)}
        if "apply" not in scen.cmd or scen.name not in ("acs+persist", "publish"):
            need.pop("config-space write (pwrite)")
            need.pop("append to " + ACS_RECORD)
        for o in scen.owned:
            need["rename onto /" + o] = sum(p == o and c[1] == "rename"
                                            for p, c in zip(paths, calls))
        return need
    return f


def revert_min_calls(scen):
    def f(calls):
        paths = [c[3] for c in calls]
        need = {"change to /" + o: sum(p == o for p in paths) for o in scen.owned}
        if scen.name in ("acs+persist", "publish"):
            need["config-space write (pwrite)"] = sum(c[2].startswith("pwrite") for c in calls)
            need["removal of " + ACS_RECORD] = sum(p == ACS_RECORD and
                                                   c[1] == "unlink" for p, c in zip(paths, calls))
        return need
    return f


# ---- disk full under the records


def acs_ports(out):
    return set(re.findall(r"^PASS +acs\.write +(\S+) ", out, re.M))


def enospc_run(env, wk, scen, j, short, ports):
    """The disk is full from the j-th write to a record on: apply writes no register whose
    original it could not record, says so (exit 1), and revert restores everything."""
    tree = wk.tree(scen)
    shim = {"CRASH_ENOSPC": ",".join(RECORD_PATHS), "CRASH_ENOSPC_FROM": str(j)}
    if short:
        shim["CRASH_ENOSPC_SHORT"] = "1"
    r = env.hp(tree, scen.cmd, shim=shim)
    name = "enospc %s from record write %d%s" % (scen.name, j, " (short write)" if short else "")
    problems = []
    if r.returncode != 1:
        problems.append("apply exit %d, want 1 (not ready)" % r.returncode)
    if "No space left on device" not in r.stdout:
        problems.append("apply does not say 'No space left on device'")
    diffs = tree.diff()
    problems += ["unrecorded change: %s" % b for b in covered(tree, diffs)]
    changed = {os.path.basename(os.path.dirname(d.rel)) for d in diffs
               if d.rel.startswith("sys/")}
    for port in sorted(ports - changed):
        if not re.search(r"^FAIL +acs\.write +%s +.*not written: cannot record the original: "
                         r"No space left on device" % re.escape(port), r.stdout, re.M):
            problems.append("%s not written, but no 'not written: cannot record the original: "
                            "No space left on device' for it" % port)
    for port in sorted(ports & changed):
        if not re.search(r"^PASS +acs\.write +%s " % re.escape(port), r.stdout, re.M):
            problems.append("%s written but not reported as written" % port)
    for o in scen.owned:
        if not any(d.rel == o for d in diffs) and \
                not re.search(r"^FAIL +%s +/%s +.*(not written|write failed).*No "
                              r"space left on device" % (re.escape(scen.check), re.escape(o)),
                              r.stdout, re.M):
            problems.append("/%s not written, and no %s fail says why" % (o, scen.check))
    return expect_revert_clean(env, tree, name, problems)


def phase_enospc(env, wk, pool, scen):
    r, calls = count_calls(env, wk, scen, scen.cmd, prepare_fresh)
    m = sum(1 for c in calls if c[1] == "write" and any(p in "/" + c[3] for p in RECORD_PATHS))
    ok = env.result("enospc %s: %d record writes counted" % (scen.name, m),
                    [] if m > 0 and r.returncode == 0 else ["no record writes (exit %d)"
                                                            % r.returncode])
    if not ok:
        return []
    ports = acs_ports(r.stdout)
    return [pool.submit(enospc_run, env, wk, scen, j, short, ports)
            for j in range(1, m + 1) for short in (False, True)]


# ---- read-only record directory


def ro_wrap(tree, rel):
    """A command prefix that runs hostprep with <root>/rel read-only: a read-only bind mount
    in a private mount namespace as root (mode bits do not stop root), mode 0555 otherwise."""
    d = os.path.join(tree.root, rel)
    if os.geteuid() == 0:
        return ["unshare", "-m", "--propagation", "private", "sh", "-c",
                'mount --bind -o ro "$0" "$0" && exec "$@"', d]
    return None


def run_ro(env, tree, rel, args):
    d = os.path.join(tree.root, rel)
    os.makedirs(d, exist_ok=True)
    wrap = ro_wrap(tree, rel)
    if wrap is None:
        os.chmod(d, 0o555)
        try:
            return env.hp(tree, args)
        finally:
            os.chmod(d, 0o755)
    return env.hp(tree, args, wrap=wrap)


def ro_runs(env, wk, scen):
    tree = wk.tree(scen)
    # 1. /run/hostprep read-only: no lock, no record: nothing may be written at all
    r = run_ro(env, tree, "run/hostprep", scen.cmd)
    diffs = tree.diff()
    problems = [] if r.returncode == 3 else ["apply exit %d, want 3" % r.returncode]
    if "Read-only file system" not in r.stderr:
        problems.append("apply does not say 'Read-only file system' on stderr")
    problems += ["written: %s" % d for d in diffs if not residue(d)]
    env.result("read-only %s: /run/hostprep" % scen.name, problems, tree,
               tail(r) if problems else "")
    tree.reset(diffs)
    # 2. /var/lib/hostprep read-only: the file's original cannot be recorded; ACS can
    r = run_ro(env, tree, "var/lib/hostprep", scen.cmd)
    problems = [] if r.returncode == 1 else ["apply exit %d, want 1" % r.returncode]
    for o in scen.owned:
        if not re.search(r"^FAIL +%s +/%s +.*not written: cannot record the "
                         r"original: Read-only file system" % (re.escape(scen.check),
                                                               re.escape(o)), r.stdout, re.M):
            problems.append("no %s fail 'not written: cannot record the original: "
                            "Read-only file system' for /%s" % (scen.check, o))
    diffs = tree.diff()
    problems += ["unrecorded change: %s" % b for b in covered(tree, diffs)]
    problems += ["written: %s" % d for d in diffs if d.rel in scen.owned]
    expect_revert_clean(env, tree, "read-only %s: /var/lib/hostprep" % scen.name, problems)
    # 3. applied, then revert with /run/hostprep read-only: the record cannot be cleared;
    #    revert says so, and a later revert (writable again) finishes the job
    r = env.hp(tree, scen.cmd)
    r2 = run_ro(env, tree, "run/hostprep", ["revert"])
    problems = [] if r.returncode == 0 else ["apply exit %d" % r.returncode]
    if r2.returncode == 0:
        problems.append("revert with a read-only /run/hostprep exit 0: it cannot have "
                        "cleared the record")
    problems += ["after the read-only revert: %s" % b for b in covered(tree, tree.diff())]
    expect_revert_clean(env, tree, "read-only %s: revert, then revert again" % scen.name,
                        problems)
    return True


# ---------------------------------------------------------------- main


def build(scratch):
    fixtures = {}
    pristine = {}
    for s in SCENARIOS:
        if s.fixture not in fixtures:
            d = os.path.join(scratch, "fx-" + s.fixture)
            subprocess.run([sys.executable, os.path.join(FAKE, "mkroot.py"), s.fixture, d],
                           check=True, env=dict(os.environ, TMPDIR=scratch))
            fixtures[s.fixture] = d
        d = os.path.join(scratch, "pristine-" + s.name)
        subprocess.run(["cp", "-a", fixtures[s.fixture], d], check=True)
        shutil.copy(os.path.join(HERE, s.conf), os.path.join(d, "etc", "hostprep",
                                                             "hostprep.conf"))
        os.chmod(os.path.join(d, "etc", "hostprep", "hostprep.conf"), 0o644)
        s.setup(d)
        setup_sinks(d)
        pristine[s.name] = Pristine(d)
    return pristine


def scratch_dir():
    """tmpfs when there is one: hostprep fsyncs each record line, a disk makes that slow."""
    base = os.environ.get("CRASH_TMPDIR")
    if not base:
        base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
    d = tempfile.mkdtemp(prefix="hostprep-crash.", dir=base)
    # acs.grub sources the GRUB files as nobody when run as root: it must reach the trees
    os.chmod(d, 0o755)
    return d


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    start = time.monotonic()
    binary = os.path.realpath(argv[1])
    scratch = os.path.realpath(scratch_dir())
    env = Env(binary, scratch)
    only = os.environ.get("CRASH_ONLY", "*")
    jobs = int(os.environ.get("JOBS", min(2, os.cpu_count() or 1)))
    try:
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-o", env.shim,
                        os.path.join(HERE, "crashshim.c"), "-ldl"], check=True)
        pristine = build(scratch)
        wk = Workers(env, pristine)
        futs = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for s in SCENARIOS:
                applied = make_prepare_applied(env, s)
                for phase, fn in (
                        ("apply-kill", lambda: phase_kill(env, wk, pool, s, s.cmd,
                                                          make_prepare_checked(env),
                                                          "apply-kill", apply_min_calls(s))),
                        ("revert-kill", lambda: phase_kill(env, wk, pool, s, ["revert"],
                                                           applied, "revert-kill",
                                                           revert_min_calls(s))),
                        ("enospc", lambda: phase_enospc(env, wk, pool, s)),
                        ("read-only", lambda: [pool.submit(ro_runs, env, wk, s)])):
                    if s.phases is not None and phase not in s.phases:
                        continue
                    if fnmatch.fnmatch(phase, only) or fnmatch.fnmatch("%s %s" % (phase, s.name),
                                                                       only):
                        futs += fn()
            for f in concurrent.futures.as_completed(futs):
                f.result()  # an exception in a check is a failure of the tier
        if os.environ.get("CRASH_UPDATE") == "1":
            write_killpoints(env)
    finally:
        if os.environ.get("KEEP") == "1":
            print("scratch kept: %s" % scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print("crash: %d checks, %d failed (%.1f s)" % (env.checks, len(env.failures),
                                                 time.monotonic() - start))
    if not env.failures and not env.checks:
        # (CRASH_ONLY matching no phase or scenario): nothing checked is no pass
        print("crash: FAILED: no check ran: nothing was checked")
        return 1
    return 1 if env.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
