# The fixture itself: pciutils parses it and agrees with the hand-written oracle.
oracle_check dgx8-nonroot
sysfs_shape_check dgx8-nonroot
