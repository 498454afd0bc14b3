# SPDX-License-Identifier: GPL-2.0-or-later
"""NVIDIA driver entries gone wrong, over dgx8 (which has one entry per H100 under
proc/driver/nvidia/gpus/, written by mkroot.py). Kept here because mkroot.py loads
overlays from this directory.

dgx8-gpu-lost: the driver did not take 0000:3b:00.0 (its entry is missing while the GPU is
on PCI), and an entry 0000:5e:00.0 remains for a GPU that fell off the bus (no PCI function).
"""

import os
import shutil

GPUS = os.path.join("proc", "driver", "nvidia", "gpus")


def gpu_lost(root):
    shutil.rmtree(os.path.join(root, GPUS, "0000:3b:00.0"))
    src = os.path.join(root, GPUS, "0000:3a:00.0", "information")
    dst = os.path.join(root, GPUS, "0000:5e:00.0", "information")
    os.makedirs(os.path.dirname(dst))
    with open(src) as f:
        text = f.read()
    text = text.replace("0000:3a:00.0", "0000:5e:00.0").replace("-4e1c-", "-dead-")
    text = text.replace("Device Minor: \t 0", "Device Minor: \t 8")
    with open(dst, "w") as f:
        f.write(text)
    os.chmod(dst, 0o444)


OVERLAYS = {
    "dgx8-gpu-lost": ("dgx8", gpu_lost),
}
