#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make bench: speed and memory targets of the real binary on fake hosts.

Timing lives here, never in the tests. Each command runs REPEAT times
against a fixture; we report the median wall time and the largest max-RSS
of any run, and fail if a target is missed. Time targets are for hostprep's
own cost: the median spawn time of /bin/true on the same machine (fork,
exec, dynamic loader; 4-5 ms on a small VM) is measured first and
subtracted.
"""
import os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPEAT = int(os.environ.get("BENCH_REPEAT", "50"))

# (name, fixture, argv after --root/--config, median ms over /bin/true, max RSS KiB)
CASES = [
    ("check dgx8", "dgx8", ["check"], 20.0, 8192),
    ("apply --dry-run dgx8", "dgx8", ["apply", "--dry-run"], 15.0, 8192),
    ("check l40-amd", "l40-amd", ["check"], 20.0, 8192),
    ("status", "dgx8", ["status"], 5.0, 6144),
    ("config", "dgx8", ["config"], 5.0, 6144),
    # issue 7: the module checks on the OFED GPU node; compare with "check ofed-gpu (ACS
    # only)": the difference is their cost (target: at most 2 ms)
    ("check ofed-gpu (ACS only)", "ofed-gpu", ["check"], 20.0, 8192),
    ("check ofed-gpu (+modules)", "ofed-gpu", ["check"], 22.0, 8192, "gpu-p2p+kmod-ofed"),
    # issue 8: ports and bonds on the IB GPU node with the RoCE LAG; the difference to
    # "(ACS only)" is their cost (target: at most 3 ms)
    ("check ib-gpu-lag (ACS only)", "ib-gpu-lag", ["check"], 20.0, 8192),
    ("check ib-gpu-lag (+ports+bonds)", "ib-gpu-lag", ["check"], 23.0, 8192,
     "gpu-p2p+ib-gpu-lag"),
]


def spawn_times(spawn, argv):
    for _ in range(REPEAT):
        out = subprocess.run([spawn] + argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, env=dict(os.environ, SOURCE_DATE_EPOCH="1700000000"),
                             check=True)
        yield (int(x) for x in out.stdout.split()[-3:])


def baseline(spawn):
    return statistics.median(ns / 1e6 for _, ns, _ in spawn_times(spawn, ["/bin/true"]))


def run_case(spawn, binary, root, conf, argv):
    times = []
    rss = 0
    for code, ns, kib in spawn_times(spawn, [binary, "--root", root, "--config", conf,
                                             "--no-color"] + argv):
        if code > 1:
            sys.exit(f"bench: {' '.join(argv)} exited {code}")
        times.append(ns / 1e6)
        rss = max(rss, kib)
    return statistics.median(times), rss


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/hostprep")
    spawn = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "build/bench-spawn")
    conf = os.path.join(HERE, "fake", "configs", "gpu-p2p.conf")
    failed = 0
    base = baseline(spawn)
    print(f"baseline: /bin/true spawn median {base:.2f} ms (subtracted)")
    with tempfile.TemporaryDirectory() as tmp:
        for name, fixture, argv, t_ms, rss_kib, *confs in CASES:
            root = os.path.join(tmp, fixture)
            case_conf = conf
            if confs:  # "a+b": configs/a.conf and configs/b.conf concatenated
                case_conf = os.path.join(tmp, confs[0] + ".conf")
                with open(case_conf, "w") as out:
                    for part in confs[0].split("+"):
                        with open(os.path.join(HERE, "fake", "configs", part + ".conf")) as f:
                            out.write(f.read() + "\n")
            if not os.path.exists(root):
                subprocess.run([sys.executable, os.path.join(HERE, "fake", "mkroot.py"),
                                fixture, root], check=True, stdout=subprocess.DEVNULL)
            if argv == ["status"]:
                subprocess.run([binary, "--root", root, "--config", conf, "check"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            med, rss = run_case(spawn, binary, root, case_conf, argv)
            med = max(0.0, med - base)
            ok = med <= t_ms and rss <= rss_kib
            failed += not ok
            print(f"{'ok  ' if ok else 'MISS'} {name:32} +{med:6.2f} ms (target {t_ms} ms)"
                  f"  max RSS {rss} KiB (target {rss_kib} KiB)")
    print(f"bench: {len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
