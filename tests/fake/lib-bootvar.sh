# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the systemd-boot "entry booted" cases (750-752), sourced after lib.sh.

LOADER_VAR=sys/firmware/efi/efivars/LoaderEntrySelected-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f

# sdboot_host: the ESP at /efi with two type-1 entries (as 651), no GRUB
sdboot_host() {
	newroot dgx8
	useconf gpu-p2p
	echo "6.12.30-amd64" >"$R/proc/sys/kernel/osrelease"
	printf 'root=UUID=1 ro quiet\n' >"$R/proc/cmdline"
	mkdir -p "$R/efi/loader/entries" "$R/etc/kernel"
	printf '%s\n' 'title Debian' 'linux /abc/6.12.30/linux' \
		'options root=UUID=1 ro quiet' >"$R/efi/loader/entries/abc-6.12.30.conf"
	printf '%s\n' 'title Debian (old)' 'linux /abc/6.12.29/linux' \
		'options root=UUID=1 ro' >"$R/efi/loader/entries/abc-6.12.29.conf"
}

# loader_var BYTES...: the variable's file as printf(1) writes BYTES (escapes)
loader_var() {
	mkdir -p "$(dirname "$R/$LOADER_VAR")"
	printf "$@" >"$R/$LOADER_VAR"
}

# loader_id ID: the variable as systemd-boot sets it (attributes 0x6, UTF-16LE, NUL)
loader_id() {
	mkdir -p "$(dirname "$R/$LOADER_VAR")"
	{
		printf '\006\000\000\000'
		printf '%s' "$1" | iconv -f ASCII -t UTF-16LE
		printf '\000\000'
	} >"$R/$LOADER_VAR"
}

# booted_sd ID CMDLINE: rebooted an hour after the edits, systemd-boot selected ID
booted_sd() {
	loader_id "$1"
	printf '%s\n' "$2" >"$R/proc/cmdline"
	find "$R/efi" "$R/etc/kernel" -type f -exec touch -d '2026-01-01 00:00:00' {} +
	printf 'cpu  1 2 3 4\nbtime %s\nprocesses 1\n' "$(date -d '2026-01-01 01:00:00' +%s)" >"$R/proc/stat"
}

verdict() { jqo '[.results[] | select(.check=="acs.cmdline") | .verdict + " " + .action] | join(",")'; }
actual() { jqo '.results[] | select(.check=="acs.cmdline") | .actual'; }
