# A config anyone may write is refused when applying as root: exit 2, nothing written.
newroot dgx8
useconf gpu-p2p 0666
hp apply
expect_rc 2
expect_grep err 'hostprep\.conf' "the refusal does not name the file"
expect_tree_same
# a group-writable drop-in dir as well
newroot dgx8
useconf gpu-p2p
dropin dropin-nic 50-nic.conf
confchmod 0777 etc/hostprep/hostprep.conf.d
hp apply
expect_rc 2
expect_tree_same
# a config owned by another user
newroot dgx8
useconf gpu-p2p
chown 65534:65534 "$R/etc/hostprep/hostprep.conf" "$REF/etc/hostprep/hostprep.conf"
hp apply
expect_rc 2
expect_tree_same
# a world-writable --config FILE is refused too
newroot dgx8
install -m 0666 "$HERE/configs/gpu-p2p.conf" "$T/ww.conf"
hp --config "$T/ww.conf" apply
expect_rc 2
expect_tree_same
