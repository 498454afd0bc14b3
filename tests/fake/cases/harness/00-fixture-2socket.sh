# The 2socket fixture itself: pciutils parses it and agrees with the hand-written oracle
# (lspci -t shows the two-level switch below 16:01.0; setpci ECAP_ACS+0x6.w reads the
# Control words the topology goldens blame).
oracle_check 2socket
sysfs_shape_check 2socket
