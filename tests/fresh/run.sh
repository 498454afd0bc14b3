#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The fresh-machine tier: the README's commands in a minimal Debian 12 root, the way a new
# user's machine starts. The root is Debian's own minbase (mmdebstrap --variant=minbase
# bookworm: apt, dpkg, bash, coreutils, util-linux) plus make and git, nothing else; every
# package a target needs, the target must install itself (tests/deps.sh). A green run on a
# machine someone set up by hand proves nothing about a fresh one; this does.
#
#   tests/fresh/run.sh [TARGET...]     each as `make TARGET CI=true` in /src, in order
#                                      (default: run check, the README's Set-up)
#
# The tree is a clean export of HEAD (commit first: uncommitted edits are not in it), made
# a one-commit git repository in /src, as a clone would be (packaging/build.sh lists the
# files with git). The host's apt sources and resolv.conf are copied in.
# Environment:
#   FRESH_CACHE    the minbase tarball's directory (default /var/cache/hostprep-fresh);
#                  made again when older than FRESH_MAX_AGE days (default 7)
#   VMTEST_CACHE   the QEMU tier's guest image cache on the host (default
#                  /var/cache/hostprep-vm), bind-mounted into the root: built once per machine
#   FRESH_KEEP=1   keep the root afterwards (its path is printed)
#   CASES, JOBS, BENCH_*, FUZZ_*, VMTEST_*: passed to the make (nothing else of the
#                  caller's environment is)
# Needs root (mounts, chroot); installs mmdebstrap when missing. The mounts (/proc, /sys,
# /dev, the image cache) live in a private mount namespace: they go away with the run,
# however it ends. Services are not started in the root (policy-rc.d), as in any chroot.
# Prints "time: fresh-setup N s" and "time: fresh-TARGET N s"; exits with the status of
# the first make that fails (later targets are not run).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
SUITE=bookworm
CACHE=${FRESH_CACHE:-/var/cache/hostprep-fresh}
MAX_AGE=${FRESH_MAX_AGE:-7}
VMCACHE=${VMTEST_CACHE:-/var/cache/hostprep-vm}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(run check)

die() { echo "tests/fresh/run.sh: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || die "needs root (mounts, chroot)"
command -v git >/dev/null || die "git missing"
if ! command -v mmdebstrap >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

# --- the minbase tarball, cached (one build at a time) ---
# The host's Debian sources when it has any, else mmdebstrap's default mirror.
host_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -s "$f" ] && grep -qE '^[^#]*(deb |URIs:)' "$f" && echo "$f"
	done
	return 0
}
mkdir -p "$CACHE" "$VMCACHE"
TAR=$CACHE/$SUITE-minbase.tar
t0=$(date +%s)
(
	flock 9
	if [ ! -s "$TAR" ] || [ -n "$(find "$TAR" -mtime +"$MAX_AGE")" ]; then
		echo "fresh: mmdebstrap --variant=minbase $SUITE -> $TAR"
		mapfile -t src < <(host_sources)
		# (mmdebstrap picks the format by the name's ending)
		mmdebstrap --quiet --variant=minbase "$SUITE" "$TAR.new.tar" "${src[@]}" ||
			{ rm -f "$TAR.new.tar"; exit 1; }
		mv "$TAR.new.tar" "$TAR"
	fi
) 9>"$CACHE/.lock" || die "mmdebstrap failed"

# --- the root: minbase, the host's apt sources, the tree ---
ROOT=$(mktemp -d /var/tmp/hostprep-fresh.XXXXXX)
cleanup() {
	local rc=$?
	if [ "${FRESH_KEEP:-0}" = 1 ]; then echo "fresh: root kept: $ROOT"
	else rm -rf --one-file-system "$ROOT"; fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM
tar -C "$ROOT" -xf "$TAR"
rm -f "$ROOT"/etc/apt/sources.list "$ROOT"/etc/apt/sources.list.d/*
for f in $(host_sources); do cp "$f" "$ROOT$f"; done
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"
mkdir -p "$ROOT/src" "$ROOT/var/cache/hostprep-vm"
# (files 0644, directories 0755, as a clone with the usual umask: git archive's own
# default, tar.umask 0002, makes them group-writable, and apply refuses such a config)
chmod 755 "$ROOT"
git -C "$TOP" -c tar.umask=0022 archive HEAD | tar -C "$ROOT/src" -xf -
rev=$(git -C "$TOP" rev-parse --short HEAD)
git -C "$ROOT/src" init -q
git -C "$ROOT/src" add -A
git -C "$ROOT/src" -c user.name=hostprep -c user.email=hostprep@localhost \
	commit -q -m "export of $rev"
echo "fresh: $rev in $ROOT: make ${targets[*]}"

# --- inside: make and git, then each target ---
cat >"$ROOT/fresh-inner.sh" <<'EOF'
#!/bin/bash
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 VMTEST_CACHE=/var/cache/hostprep-vm
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
s=$(date +%s)
{ apt-get update -qq && apt-get install -y -qq --no-install-recommends make git; } >/tmp/fresh-setup.log 2>&1 ||
	{ cat /tmp/fresh-setup.log; echo "fresh: apt-get install make git failed"; exit 1; }
echo "time: fresh-setup $(( $(date +%s) - s + $1 )) s"
shift
cd /src || exit 1
for t in "$@"; do
	s=$(date +%s)
	make "$t" CI=true; rc=$?
	echo "time: fresh-$t $(( $(date +%s) - s )) s"
	[ $rc -eq 0 ] || { echo "fresh: make $t failed ($rc)"; exit $rc; }
done
EOF
chmod 755 "$ROOT/fresh-inner.sh"
# The environment of a root login, plus the tests' own knobs (CASES, JOBS, BENCH_*,
# FUZZ_*, VMTEST_* but the cache, which is the mount), nothing else of this shell's.
keep=(HOME=/root TERM="${TERM:-dumb}")
while IFS='=' read -r name _; do
	case $name in
	VMTEST_CACHE) ;;
	CASES | JOBS | KEEP | BENCH_* | FUZZ_* | VMTEST_*) keep+=("$name=${!name}") ;;
	esac
done < <(env)
# (the setup's time so far, minbase and export, is added to fresh-setup)
unshare --mount --propagation private -- bash -c '
	set -e
	r=$1 vm=$2; shift 2
	# / a mount point, as on a machine (tests/unit test_sinks remounts it private)
	mount --bind "$r" "$r"
	mount -t proc proc "$r/proc"
	mount --rbind /sys "$r/sys"; mount --make-rslave "$r/sys"
	mount --rbind /dev "$r/dev"; mount --make-rslave "$r/dev"
	mount -t tmpfs tmpfs "$r/run"
	mount --bind "$vm" "$r/var/cache/hostprep-vm"
	exec chroot "$r" "$@"
' _ "$ROOT" "$VMCACHE" env -i "${keep[@]}" /fresh-inner.sh "$(( $(date +%s) - t0 ))" "${targets[@]}"
