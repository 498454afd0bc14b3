#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what a make target needs, only what is missing: apt-get on Debian/Ubuntu, dnf
# on Fedora/RHEL. Every make target the README shows calls this first (the Makefile), and
# tests/fresh proves on a minimal Debian 12 root that nothing else is needed.
#
#   tests/deps.sh KIND...     runtime  the build: make run, make man
#                             test     runtime + what the unit, doc, fake-host, crash and
#                                      sanitizer tiers execute (make check, check-*)
#                             bench    runtime + make bench
#                             pkg      runtime + make deb, make rpm, make check-pkg
#                             fuzz     runtime + make fuzz, make check-fuzz
#                             vm       the QEMU tier (tests/vm/deps.sh) + promtool
#                             fleet    the fleet tier (make check-fleet, tests/fleet/)
#
# Each package is here for a tool or a library a target runs; the comment says which.
# Not listed: what every Debian system has (Priority: required, e.g. coreutils, findutils,
# grep, sed, mawk, tar, gzip, util-linux: setpriv, unshare, flock; dpkg: dpkg-query).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- runtime

# --- Debian 12 ---
apt_build=(gcc libc6-dev make pkg-config # cc, the C library's headers, pkg-config --cflags/--libs
	   libpci-dev libkmod-dev libibverbs-dev libsystemd-dev libinih-dev libjson-c-dev zlib1g-dev
	   nettle-dev # SHA-256 of the config files (src/run/config.c: config_digest)
	   libarchive-dev # hostprep snapshot writes its tar with libarchive (src/snapshot/)
	   scdoc) # the man pages (make man, make install, both packages)
apt_test=(libcmocka-dev # tests/unit
	  python3 # tests/fake/mkroot.py, tests/crash/run.py, the fixtures
	  kmod # depmod, modinfo: tests/fake/kmod builds and checks real module trees
	  pciutils # lspci, setpci: tests/fake lib.sh and topo_oracle.py read the fake config space
	  strace # tests/fake 22, 65, 66, 67, 127: what the binary opens and writes
	  diffutils # cmp, diff: goldens and byte-exact reverts
	  jq # the JSON report, in nearly every case
	  dbus-daemon python3-dbus python3-gi # tests/fake/dbus: a fake systemd on a private bus
	  mandoc groff-base # tests/doc: the man pages lint-clean (mandoc -Tlint, groff -ww)
	  bash zsh # tests/doc: the bash and zsh completion harnesses
	  hwloc # lstopo-no-graphics: tests/fake 301, 302 (hwloc_oracle.py reads the real fixtures)
	  xz-utils # tar -J: tests/fake/real/*/root.tar.xz, the real machines' trees (300-306)
	  zstd # tar -xf of hostprep snapshot's .tar.zst: tests/fake 340-345
	  systemd-journal-remote) # a journal file from an export stream: tests/fake 745
	# and promtool (install_promtool): tests/fake 160-163 check hostprep.prom
apt_bench=(python3 # tests/bench/bench.py, gen.py
	   kmod # depmod: bench.py builds its fake hosts with tests/fake/mkroot.py
	   pciutils # lspci, setpci: the NCCL guide's loop it is measured against
	   strace # syscalls and bytes read per function
	   tar zstd) # the snapshot's reference: the same files read by tar, compressed by zstd
apt_pkg=(debhelper dpkg-dev build-essential # make deb: dpkg-buildpackage, dh (debhelper-compat 13),
	 # and dpkg-checkbuilddeps wants build-essential
	 git # packaging/build.sh exports the tracked files (git ls-files)
	 xz-utils # the .debian.tar.xz and .orig.tar.xz of the source package
	 lintian # tests/pkg: the .deb and .dsc lint-clean
	 rpm rpmlint) # make rpm: rpmbuild (rpm); tests/pkg: rpmlint, rpm -qp
# tests/fleet (make check-fleet): each engine's own offline checker of its own format
apt_fleet=(python3-kubernetes # 30: the Kubernetes 1.22 API models (k8s-validate.py)
	   python3-yaml # 30: the manifests; /usr/bin/python3 reads both
	   jq # 51: the Grafana dashboard's JSON and its queries
	   ansible-lint yamllint # 20: fleet/ansible lint-clean (Debian 12: 6.13, 1.29)
	   ansible-core # 20: ansible-playbook --syntax-check of the example playbook
	   shellcheck) # 10, 20: the shell scripts under fleet/
	# and promtool (install_promtool): 50 checks and unit-tests fleet/prometheus's rules
# clang with libFuzzer (libclang_rt.fuzzer*.a is in libclang-rt-14-dev on Debian 12);
# libFuzzer's ASan/UBSan runtimes come with it
apt_fuzz=(clang-14 libclang-rt-14-dev)

# --- Fedora / RHEL with EPEL (same tools, Fedora's names) ---
dnf_build=(gcc glibc-devel make pkgconf-pkg-config pciutils-devel kmod-devel rdma-core-devel
	   systemd-devel inih-devel json-c-devel zlib-devel nettle-devel libarchive-devel scdoc)
dnf_test=(libcmocka-devel python3 kmod pciutils strace diffutils jq
	  dbus-daemon python3-dbus python3-gobject mandoc groff-base bash zsh hwloc xz zstd
	  systemd-journal-remote)
dnf_bench=(python3 kmod pciutils strace tar zstd)
dnf_pkg=(rpm-build rpmlint systemd-rpm-macros git xz dpkg-dev debhelper lintian)
dnf_fuzz=(clang compiler-rt)
dnf_fleet=(python3-kubernetes python3-pyyaml jq ansible-lint yamllint ansible-core ShellCheck)

sudo_maybe() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			echo "$p"
	done
}

apt_updated=0
apt_update() {
	[ $apt_updated = 1 ] && return 0
	sudo_maybe env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	apt_updated=1
}

install_apt() {
	local missing
	missing=$(apt_missing "$@" | sort -u)
	[ -z "$missing" ] && return 0
	echo "deps: installing $(echo $missing)"
	apt_update
	# shellcheck disable=SC2086
	sudo_maybe env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
}

install_dnf() {
	local missing=() p
	for p in "$@"; do rpm -q "$p" >/dev/null 2>&1 || missing+=("$p"); done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "deps: installing ${missing[*]}"
	sudo_maybe dnf install -y -q "${missing[@]}"
}

# promtool, the reference checker of the node_exporter textfile format (tests/fake
# 160-163, tests/vm 40). Debian 12 ships it only inside the prometheus package, whose
# server unit is enabled and started on install, and nothing lighter in Debian is as
# strict (python3-prometheus-client 0.16's parser accepts what promtool 2.42 refuses: a
# metric without HELP, a counter without _total, a label value with an invalid escape
# such as "\q"; tried 2026-11-25). So promtool alone is taken from
# that package: apt-get download (verified against the archive's signed index), the one
# file extracted to /usr/local/bin. No server is installed, enabled or run. Any promtool
# already on PATH is used as it is.
install_promtool() {
	local tmp
	command -v promtool >/dev/null 2>&1 && return 0
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "deps: promtool missing: install it from https://prometheus.io/download/ (tests/fake 160-163 need it)" >&2
		return 1
	fi
	echo "deps: installing promtool (from Debian's prometheus package, without the server)"
	apt_update
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root prometheus) &&
		dpkg-deb --fsys-tarfile "$tmp"/prometheus_*.deb | tar -C "$tmp" -x ./usr/bin/promtool &&
		sudo_maybe install -Dm755 "$tmp/usr/bin/promtool" /usr/local/bin/promtool ||
		{ rm -rf "$tmp"; echo "deps: cannot install promtool" >&2; return 1; }
	rm -rf "$tmp"
}

apt_pkgs=() dnf_pkgs=() promtool=0 vm=0
for kind in "$@"; do
	case "$kind" in
	runtime) apt_pkgs+=("${apt_build[@]}"); dnf_pkgs+=("${dnf_build[@]}") ;;
	test) apt_pkgs+=("${apt_build[@]}" "${apt_test[@]}"); dnf_pkgs+=("${dnf_build[@]}" "${dnf_test[@]}")
	      promtool=1 ;;
	bench) apt_pkgs+=("${apt_build[@]}" "${apt_bench[@]}"); dnf_pkgs+=("${dnf_build[@]}" "${dnf_bench[@]}") ;;
	pkg) apt_pkgs+=("${apt_build[@]}" "${apt_pkg[@]}"); dnf_pkgs+=("${dnf_build[@]}" "${dnf_pkg[@]}") ;;
	fuzz) apt_pkgs+=("${apt_build[@]}" "${apt_fuzz[@]}"); dnf_pkgs+=("${dnf_build[@]}" "${dnf_fuzz[@]}") ;;
	vm) vm=1 promtool=1 ;;
	fleet) apt_pkgs+=("${apt_fleet[@]}"); dnf_pkgs+=("${dnf_fleet[@]}"); promtool=1 ;;
	*) echo "usage: $0 runtime|test|bench|pkg|fuzz|vm|fleet..." >&2; exit 2 ;;
	esac
done

if [ ${#apt_pkgs[@]} -gt 0 ]; then
	if command -v apt-get >/dev/null 2>&1; then
		install_apt "${apt_pkgs[@]}"
	elif command -v dnf >/dev/null 2>&1; then
		install_dnf "${dnf_pkgs[@]}"
	else
		echo "deps: neither apt-get nor dnf found; install by hand: ${apt_pkgs[*]}" >&2
		exit 1
	fi
fi
[ $vm = 0 ] || "$here/vm/deps.sh"
[ $promtool = 0 ] || install_promtool
