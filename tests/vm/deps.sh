#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what the VM test tier needs, only what is missing.
# Debian/Ubuntu: apt-get (apt-get update first when a package is not known yet).
# Fedora-like hosts without apt-get: dnf.
# Exits non-zero only when something needed cannot be installed.
set -u

# command  -> Debian package / Fedora package
# (tests/vm/build.sh: the guest image, the test modules built with gcc-12 and make against
# Debian's headers; tests/vm/run.sh: qemu, pgrep for the monitor's helpers)
deb_pkgs=(qemu-system-x86 mmdebstrap busybox-static e2fsprogs cpio kmod
	  apt dpkg debian-archive-keyring util-linux gzip gcc-12 make procps)
# Programs whose presence means "installed" (in the same order as deb_pkgs)
progs=(qemu-system-x86_64 mmdebstrap "/bin/busybox" mke2fs cpio depmod
       apt-get dpkg-deb /usr/share/keyrings/debian-archive-keyring.gpg flock gzip gcc-12 make
       pgrep)

missing_progs() {
	local i p
	for i in "${!progs[@]}"; do
		p=${progs[$i]}
		if [[ $p == /* ]]; then
			# busybox must be the static build (it runs inside the initramfs)
			if [[ $p == /bin/busybox ]]; then
				if ! { [ -x /bin/busybox ] && file_is_static /bin/busybox; }; then
					echo "$i"
				fi
			elif [ ! -e "$p" ]; then echo "$i"; fi
		elif ! command -v "$p" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$p" ] && [ ! -x "/sbin/$p" ]; then
			echo "$i"
		fi
	done
}

file_is_static() {
	# Static busybox has no PT_INTERP; check with the ELF header, no 'file' needed.
	if command -v dpkg-query >/dev/null 2>&1; then
		dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'install ok installed' && return 0
	fi
	! grep -q 'ld-linux' "$1" 2>/dev/null
}

idx=$(missing_progs)
if [ -z "$idx" ]; then
	echo "tests/vm/deps.sh: all VM test dependencies present"
	exit 0
fi

SUDO=
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo -n"

if command -v apt-get >/dev/null 2>&1; then
	want=()
	for i in $idx; do want+=("${deb_pkgs[$i]}"); done
	echo "tests/vm/deps.sh: installing ${want[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# apt-get update first when any wanted package has no candidate (fresh host)
	need_update=0
	for p in "${want[@]}"; do
		cand=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')
		if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then need_update=1; fi
	done
	if [ $need_update = 1 ]; then
		$SUDO apt-get update -q || echo "tests/vm/deps.sh: apt-get update reported errors; trying anyway" >&2
	fi
	if ! $SUDO apt-get install -y -q --no-install-recommends "${want[@]}"; then
		$SUDO apt-get update -q
		$SUDO apt-get install -y -q --no-install-recommends "${want[@]}" || {
			echo "tests/vm/deps.sh: cannot install ${want[*]}" >&2; exit 1; }
	fi
elif command -v dnf >/dev/null 2>&1; then
	# Fedora: mmdebstrap, debootstrap-style tools and busybox exist as packages;
	# the guest itself is still built from Debian's archive.
	want=()
	for i in $idx; do
		case ${deb_pkgs[$i]} in
		qemu-system-x86) want+=(qemu-system-x86-core) ;;
		busybox-static) want+=(busybox) ;;
		gcc-12) want+=(gcc) ;;
		procps) want+=(procps-ng) ;;
		util-linux|gzip|apt|dpkg|debian-archive-keyring) want+=("${deb_pkgs[$i]}") ;;
		*) want+=("${deb_pkgs[$i]}") ;;
		esac
	done
	echo "tests/vm/deps.sh: installing ${want[*]} (dnf)"
	$SUDO dnf install -y "${want[@]}" || { echo "tests/vm/deps.sh: cannot install ${want[*]}" >&2; exit 1; }
else
	echo "tests/vm/deps.sh: neither apt-get nor dnf found; need: $(for i in $idx; do printf '%s ' "${deb_pkgs[$i]}"; done)" >&2
	exit 1
fi

idx=$(missing_progs)
if [ -n "$idx" ]; then
	echo "tests/vm/deps.sh: still missing: $(for i in $idx; do printf '%s ' "${progs[$i]}"; done)" >&2
	exit 1
fi
echo "tests/vm/deps.sh: done"
