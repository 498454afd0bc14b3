#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The NCCL troubleshooting guide's ACS loop ("PCI Access Control Services",
# docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html) as
# published, in its read-only form, pointed at a fake tree for make bench:
#     nccl-loop.sh ROOT
# lspci enumerates every function; per function one setpci probes
# ECAP_ACS+0x6.w (fails without ACS); for each ACS port the guide then writes
# 0000 and reads the value back with a second setpci. Read-only here: the
# write and the logger calls are left out, the read-back is kept and printed.
# Both tools get the tree through libpci's sysfs method, as hostprep does.
A=(-A linux-sysfs -O "sysfs.path=$1/sys/bus/pci")

for BDF in `lspci "${A[@]}" -d "*:*:*" | awk '{print $1}'`; do

  # skip if it doesn't support ACS
  setpci "${A[@]}" -v -s ${BDF} ECAP_ACS+0x6.w > /dev/null 2>&1
  if [ $? -ne 0 ]; then
    #echo "${BDF} does not support ACS, skipping"
    continue
  fi

  # (the guide: logger, then setpci -v -s ${BDF} ECAP_ACS+0x6.w=0000)
  NEW_VAL=`setpci "${A[@]}" -v -s ${BDF} ECAP_ACS+0x6.w | awk '{print $NF}'`
  echo "${BDF} ${NEW_VAL}"
done
