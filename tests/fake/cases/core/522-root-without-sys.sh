# `--root DIR` without sys/: the results say "cannot enumerate PCI devices", and stderr
# names the directory that is missing (issue 27, small items).
mkdir -p "$T/nosys/etc/hostprep"
R=$T/nosys
printf '[Links]\nSelect=class:0302\n' >"$R/etc/hostprep/hostprep.conf"
hp check
expect_grep out 'cannot enumerate PCI devices'
expect_grep err "Cannot enumerate PCI devices: $T/nosys/sys/bus/pci/devices: No such file or directory" \
	"the missing directory is not named"
