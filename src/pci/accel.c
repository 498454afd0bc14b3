// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The known accelerators (pci/accel.h). Each entry names where its ids come from: the PCI
 * id table of the driver that binds the parts (file, and the kernel or repository it was
 * read in), or pciutils' pci.ids where no public driver exists. Display and 3D controllers
 * (NVIDIA's data-centre GPUs are 0302; AMD Instinct before MI300 and Intel Data Center
 * GPU Max/Flex and Arc Pro are 0380/0300) are GPUs by class (topo.c) and are not listed.
 *
 * Known NON-accelerators, left out on purpose (on the bus of ordinary servers, classed as
 * co-processors or processing accelerators or beside them, no compute device a GPU count
 * is about):
 *   - Intel QuickAssist (QAT), class 0b40, a root-complex integrated endpoint in every
 *     Sapphire/Emerald Rapids Xeon: 8086:4940 (4xxx), 4942 (401xx), 4944 (402xx), 4946
 *     (420xx) and their VFs 4941/4943/4945/4947 (drivers/crypto/intel/qat/qat_common/
 *     adf_accel_devices.h, ADF_*_PCI_DEVICE_ID; 4940-4943 already in Linux 6.1
 *     drivers/crypto/qat/qat_common/adf_accel_devices.h); the older DH895xCC 8086:0435, C62x
 *     37c8, C3xxx 19e2 (include/linux/pci_ids.h, Linux 6.1, PCI_DEVICE_ID_INTEL_QAT_*).
 *   - Intel Data Streaming Accelerator 8086:0b25 and In-Memory Analytics Accelerator
 *     8086:0cfe (include/linux/pci_ids.h, Linux 6.1, PCI_DEVICE_ID_INTEL_DSA_SPR0 and
 *     _IAX_SPR0; drivers/dma/idxd), class 0880, and Intel's Dynamic Load Balancer (dlb2).
 *   - The NPUs of client CPUs: Intel's (drivers/accel/ivpu, class 1200) and AMD's
 *     (drivers/accel/amdxdna): integrated inference engines, no data-centre accelerator.
 */
#include "pci/accel.h"

const struct topo_accel_id topo_accel_ids[] = {
	/*
	 * Habana Labs (Intel Gaudi): vendor 1da3 holds nothing but these accelerators. Goya
	 * 0001, Gaudi 1000, Gaudi (secured) 1010, Gaudi2 1020: Linux 6.1
	 * drivers/misc/habanalabs/common/habanalabs_drv.c ids[] (drivers/accel/habanalabs/
	 * since 6.3); Gaudi 3 (1060..) is bound by Intel's out-of-tree habanalabs driver.
	 */
	{ 0x1da3, 0x0000, 0xffff, 0, "Habana Gaudi/Goya" },
	/*
	 * AMD Instinct MI300 and later are processing accelerators (1200): amdgpu binds every
	 * AMD function of that class (drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c pciidlist,
	 * PCI_DEVICE(0x1002, PCI_ANY_ID) with .class = PCI_CLASS_ACCELERATOR_PROCESSING << 8,
	 * mainline since 2023; not in 6.1, where every Instinct part was 0380 by device id).
	 */
	{ 0x1002, 0x0000, 0xffff, 0x1200, "AMD Instinct" },
	/*
	 * Intel Xeon Phi x100 (Knights Corner) coprocessors, class 0b40: 8086:2250..225e,
	 * drivers/misc/mic/host/mic_x100.h and mic_main.c mic_pci_tbl (Linux 3.13 until the
	 * MIC drivers' removal in 5.10; Intel's MPSS carried them on).
	 */
	{ 0x8086, 0x2250, 0x225e, 0, "Intel Xeon Phi" },
	/*
	 * NEC SX-Aurora Vector Engine, class 0b40: VE1/VE2 1bcf:001c, VE3 1bcf:0039
	 * (github.com/veos-sxarr-NEC/ve_drv-kmod src/hw.h, PCI_DEVICE_ID_VE1/VE3, and
	 * src/main.c ve_device_table).
	 */
	{ 0x1bcf, 0x001c, 0x001c, 0, "NEC Vector Engine" },
	{ 0x1bcf, 0x0039, 0x0039, 0, "NEC Vector Engine 3" },
	/*
	 * Tenstorrent Grayskull 1e52:faca, Wormhole 401e, Blackhole b140 (github.com/
	 * tenstorrent/tt-kmd enumerate.h PCI_DEVICE_ID_* and module.c tenstorrent_ids).
	 */
	{ 0x1e52, 0x401e, 0x401e, 0, "Tenstorrent Wormhole" },
	{ 0x1e52, 0xb140, 0xb140, 0, "Tenstorrent Blackhole" },
	{ 0x1e52, 0xfaca, 0xfaca, 0, "Tenstorrent Grayskull" },
	/*
	 * Qualcomm Cloud AI 100 17cb:a100 and AI 080 17cb:a080 (drivers/accel/qaic/
	 * qaic_drv.c qaic_ids, PCI_DEV_AIC100 since Linux 6.4, PCI_DEV_AIC080 later).
	 */
	{ 0x17cb, 0xa080, 0xa080, 0, "Qualcomm Cloud AI 080" },
	{ 0x17cb, 0xa100, 0xa100, 0, "Qualcomm Cloud AI 100" },
	/*
	 * Graphcore IPU, Colossus GC2 1d95:0001 and GC1 0002 (pci.ids 2023.04.10, Debian 12's
	 * pciutils; Graphcore's driver is not public).
	 */
	{ 0x1d95, 0x0001, 0x0002, 0, "Graphcore IPU" },
};

const size_t topo_accel_ids_n = sizeof(topo_accel_ids) / sizeof(topo_accel_ids[0]);

const struct topo_accel_id *topo_accel_lookup(const struct pci_ident *id)
{
	for (size_t i = 0; i < topo_accel_ids_n; i++) {
		const struct topo_accel_id *e = &topo_accel_ids[i];

		if (id->vendor == e->vendor && id->device >= e->device_first &&
		    id->device <= e->device_last &&
		    (!e->class_code || id->class_code >> 8 == e->class_code))
			return e;
	}
	return NULL;
}
