#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build (or find in the cache) the expensive, hostprep-independent base of the
# VM test guest: Debian's current kernel, a busybox initramfs, and a systemd
# root filesystem image. Prints the base directory on stdout.
#
#   tests/vm/build.sh            build if needed, print .cache/base-HASH
#   VMTEST_CACHE=DIR             cache location (default tests/vm/.cache)
#
# Cache key: this script, the guest/ files baked into the image, the test
# modules' sources (modules/), the package list, and the kernel package name +
# version. Nothing touches the host's
# /boot or /lib/modules; the kernel is unpacked with dpkg-deb -x.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${VMTEST_CACHE:-$HERE/.cache}
SUITE=bookworm

# The guest's packages: systemd + hostprep's runtime libraries + oracles/tools.
PACKAGES=(
	systemd-sysv udev dbus kmod pciutils iproute2 procps util-linux
	libpci3 libkmod2 libibverbs1 libsystemd0 libinih1 libjson-c5
	libarchive13 zstd # hostprep snapshot: its library, and unzstd for 60-snapshot
	rdma-core ibverbs-utils ibverbs-providers
	jq
	# the fleet engines (scenarios 70-71): Slurm's daemons and client with munge, and
	# ansible-core (python3 comes with it) for a local-connection run of fleet/ansible,
	# python3-apt for its apt module (it would install it itself, but the guest is offline)
	slurmctld slurmd slurm-client munge ansible-core python3-apt
)
# Kernel module subtrees a test VM never needs (smaller, faster image).
PRUNE_MODULES=(sound drivers/gpu drivers/media drivers/net/wireless net/wireless
	net/mac80211 drivers/staging drivers/bluetooth net/bluetooth drivers/iio
	drivers/input/touchscreen drivers/hid drivers/usb/gadget drivers/isdn
	drivers/net/can net/can drivers/nfc net/nfc)

log() { echo "build.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (chroot, mke2fs -d with root-owned files)"
for p in mmdebstrap dpkg-deb depmod modprobe mke2fs cpio apt-get apt-cache make gcc-12; do
	command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || [ -x "/sbin/$p" ] ||
		die "$p missing: run tests/vm/deps.sh"
done
BUSYBOX=$(command -v busybox || true)
[ -n "$BUSYBOX" ] || die "busybox (static) missing: run tests/vm/deps.sh"
export PATH=$PATH:/usr/sbin:/sbin

# --- mirrors: the host's Debian apt sources (bookworm, -updates, -security) ---
mirror_lines() {
	local f
	{
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -f "$f" ] || continue
			# one-line format: deb [opts] URI SUITE COMPONENTS...
			sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
				awk '$1 == "deb" { print $2, $3 }'
		done
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			# deb822: paragraphs with Types/URIs/Suites
			awk 'BEGIN { RS = ""; FS = "\n" }
			{
				types = ""; uris = ""; suites = ""; enabled = "yes"
				for (i = 1; i <= NF; i++) {
					line = $i
					if (line ~ /^#/) continue
					split(line, kv, ":[ \t]*")
					key = tolower(kv[1]); val = substr(line, length(kv[1]) + 2)
					gsub(/^[ \t]+|[ \t]+$/, "", val)
					if (key == "types") types = val
					else if (key == "uris") uris = val
					else if (key == "suites") suites = val
					else if (key == "enabled") enabled = tolower(val)
				}
				if (enabled == "no" || types !~ /(^| )deb( |$)/) next
				nu = split(uris, U, /[ \t]+/); ns = split(suites, S, /[ \t]+/)
				for (u = 1; u <= nu; u++) for (s = 1; s <= ns; s++) print U[u], S[s]
			}' "$f"
		done
	} | awk -v suite="$SUITE" '$2 == suite || $2 == suite "-updates" || $2 == suite "-security"' |
		sort -u
}
MIRRORS=$(mirror_lines)
if ! grep -q " $SUITE\$" <<<"$MIRRORS"; then
	log "no $SUITE lines in the host's apt sources; using deb.debian.org"
	MIRRORS="http://deb.debian.org/debian $SUITE
http://deb.debian.org/debian $SUITE-updates
http://deb.debian.org/debian-security $SUITE-security"
fi
grep -q -- "-security\$" <<<"$MIRRORS" ||
	MIRRORS+=$'\n'"http://deb.debian.org/debian-security $SUITE-security"

# --- kernel: resolve the ABI package linux-image-amd64 depends on ---
resolve_kernel() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}
KPKG=$(resolve_kernel)
if [ -z "$KPKG" ]; then
	log "apt-get update (linux-image-amd64 unknown)"
	apt-get update -q >&2 || true
	KPKG=$(resolve_kernel)
fi
[ -n "$KPKG" ] || die "cannot resolve linux-image-amd64's kernel package"
KVER=${KPKG#linux-image-}
KPKGVER=$(apt-cache policy "$KPKG" | awk '/Candidate:/ { print $2 }')

# --- cache key ---
KEY=$( {
	cat "$HERE/build.sh" "$HERE/guest/init" "$HERE/guest/vmtest-runner.service"
	(cd "$HERE/modules" && for f in $(ls | sort); do echo "== $f"; cat "$f"; done)
	printf '%s\n' "${PACKAGES[@]}" "${PRUNE_MODULES[@]}" "$MIRRORS" "$KPKG" "$KPKGVER"
} | sha256sum | cut -c1-16)
BASE=$CACHE/base-$KEY
if [ -f "$BASE/complete" ]; then
	echo "$BASE"
	exit 0
fi

log "building base image $BASE (kernel $KPKG $KPKGVER)"
T0=$(date +%s)
mkdir -p "$CACHE"
# Only one build at a time; drop older bases (they are keyed by inputs).
exec 9>"$CACHE/.lock"
flock 9
if [ -f "$BASE/complete" ]; then echo "$BASE"; exit 0; fi
for old in "$CACHE"/base-*; do
	[ -e "$old" ] && [ "$old" != "$BASE" ] && { log "removing old $old"; rm -rf --one-file-system "$old"; }
done
WORK=$CACHE/work-$KEY
# Never let rm or mke2fs walk into a mount (a chroot's /proc left behind by
# an interrupted build): unmount everything below DIR first.
umount_below() {
	local m
	# deepest first; lazy, so a process still inside cannot block it
	awk -v d="$1/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null || true; done
	if awk -v d="$1/" 'index($2, d) == 1 { f = 1 } END { exit !f }' /proc/mounts; then
		die "still mounted below $1"
	fi
}
cleanup_dir() {
	[ -e "$1" ] || return 0
	umount_below "$1"
	rm -rf --one-file-system "$1"
}
for old in "$CACHE"/work-*; do [ -e "$old" ] && cleanup_dir "$old"; done
cleanup_dir "$BASE"
mkdir -p "$WORK" "$BASE"
trap 'cleanup_dir "$WORK"' EXIT

# 1. kernel
(
	cd "$WORK"
	apt-get -q -o APT::Sandbox::User=root download "$KPKG" >&2 ||
		{ apt-get update -q >&2 || true; apt-get -q -o APT::Sandbox::User=root download "$KPKG" >&2; }
)
KDEB=$(ls "$WORK"/"${KPKG}"_*.deb | head -n1)
dpkg-deb -x "$KDEB" "$WORK/kernel"
KMOD=$WORK/kernel/lib/modules/$KVER
[ -d "$KMOD" ] || KMOD=$WORK/kernel/usr/lib/modules/$KVER
[ -d "$KMOD" ] || die "no modules in $KDEB"
for d in "${PRUNE_MODULES[@]}"; do rm -rf "${KMOD:?}/kernel/$d"; done
KROOT=${KMOD%/lib/modules/"$KVER"}
depmod -b "$KROOT" "$KVER"
cp "$WORK/kernel/boot/vmlinuz-$KVER" "$BASE/vmlinuz"
log "kernel $KVER unpacked ($(( $(date +%s) - T0 )) s)"

# 1b. out-of-tree test modules (modules/), built against Debian's headers for
# this kernel with the compiler Debian built it with (gcc-12). Each variant
# gets its own build directory: erdma's variant.h sits next to erdma.c, so the
# kernel's srcversion (an MD4 over the module's own sources) differs between
# the compat build and the "rebuilt" one.
KHDR=$WORK/headers/usr/src/linux-headers-$KVER
build_modules() {
	local kbuild=linux-kbuild-$(cut -d. -f1,2 <<<"$KVER") deb
	(
		cd "$WORK"
		apt-get -q -o APT::Sandbox::User=root download "linux-headers-$KVER" \
			"linux-headers-${KVER%-*}-common" "$kbuild" >&2
	) || die "cannot download the headers for $KVER"
	for deb in "$WORK"/linux-headers-*.deb "$WORK"/linux-kbuild-*.deb; do
		dpkg-deb -x "$deb" "$WORK/headers"
	done
	# The headers' Makefile includes the -common tree by its installed path.
	sed -i "s#^include /usr/src/#include $WORK/headers/usr/src/#" "$KHDR/Makefile"
	# variant  objects  variant.h defines. The holder links against the
	# compat build's symbols, so that one comes first; the rest in parallel
	# (each build is mostly kbuild's own start-up).
	mod_variant erdma-compat "erdma.o" \
		'#define ERDMA_VARIANT "compat"' '#define ERDMA_COMPAT_PARAM 1' '#define ERDMA_VERSION "1.4.0-vmtest"'
	local pids=()
	mod_variant erdma-mainline "erdma.o" '#define ERDMA_VARIANT "mainline"' &
	pids+=($!)
	mod_variant erdma-rebuilt "erdma.o" \
		'#define ERDMA_VARIANT "rebuilt"' '#define ERDMA_COMPAT_PARAM 1' '#define ERDMA_VERSION "1.4.1-vmtest"' &
	pids+=($!)
	MOD_EXTRA_SYMBOLS=$WORK/mod/erdma-compat/Module.symvers \
		mod_variant others "erdma_holder.o mlx_compat.o mlx5_ofed.o" &
	pids+=($!)
	for p in "${pids[@]}"; do wait "$p" || die "building the test modules failed"; done
}
# mod_variant NAME "OBJS" [variant.h lines...]
mod_variant() {
	local name=$1 objs=$2 d=$WORK/mod/$1
	shift 2
	mkdir -p "$d"
	cp "$HERE"/modules/* "$d/"
	printf '%s\n' "/* written by tests/vm/build.sh: the $name build */" "$@" >"$d/variant.h"
	make -s -C "$KHDR" M="$d" VMTEST_OBJS="$objs" CC=gcc-12 \
		${MOD_EXTRA_SYMBOLS:+KBUILD_EXTRA_SYMBOLS=$MOD_EXTRA_SYMBOLS} modules >"$d/build.log" 2>&1 ||
		{ cat "$d/build.log" >&2; die "building test modules '$name' failed"; }
}
# install_modules ROOT: into the guest's module tree (depmod runs afterwards)
install_modules() {
	local m=$1/lib/modules/$KVER
	install -D -m 644 "$WORK/mod/erdma-compat/erdma.ko" "$m/updates/erdma.ko"
	install -D -m 644 "$WORK/mod/others/erdma_holder.ko" "$m/updates/erdma_holder.ko"
	# mainline erdma where the kernel's own tree would have it (kernel/ loses
	# to updates/ in depmod's default search order; a scenario that wants it
	# removes updates/erdma.ko and runs depmod: vm_select_mainline_erdma)
	install -D -m 644 "$WORK/mod/erdma-mainline/erdma.ko" \
		"$m/kernel/drivers/infiniband/hw/erdma/erdma.ko"
	install -D -m 644 "$WORK/mod/others/mlx_compat.ko" "$m/updates/dkms/mlx_compat.ko"
	install -D -m 644 "$WORK/mod/others/mlx5_ofed.ko" "$m/updates/dkms/mlx5_ofed.ko"
	# not in the module tree: the stale-driver scenario copies it over
	# updates/erdma.ko while the compat build is loaded (a package upgrade)
	install -D -m 644 "$WORK/mod/erdma-rebuilt/erdma.ko" "$1/usr/lib/vmtest/erdma-rebuilt.ko"
}
build_modules
log "test modules built ($(( $(date +%s) - T0 )) s)"

# 2. initramfs: static busybox + the modules needed to reach / and the 9p share
IRD=$WORK/initramfs
mkdir -p "$IRD"/{bin,dev,proc,sys,newroot,share,lib/modules}
cp "$BUSYBOX" "$IRD/bin/busybox"
cp "$HERE/guest/init" "$IRD/init"
chmod 755 "$IRD/init" "$IRD/bin/busybox"
: >"$IRD/modules.list"
for m in crc32c_generic crc32c_intel virtio_pci virtio_blk ext4 9pnet_virtio 9p; do
	modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	rel=${ko#"$KMOD"/}
	mkdir -p "$IRD/lib/modules/$(dirname "$rel")"
	cp "$ko" "$IRD/lib/modules/$rel"
	echo "$rel" >>"$IRD/modules.list"
done
[ -s "$IRD/modules.list" ] || die "no initramfs modules found"
(cd "$IRD" && find . | cpio -o -H newc --quiet | gzip -1) >"$BASE/initrd.img"
log "initramfs: $(wc -l <"$IRD/modules.list") modules"

# 3. root filesystem
ROOT=$WORK/rootfs
SRC_ARGS=()
while read -r uri suite; do
	[ -n "$uri" ] && SRC_ARGS+=("deb $uri $suite main")
done <<<"$MIRRORS"
log "mmdebstrap from: $(tr '\n' ';' <<<"$MIRRORS")"
mmdebstrap --variant=minbase --mode=root --quiet \
	--include="$(IFS=,; echo "${PACKAGES[*]}")" \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='force-unsafe-io' --aptopt='Acquire::Languages "none"' \
	"$SUITE" "$ROOT" "${SRC_ARGS[@]}" >&2
umount_below "$ROOT"
log "rootfs bootstrapped ($(( $(date +%s) - T0 )) s)"

mkdir -p "$ROOT/lib/modules"
cp -a "$KMOD" "$ROOT/lib/modules/"
install_modules "$ROOT"
chroot "$ROOT" depmod "$KVER"
echo "$KVER" >"$BASE/kver"

echo vmtest >"$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tvmtest\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOT/etc/hosts"
# A fixed machine-id: an empty one means "first boot" (preset-all etc.).
echo 4f7c2a1e9b3d4c5e8a6f0b1c2d3e4f50 >"$ROOT/etc/machine-id"
mkdir -p "$ROOT/mnt/vmtest"
cat >"$ROOT/etc/fstab" <<'FSTAB'
/dev/vda	/	ext4	rw,errors=remount-ro	0 0
vmtest	/mnt/vmtest	9p	trans=virtio,version=9p2000.L,msize=262144,nofail	0 0
FSTAB
# root without password on the serial console (debugging by hand only)
chroot "$ROOT" passwd -d root >/dev/null
# an unprivileged user for the "not root" scenarios
chroot "$ROOT" useradd -m -u 1000 -s /bin/bash tester
cp "$HERE/guest/vmtest-runner.service" "$ROOT/etc/systemd/system/"
ln -sf /etc/systemd/system/vmtest-runner.service \
	"$ROOT/etc/systemd/system/multi-user.target.wants/vmtest-runner.service"
# Units that only cost boot time in a test VM.
# (Under TCG every process costs; these do nothing a scenario looks at.)
for u in e2scrub_reap.service networking.service apt-daily.timer apt-daily-upgrade.timer \
	systemd-timesyncd.service getty@tty1.service fstrim.timer e2scrub_all.timer \
	dpkg-db-backup.timer systemd-networkd-wait-online.service systemd-logind.service \
	modprobe@drm.service modprobe@efi_pstore.service modprobe@fuse.service \
	modprobe@dm_mod.service modprobe@loop.service sys-kernel-debug.mount \
	sys-kernel-tracing.mount dev-hugepages.mount dev-mqueue.mount \
	systemd-update-utmp.service systemd-update-utmp-runlevel.service \
	sys-fs-fuse-connections.mount; do
	ln -sf /dev/null "$ROOT/etc/systemd/system/$u"
done
# The fleet engines' daemons are installed enabled; only scenarios 70-71 start them
# (after writing their config): disabled, not masked, so a scenario can start them.
rm -f "$ROOT"/etc/systemd/system/multi-user.target.wants/{slurmctld,slurmd,munge}.service
# Modules udev would autoload for the emulated CPU/chipset that no test uses.
printf 'blacklist %s\n' kvm kvm_amd kvm_intel powernow_k8 acpi_cpufreq iTCO_wdt \
	pcspkr ahci libahci intel_pmc_bxt >"$ROOT/etc/modprobe.d/vmtest-blacklist.conf"
# Journal in memory (the disk is a throw-away snapshot anyway).
mkdir -p "$ROOT/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' >"$ROOT/etc/systemd/journald.conf.d/vmtest.conf"
rm -rf "$ROOT/var/cache/apt/"*.bin "$ROOT/var/lib/apt/lists/"*

SIZE_MB=$(( $(du -sm "$ROOT" | cut -f1) * 13 / 10 + 256 ))
mke2fs -q -t ext4 -L vmroot -d "$ROOT" "$BASE/rootfs.ext4" "${SIZE_MB}M" >&2
log "rootfs.ext4: ${SIZE_MB} MB ($(du -sm "$BASE/rootfs.ext4" | cut -f1) MB used)"
printf 'kernel=%s %s\nbuilt=%s\nseconds=%s\n' "$KPKG" "$KPKGVER" "$(date -u +%FT%TZ)" \
	"$(( $(date +%s) - T0 ))" >"$BASE/complete"
log "base image ready in $(( $(date +%s) - T0 )) s"
echo "$BASE"
