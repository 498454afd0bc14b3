# Classification from what sysfs shows, on the real ConnectX-3 (0000:82:00.0, mlx4_0, ib0)
# of xeonphi-mlx4 refiled as class 0880 (a function of a class no NIC has): an RDMA device
# makes it a NIC; without one, its netdev's speed decides (10000 Mb/s yes, 9999 no); a speed
# that cannot be read falls back to the PCIe link it can do (8 GT/s x4 yes, x2 no); no
# netdev, no NIC. The [Links] default follows the same endpoints.
. "$HERE/real/lib.sh"
F=0000:82:00.0
kind() { # EXPECTED WHAT
	hp --json topology
	expect_rc 0
	local got
	got=$(jq -r --arg a "$F" '[.devices[] | select(.address == $a) | .kind][0] // "none"' "$T/out")
	[ "$got" = "$1" ] || fail "$2: $F is $got, expected $1"
}
realroot xeonphi-mlx4
D=$(realpath "$R/sys/bus/pci/devices/$F")
kind nic "class 0280 (network, other)"
python3 "$HERE/real/edit.py" "$R" class "$F" 0x088000
kind nic "class 0880 with infiniband/mlx4_0"
mv "$D/infiniband" "$T/ib.saved"
printf '40000\n' >"$D/net/ib0/speed"
kind nic "class 0880, ib0 at 40000 Mb/s"
printf '10000\n' >"$D/net/ib0/speed"
kind nic "class 0880, ib0 at 10000 Mb/s"
printf '9999\n' >"$D/net/ib0/speed"
kind none "class 0880, ib0 at 9999 Mb/s"
printf -- '-1\n' >"$D/net/ib0/speed"
kind none "class 0880, ib0 speed -1, no PCIe link attributes"
printf '8.0 GT/s PCIe\n' >"$D/max_link_speed"
printf '4\n' >"$D/max_link_width"
kind nic "class 0880, ib0 speed -1, can do 8 GT/s x4"
printf '2\n' >"$D/max_link_width"
kind none "class 0880, ib0 speed -1, can do 8 GT/s x2"
printf '5.0 GT/s PCIe\n' >"$D/max_link_speed"
printf '16\n' >"$D/max_link_width"
kind none "class 0880, ib0 speed -1, can do 5 GT/s x16"
rm "$D/net/ib0/speed"
printf '8.0 GT/s PCIe\n' >"$D/max_link_speed"
kind nic "class 0880, ib0 without a speed file, can do 8 GT/s x16"
mv "$D/net" "$T/net.saved"
kind none "class 0880, no netdev, no RDMA device, 8 GT/s x16"
mv "$T/ib.saved" "$D/infiniband"
kind nic "class 0880, an RDMA device back"
# [Links] takes the same endpoints: the refiled HCA's hop is judged
mkdir -p "$R/etc/hostprep"
cp "$HERE/configs/links.conf" "$R/etc/hostprep/hostprep.conf"
printf '8.0 GT/s PCIe\n' >"$D/current_link_speed"
printf '16\n' >"$D/current_link_width"
hp --json check
jq -e --arg a "$F" '[.results[] | select(.check == "pcie.link" and .object == $a)] | length == 1' \
	"$T/out" >/dev/null || fail "[Links] does not judge the hop above $F: $(jq -c '[.results[] | select(.check == "pcie.link")]' "$T/out")"
