# The fixture itself: pciutils parses it and agrees with the hand-written oracle.
oracle_check l40-amd
sysfs_shape_check l40-amd
