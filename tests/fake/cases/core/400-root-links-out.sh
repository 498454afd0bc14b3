# issue 25: the root is a directory handle. Every directory hostprep reads below --root,
# replaced in turn by a symlink out of the root (an absolute one, then one that climbs
# "../../.."), yields nothing from outside: the link resolves inside the root (to
# nothing there), so no output, no snapshot member and no file hostprep writes holds the
# marker planted in the copy outside, and no open (strace) lands outside the root.
#
# The directories are not listed by hand: they are what strace shows check (a config
# with every section), rdma, topology, status and snapshot open on a tree that has
# RDMA ports, a bond, GPUs, the module index and device nodes (ib-gpu-lag with
# ofed-gpu's and workload-ib's files added), each with the commands that read it. To keep
# the case short, directories of one kind stand for each other (the same place below
# another PCI function, RDMA device, netdev or module; the one most commands read is
# taken), and snapshot (~1 s a run) runs without strace, on the absolute links, for the
# directories at most three levels down; ROOTLINKS_ALL=1 takes every directory, and
# snapshot under strace on both kinds of link everywhere.
need_tool strace
need_tool realpath
# LeakSanitizer cannot run under ptrace; the sanitizer tier checks leaks elsewhere.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
HP_ENV=(timeout -k 2 20)

newroot ib-gpu-lag
cp -an "$PRISTINE/ofed-gpu/." "$R/"
cp -an "$PRISTINE/workload-ib/." "$R/"
mkdir -p "$R/var/lib/prometheus/node-exporter" "$R/etc/kubernetes/node-feature-discovery/features.d"
cat >"$R/etc/hostprep/hostprep.conf" <<'EOF'
[Host]
Apply=yes

[IOMMU]
Expect=any

[ACS:gpu-p2p]
Select=upstream:10de:*

[AER]

[Module:mlx5_core]
Origin=ofed
Devices=yes

[Module:nvidia_peermem]
Load=yes

[GPUDirect]
Expect=either

[Port:rails]
Select=mlx5_[0-7]
LinkLayer=InfiniBand

[Port:lag]
Select=mlx5_bond_*
LinkLayer=Ethernet

[Bond:bond0]
Mode=802.3ad
RDMA=mlx5_bond_0

[Workload]
DeviceNodes=yes
NetnsMode=shared

[Sysctl]
Expect=kernel.numa_balancing=0

[Links]

[Topology]
ExpectP2P=gpu:nic-nearest

[Inventory]
GPUs=8

[Sinks]
Prometheus=yes
NFD=yes
EOF

CMDS=(check rdma topology status snapshot)
# run CMD [plain]: the command on $R, under strace unless plain; its output in $T/o.CMD
# (a snapshot's members and manifest too), its opens in $T/st.CMD
run() {
	local args tracer=(strace --seccomp-bpf -f -qq -y -e trace=open,openat,openat2,creat -o "$T/st.$1")
	case $1 in
	check) args=(--json check) ;;
	snapshot) args=(snapshot -o "$T/snap.tar") ;;
	*) args=("$1") ;;
	esac
	[ "${2-}" = plain ] && tracer=() && : >"$T/st.$1"
	rm -f "$T/snap.tar"
	env "${HP_ENV[@]}" "${tracer[@]}" "$BIN" --root "$R" --no-color "${args[@]}" </dev/null >"$T/o.$1" 2>&1
	RC=$?
	[ "$RC" = 124 ] && fail "hostprep $1 hung"
	expect_exited "$RC" "hostprep $1"
	# what is outside shows in the members (the twins' names) and in the manifest
	if [ -f "$T/snap.tar" ]; then
		tar -tvf "$T/snap.tar" >>"$T/o.$1" 2>&1
		tar -xOf "$T/snap.tar" >>"$T/o.$1" 2>&1
	fi
}

# dirs.py ROOT LOG...: "DIR CMD..." per directory below ROOT that an open in the logs
# read (a directory opened, or the one of a file), as a physical path relative to ROOT,
# and the top one it is in (sys, etc, ...); the commands that read it
cat >"$T/dirs.py" <<'PY'
import os, re, sys
root, all_dirs = os.path.realpath(sys.argv[1]), sys.argv[2] == "1"
pat = re.compile(r'^\d+\s+(?:open|openat|openat2|creat)\((?:(?:AT_FDCWD|-?\d+)(?:<([^>]*)>)?,\s*)?'
                 r'"((?:[^"\\]|\\.)*)",\s*(\{[^}]*\}|[A-Z0-9_|]+).*=\s*(-?\d+)(?:<([^>]*)>)?')

def physical(p):  # the path with what exists of it resolved (nothing below is followed)
    head, tail = p, []
    while head != "/" and not os.path.lexists(head):
        head, t = os.path.split(head)
        tail.insert(0, t)
    return os.path.join(os.path.realpath(head), *tail)

dirs = {}
for log in sys.argv[3:]:
    cmd = log.rsplit(".", 1)[1]
    for line in open(log):
        m = pat.match(line)
        if not m:
            continue
        dpath, path, flags, rc, res = m.groups()
        isdir = "O_DIRECTORY" in flags
        if int(rc) >= 0 and res:
            p = res if os.path.isdir(res) and not os.path.islink(res) else os.path.dirname(res)
        else:
            named = os.path.normpath(os.path.join(dpath or "/", path))
            p = physical(named if isdir else os.path.dirname(named))
        while p.startswith(root + "/"):
            if os.path.isdir(p) or not os.path.lexists(p):
                dirs.setdefault(os.path.relpath(p, root), set()).add(cmd)
            if p.count("/") <= root.count("/") + 1:
                break
            p = root + "/" + os.path.relpath(p, root).split("/")[0]  # and the top (sys, etc...)

def shape(d):  # one of a kind: below another PCI function, RDMA device, netdev, module
    d = re.sub(r"pci[0-9a-f]{4}:[0-9a-f]{2}", "pciR", d)
    d = re.sub(r"(/[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f])+", "/A", d)
    d = re.sub(r"^sys/module/[^/]+", "sys/module/M", d)
    d = re.sub(r"/(infiniband|infiniband_verbs|infiniband_mad|net)/[^/]+", r"/\1/D", d)
    return re.sub(r"[0-9]+", "N", d)

CMDS = ["check", "rdma", "topology", "status", "snapshot"]
pick = {}
for d in sorted(dirs):
    s = d if all_dirs else shape(d)
    if s not in pick or len(dirs[d]) > len(dirs[pick[s]]):
        pick[s] = d
for d in sorted(pick.values()):
    print(d, " ".join(c for c in CMDS if c in dirs[d]))
PY

# 1. the directories a full run reads
for c in "${CMDS[@]}"; do
	run "$c"
done
python3 "$T/dirs.py" "$R" "${ROOTLINKS_ALL:-0}" "${CMDS[@]/#/$T/st.}" >"$T/dirs"
n=$(wc -l <"$T/dirs")
[ "$n" -ge 40 ] || fail "only $n directories found to replace: the strace parse is broken"
grep -qx 'sys/class/infiniband check rdma.*' "$T/dirs" || fail "sys/class/infiniband is not among the directories read"
note "$n directories to replace by a link out"

# 2. the copy outside the root: every one of those directories, with a marked twin of
# its first entry (a device, a netdev, a drop-in...), and a marked drop-in; 3. each
# directory in turn, as an absolute and as a climbing link to its copy outside, and the
# commands that read it. links.py prints one line per leak.
cat >"$T/links.py" <<'PY'
import os, re, shutil, subprocess, sys
T, R, BIN, dirs_file, ALL = sys.argv[1:6]
ALL = ALL == "1"
O = os.path.join(T, "elsewhere", "root")
WRITTEN = ["run/hostprep", "var/lib/prometheus", "etc/kubernetes"]
TRACE = ["strace", "--seccomp-bpf", "-f", "-qq", "-y", "-e", "trace=open,openat,openat2,creat", "-o"]
ARGS = {"check": ["--json", "check"], "snapshot": ["snapshot", "-o", T + "/snap.tar"]}

def twin(d):
    os.makedirs(d, exist_ok=True)
    names = sorted(os.listdir(d))
    if not names:
        open(os.path.join(d, "hpmark"), "w").write("hpmark\n")
        return
    src, dst = os.path.join(d, names[0]), os.path.join(d, "hpmark-" + names[0])
    if os.path.islink(src):
        os.symlink(os.readlink(src), dst)
    elif os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True)
    else:
        shutil.copy2(src, dst)

def run(c, trace):
    """(what the command showed, what it opened), or a reason it is broken"""
    st = os.path.join(T, "st." + c)
    cmd = (TRACE + [st] if trace else []) + [BIN, "--root", R, "--no-color"] + ARGS.get(c, [c])
    if os.path.exists(T + "/snap.tar"):
        os.unlink(T + "/snap.tar")
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=20)
    except subprocess.TimeoutExpired:
        return None, None, "hung"
    if p.returncode not in (0, 1, 2, 3):
        return None, None, "exit %d is not one of hostprep's" % p.returncode
    out = p.stdout
    if os.path.exists(T + "/snap.tar"):  # its members (the twins' names) and contents
        for tar in (["tar", "-tvf"], ["tar", "-xOf"]):
            out += subprocess.run(tar + [T + "/snap.tar"], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT).stdout
    return out, open(st, "rb").read() if trace else b"", None

# The commands to run: on the absolute link the first that reads d, rdma (the issue's
# reproducer) wherever it reads, and snapshot for a top directory or one right below it;
# on the climbing link (the same resolution: ".." stops at the root) the first only.
def pick(d, kind, cmds):
    if ALL:
        return cmds
    out = []
    for c in cmds:
        if c == "snapshot" and d.count("/") > 1:
            continue
        if not out or (kind == "absolute" and c in ("rdma", "snapshot")):
            out.append(c)
    return out

def written_holds(d):  # a file hostprep wrote (not through d, which is no longer its)
    for w in WRITTEN:
        if w == d or w.startswith(d + "/"):
            continue
        for top, _, files in os.walk(os.path.join(R, w)):
            for f in files:
                p = os.path.join(top, f)
                if not os.path.islink(p) and b"hpmark" in open(p, "rb").read():
                    return p
    return None

def context(data, what):
    i = data.find(what)
    return data[max(0, i - 60):i + 60].decode(errors="replace").replace("\n", " ")

dirs = [l.split() for l in open(dirs_file)]
shutil.copytree(R, O, symlinks=True)
for d, *_ in dirs:
    twin(os.path.join(O, d))
for d in ["etc/hostprep/hostprep.conf.d", "run/hostprep/hostprep.conf.d", "usr/lib/hostprep/hostprep.conf.d"]:
    os.makedirs(os.path.join(O, d), exist_ok=True)
    open(os.path.join(O, d, "50-hpmark.conf"), "w").write("[Sysctl]\nExpect=kernel.hpmark=1\n")

outside, kept, runs = os.path.join(T, "elsewhere").encode(), os.path.join(T, "kept"), 0
for d, *cmds in dirs:
    at, parent = os.path.join(R, d), os.path.dirname(os.path.join(R, d))
    os.makedirs(parent, exist_ok=True)  # a directory the root lacks is replaced too
    for kind in ("absolute", "relative"):
        todo = pick(d, kind, cmds)
        if not todo:
            continue
        there = os.path.lexists(at)
        if there:
            os.rename(at, kept)
        os.symlink(os.path.join(O, d) if kind == "absolute" else os.path.relpath(os.path.join(O, d), parent), at)
        for c in todo:
            runs += 1
            out, opened, broken = run(c, trace=ALL or c != "snapshot")
            why = "%s linked out (%s): hostprep %s" % (d, kind, c)
            if broken:
                print("%s %s" % (why, broken))
            elif b"hpmark" in out:
                print("%s shows what is outside: ...%s..." % (why, context(out, b"hpmark")))
            elif outside in opened:
                print("%s opened outside the root: ...%s..." % (why, context(opened, outside)))
        w = written_holds(d)
        if w:
            print("%s linked out (%s): a file hostprep wrote holds what is outside: %s" % (d, kind, w))
        os.unlink(at)
        if there:
            os.rename(kept, at)
print("runs %d" % runs)
PY
leaks=0
more=()
while read -r line; do
	case $line in
	"runs "*) note "${line#runs } runs of hostprep on a tree with one directory linked out" ;;
	*)
		leaks=$((leaks + 1))
		if [ "$leaks" -le 12 ]; then
			fail "$line"
		else
			[[ " ${more[*]} " == *" ${line%% *} "* ]] || more+=("${line%% *}")
		fi
		;;
	esac
done < <(python3 "$T/links.py" "$T" "$R" "$BIN" "$T/dirs" "${ROOTLINKS_ALL:-0}" 2>&1)
[ "$leaks" -le 12 ] || fail "... $leaks leaks in all, also through: ${more[*]}"
