# LoaderEntrySelected that is not one clean entry id (issue 29 §1) names nothing: the
# verdict falls back to the wording without an entry booted ("the entry booted was
# another, or the kernel dropped it"), never a guess at an entry: an odd byte count, no
# NUL at the end, the attribute word alone, an empty file, a UTF-16 surrogate, a non-ASCII
# or control character, a NUL inside, an empty id, an id that names no entry.
. "$HERE/lib-bootvar.sh"
sdboot_host
hp acs cmdline --install
expect_rc 0
fallback="hostprep wrote) but not on the running kernel's command line: the entry booted was another, or the kernel dropped it"
# each variant, without its flaw, names abc-6.12.30: a reader that ignored the flaw
# would say "the entry booted (...)" instead
A='\006\000\000\000'
ID='a\000b\000c\000-\0006\000.\0001\0002\000.\0003\0000\000'
for bytes in \
	"$A$ID\000\000\000" \
	"$A$ID" \
	"$A$ID\000" \
	"$A" \
	"" \
	"${A}\000\330\000\334$ID\000\000" \
	"${A}\351\000$ID\000\000" \
	"${A}\011\000$ID\000\000" \
	"${A}$ID\000\000$ID\000\000" \
	"${A}\000\000" \
	"${A}x\000y\000z\000\000\000"; do
	booted_sd abc-6.12.30.conf 'root=UUID=1 ro quiet'
	loader_var "$bytes"
	hp --json check
	[ "$(verdict)" = "fail inspect" ] || fail "'$bytes': acs.cmdline is '$(verdict)'"
	actual | grep -qF "$fallback" || fail "'$bytes': '$(actual)'"
done
# the control: the same id, clean, names the entry
booted_sd abc-6.12.30 'root=UUID=1 ro quiet'
loader_var "$A$ID\000\000"
hp --json check
actual | grep -qF "present in the entry booted (/efi/loader/entries/abc-6.12.30.conf)" || fail "clean id: '$(actual)'"
# no efivarfs at all (a BIOS boot): the same fallback
rm -r "$R/sys/firmware/efi"
hp --json check
actual | grep -qF "$fallback" || fail "no efivars: '$(actual)'"
