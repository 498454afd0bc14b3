# A 5-digit PCI domain (Intel VMD: 10000:xx) next to domain 0000: addresses are not
# truncated or confused with 0000:00:02.0 / 0000:01:00.0. The tree is dgx8 plus a VMD
# root port 10000:00:02.0 (ACS 0x220) with an H100 behind it, built with mkroot.py
# as a library.
R=$T/root
python3 - "$R" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["HERE"])
import mkroot as m
fx = m.fx_dgx8()
gpu = m.h100("10000:01:00.0", 0)
rp = m.mk("10000:00:02.0", 0x8086, 0x352a, 0x060400, m.intel_spr_root_port_caps(), rev=4,
          svid=0x8086, pcie=m.PCIE_ROOT_PORT, link=(5, 16, 5, 16), acs=(0x005f, 0x001d),
          children=[gpu], secondary=0x01, driver="pcieport", slot=0x40)
fx.roots.append((0x10000, 0x00, 0, "0-55,112-167", [rp]))
fx.iommu_units[0][1].append(0x00)
m.build(fx, sys.argv[1])
PY
FIXTURE=vmd
cp -a "$R" "$T/ref"
REF=$T/ref
printf '[Host]\nApply=yes\n\n[ACS:vmd]\nSelect=10000:00:02.0\n' >"$T/vmd.conf"
hp --config "$T/vmd.conf" apply
expect_rc 0
expect_tree_diff <<'EOT'
./sys/devices/pci10000:00/10000:00:02.0/config +0x226: 1d -> 11
EOT
expect_grep "$R/run/hostprep/acs-originals" '^acs 10000:00:02\.0 0x220 0x001d /sys/devices/pci10000:00/10000:00:02\.0 crc32:[0-9a-f]{8}$' "record lacks the 5-digit domain"
hp revert
expect_rc 0
expect_tree_same
# upstream:10de:* takes the VMD root port too (13 ports), nothing in domain 0 twice
useconf gpu-p2p
hp apply --dry-run
expect_grep out '10000:00:02\.0' "upstream:10de:* misses the GPU behind VMD"
[ "$(grep -c '^  write ' "$T/out")" = 13 ] || fail "want 13 planned writes, got $(grep -c '^  write ' "$T/out")"
