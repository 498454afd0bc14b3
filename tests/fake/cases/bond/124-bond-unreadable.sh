# Missing, empty or garbled bonding files degrade to a named unknown for that value, never
# a crash and never a pass; what can still be read is still judged.
newroot bond-lacp
useconf bond-lacp
B=$R/sys/devices/virtual/net/bond0/bonding
rm "$B/mode"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +bond +bond0 .*bonding/mode unreadable: No such file or directory'
expect_grep out '^PASS +bond\.slave +bond0/ens2f0np0 +mii up +mii up, active, 0 link failures$'
echo 'garbage 9' >"$B/mode"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +bond +bond0 .*bonding/mode unreadable: Invalid argument'
newroot bond-lacp
useconf bond-lacp
B=$R/sys/devices/virtual/net/bond0/bonding
echo 'x1' >"$B/miimon"
rm "$R/sys/class/net/ens2f1np1/bonding_slave/mii_status"
echo 'sideways' >"$R/sys/class/net/ens2f0np0/bonding_slave/ad_actor_oper_port_state"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +bond +bond0 .*bonding/miimon unreadable: Invalid argument'
expect_grep out '^UNKNOWN +bond\.slave +bond0/ens2f1np1 .*ens2f1np1: bonding_slave/mii_status unreadable: No such file or directory'
expect_grep out '^UNKNOWN +bond\.slave +bond0/ens2f0np0 .*ens2f0np0: ad_actor_oper_port_state unreadable: Invalid argument'
expect_no_grep out '^PASS +bond +'
# slaves list garbled
newroot bond-lacp
useconf bond-lacp
echo 'ens2f0np0 ens2f0np0' >"$R/sys/devices/virtual/net/bond0/bonding/slaves"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +bond +bond0 .*bonding/slaves unreadable: Invalid argument'
# The LACP partner hidden without CAP_NET_ADMIN: unknown, and the text says why.
newroot bond-lacp-nocap
useconf bond-lacp
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +bond +bond0 .*LACP partner MAC unreadable: sysfs ad_partner_mac and /proc/net/bonding show it only with CAP_NET_ADMIN'
expect_grep out 'run hostprep as root \(it needs CAP_NET_ADMIN\)'
expect_grep out '^PASS +bond\.slave +bond0/ens2f1np1 '
# ... and with /proc/net/bonding gone as well
rm "$R/proc/net/bonding/bond0"
hp -v check
expect_grep out '^UNKNOWN +bond +bond0 .*CAP_NET_ADMIN'
# LAG GID entries that cannot be read: unknown, not pass (a directory where a file was)
newroot bond-lacp
useconf bond-lacp
N=$R/sys/class/infiniband/mlx5_bond_0/ports/1/gid_attrs/ndevs
for i in 0 1 2 3; do rm "$N/$i" && mkdir "$N/$i"; done
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +bond\.lag +mlx5_bond_0 .*mlx5_bond_0: gid_attrs/ndevs unreadable: Is a directory'
