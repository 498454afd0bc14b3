# The ACS boot check counts the unified kernel images in EFI/Linux (a warning: they carry
# the command line they were built with) and reads none. The snapshot stored the
# directory alone, so the replay lost the warning (an audit); it stores each image's name
# as an empty file (an image is tens of MB, its .cmdline section may hold a secret) and
# says so in the manifest: the replay gives the host's report.
. "$HERE/lib-snapshot.sh"
newroot dgx8
useconf gpu-p2p
mkdir -p "$R/etc/kernel" "$R/boot/EFI/Linux" "$R/boot/loader/entries"
echo 'root=/dev/sda ro quiet' >"$R/etc/kernel/cmdline"
touch "$R/boot/loader/loader.conf"
printf 'MZ a UKI, .cmdline rd.iscsi.password=SECRET-UKI\n' >"$R/boot/EFI/Linux/debian-6.1.0-27-amd64.efi"
echo 'not an image' >"$R/boot/EFI/Linux/README"
hp acs cmdline --install
hp --json check
cp "$T/out" "$T/host.json"
[ "$(jq -r '[.results[] | select(.object == "unified kernel images") | .verdict] | join(",")' "$T/host.json")" = warn ] ||
	fail "the fixture's host has no UKI warning: nothing to prove"
hp snapshot -o "$T/s.tar.zst"
expect_rc 0
snap_extract "$T/s.tar.zst" "$T/x"
f=$T/x/boot/EFI/Linux/debian-6.1.0-27-amd64.efi
if [ ! -f "$f" ] || [ -s "$f" ]; then
	fail "the image is not an empty member: $(ls -l "$f" 2>&1)"
fi
[ -e "$T/x/boot/EFI/Linux/README" ] && fail "a name the check does not count is in the tar"
grep -rqa SECRET-UKI "$T/x" && fail "the image's content is in the tar"
grep -qx 'stored empty 1 files whose names the check counts (unified kernel images): not read' \
	"$T/x/hostprep-snapshot.txt" || fail "the manifest does not say the image is stored empty"
"$BIN" --root "$T/x" --no-color --json check >"$T/replay.json" 2>/dev/null
diff <(snap_norm "$T/host.json" "$R") <(snap_norm "$T/replay.json" "$T/x") >"$T/d" ||
	fail "replay differs: $(head -20 "$T/d")"
