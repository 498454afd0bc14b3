# The harness itself: treediff must see a changed byte, a new file, a removed file,
# a mode change and a retargeted symlink, and must ignore run/hostprep/.
newroot dgx8
[ -z "$(treediff "$REF" "$R")" ] || fail "a fresh copy differs from the fixture"
poke16 0000:17:00.0 $((0xf24 + 6)) 0x0011
echo x >"$R/sys/bus/pci/new-file"
rm "$R/sys/devices/pci0000:15/0000:15:01.0/numa_node"
chmod 0600 "$R/proc/cmdline"
ln -sfn ../../../kernel/iommu_groups/1 "$R/sys/devices/pci0000:15/0000:15:01.0/iommu_group"
mkdir -p "$R/run/hostprep" && echo ignored >"$R/run/hostprep/report.json"
treediff "$REF" "$R" >"$T/d"
want=(
	"./sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/config +0xf2a: 1d -> 11"
	"entry: +f 644 ./sys/bus/pci/new-file"
	"entry: -f 644 ./sys/devices/pci0000:15/0000:15:01.0/numa_node"
	"entry: -f 444 ./proc/cmdline"
	"entry: +f 600 ./proc/cmdline"
	"entry: +l 777 ./sys/devices/pci0000:15/0000:15:01.0/iommu_group -> ../../../kernel/iommu_groups/1"
)
for w in "${want[@]}"; do
	grep -qxF -- "$w" "$T/d" || fail "treediff missed: $w"
done
grep -q 'run/hostprep' "$T/d" && fail "treediff looked into run/hostprep"
[ "$(peek16 0000:17:00.0 $((0xf24 + 6)))" = 0011 ] || fail "peek16/poke16 disagree"
[ "$(grep -c . "$T/d")" = 7 ] || { fail "treediff reports $(grep -c . "$T/d") lines, want 7:"; sed 's/^/    /' "$T/d"; }
