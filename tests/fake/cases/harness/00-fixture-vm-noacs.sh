# The fixture itself: pciutils parses it and agrees with the hand-written oracle.
oracle_check vm-noacs
sysfs_shape_check vm-noacs
