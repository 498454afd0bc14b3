// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The known accelerators (pci/accel.h). Each entry names where its ids come from: the PCI
 * id table of the driver that binds the parts (file, and the kernel or repository it was
 * read in), or pciutils' pci.ids (Debian 12's pciutils, /usr/share/misc/pci.ids, version
 * 2023.04.10: "pci.ids" below) where no public driver table names them. NVIDIA's
 * data-centre GPUs are 3D controllers (0302) and selected by that class (class:0302);
 * the display controllers (0300/0380) listed here are the data-centre and workstation
 * parts whose peer-to-peer traffic crosses PCIe switches (AMD Instinct before MI300,
 * Intel Data Center GPU Max and Flex, Arc Pro): a consumer card or onboard VGA of the
 * same vendor is not listed (topology still counts a discrete display controller of a
 * GPU vendor as a GPU by its place and aperture, topo.c; the ACS rule does not).
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

/*
 * Silent data corruption, not only slowness: two Arc Pro B70 (Battlemage G31) behind a
 * Broadcom PEX880xx switch with the switch's default ACS redirect on copied at full speed
 * and read back all-ones; with RR and CR off on the downstream ports the copies verified
 * (github.com/intel/compute-runtime issue 935, 2026-07; issue 942 reports the same cards).
 */
#define ARC_P2P_RISK                                                                      \
	"peer-to-peer copies between these Intel Arc cards while ACS redirects them may " \
	"return all-ones: silent data corruption (intel/compute-runtime issue 935)"

const struct pci_accel_id pci_accel_ids[] = {
	/*
	 * Habana Labs (Intel Gaudi): Goya 0001, Gaudi 1000, Gaudi (secured) 1010, Gaudi2
	 * 1020: Linux 6.1 drivers/misc/habanalabs/common/habanalabs_drv.c ids[]
	 * (drivers/accel/habanalabs/ since 6.3), HabanaAI/hl-thunk-open
	 * include/specs/common/pci_ids.h; Greco 0030: pci.ids. Vendor 1da3 holds nothing
	 * but these accelerators: the last entry takes the rest, Gaudi 3 (1060.., bound by
	 * Intel's out-of-tree habanalabs driver) and later.
	 */
	{ 0x1da3, 0x0001, 0x0001, 0, "Habana Goya", NULL },
	{ 0x1da3, 0x0030, 0x0030, 0, "Habana Greco", NULL },
	{ 0x1da3, 0x1000, 0x1010, 0, "Habana Gaudi", NULL },
	{ 0x1da3, 0x1020, 0x1020, 0, "Habana Gaudi2", NULL },
	{ 0x1da3, 0x0000, 0xffff, 0, "Habana Gaudi 3 or later", NULL },
	/*
	 * AMD Instinct before MI300, display controllers (0380) by device id (pci.ids; the
	 * same ids in Linux drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c pciidlist, CHIP_VEGA10,
	 * CHIP_VEGA20, CHIP_ARCTURUS, CHIP_ALDEBARAN): MI25/V340 6860 6864 686c, MI50/MI60
	 * 66a0 66a1, MI100 7388 738c 738e, MI250X 7408, MI250/MI250X 740c, MI210 740f. A
	 * Radeon of the same chips (Vega 64 687f, Radeon VII 66af) is not listed.
	 */
	{ 0x1002, 0x6860, 0x6860, 0, "AMD Instinct MI25", NULL },
	{ 0x1002, 0x6864, 0x6864, 0, "AMD Instinct MI25x2", NULL },
	{ 0x1002, 0x686c, 0x686c, 0, "AMD Instinct MI25 MxGPU", NULL },
	{ 0x1002, 0x66a0, 0x66a1, 0, "AMD Instinct MI50/MI60", NULL },
	{ 0x1002, 0x7388, 0x7388, 0, "AMD Instinct MI100", NULL },
	{ 0x1002, 0x738c, 0x738c, 0, "AMD Instinct MI100", NULL },
	{ 0x1002, 0x738e, 0x738e, 0, "AMD Instinct MI100", NULL },
	{ 0x1002, 0x7408, 0x7408, 0, "AMD Instinct MI250X", NULL },
	{ 0x1002, 0x740c, 0x740c, 0, "AMD Instinct MI250/MI250X", NULL },
	{ 0x1002, 0x740f, 0x740f, 0, "AMD Instinct MI210", NULL },
	/*
	 * AMD Instinct MI300 (MI300X 74a1, MI300A 74a0) and later are processing
	 * accelerators (1200): amdgpu binds every AMD function of that class
	 * (amdgpu_drv.c pciidlist, PCI_DEVICE(0x1002, PCI_ANY_ID) with .class =
	 * PCI_CLASS_ACCELERATOR_PROCESSING << 8, mainline since 2023; not in 6.1).
	 */
	{ 0x1002, 0x0000, 0xffff, 0x1200, "AMD Instinct MI300 or later", NULL },
	/*
	 * Intel Data Center GPU Max (Ponte Vecchio): 0bd0, 0bd5..0bdb (pci.ids; Linux
	 * include/drm/i915_pciids.h INTEL_PVC_IDS). Data Center GPU Flex 170 56c0, 140 56c1
	 * (pci.ids; INTEL_ATS_M150_IDS/INTEL_ATS_M75_IDS). Arc Pro A30M 56b0, A40/A50 56b1
	 * (pci.ids), A60/A60M 56b2 56b3 (i915_pciids.h INTEL_DG2_G12_IDS); not the consumer
	 * Arc A-series (56a0..56a6).
	 */
	{ 0x8086, 0x0bd0, 0x0bd0, 0, "Intel Data Center GPU Max", NULL },
	{ 0x8086, 0x0bd5, 0x0bdb, 0, "Intel Data Center GPU Max", NULL },
	{ 0x8086, 0x56c0, 0x56c1, 0, "Intel Data Center GPU Flex", NULL },
	{ 0x8086, 0x56b0, 0x56b3, 0, "Intel Arc Pro A", NULL },
	/*
	 * Intel Arc Pro B70 (Battlemage G31): e220..e223 (Linux include/drm/intel/pciids.h
	 * INTEL_BMG_IDS, the ids after INTEL_BMG_G21_IDS; the B70 reads 8086:e223 in
	 * intel/compute-runtime issue 957's lspci).
	 */
	{ 0x8086, 0xe220, 0xe223, 0, "Intel Arc Pro B70", ARC_P2P_RISK },
	/*
	 * Intel Xeon Phi x100 (Knights Corner) coprocessors, class 0b40: 8086:2250..225e,
	 * drivers/misc/mic/host/mic_x100.h and mic_main.c mic_pci_tbl (Linux 3.13 until the
	 * MIC drivers' removal in 5.10; Intel's MPSS carried them on).
	 */
	{ 0x8086, 0x2250, 0x225e, 0, "Intel Xeon Phi", NULL },
	/*
	 * NEC SX-Aurora Vector Engine, class 0b40: VE1/VE2 1bcf:001c, VE3 1bcf:0039
	 * (github.com/veos-sxarr-NEC/ve_drv-kmod src/hw.h, PCI_DEVICE_ID_VE1/VE3, and
	 * src/main.c ve_device_table).
	 */
	{ 0x1bcf, 0x001c, 0x001c, 0, "NEC Vector Engine", NULL },
	{ 0x1bcf, 0x0039, 0x0039, 0, "NEC Vector Engine 3", NULL },
	/*
	 * Tenstorrent Grayskull 1e52:faca, Wormhole 401e, Blackhole b140 (github.com/
	 * tenstorrent/tt-kmd enumerate.h PCI_DEVICE_ID_* and module.c tenstorrent_ids).
	 */
	{ 0x1e52, 0x401e, 0x401e, 0, "Tenstorrent Wormhole", NULL },
	{ 0x1e52, 0xb140, 0xb140, 0, "Tenstorrent Blackhole", NULL },
	{ 0x1e52, 0xfaca, 0xfaca, 0, "Tenstorrent Grayskull", NULL },
	/*
	 * Qualcomm Cloud AI 100 17cb:a100 and AI 080 17cb:a080 (drivers/accel/qaic/
	 * qaic_drv.c qaic_ids, PCI_DEV_AIC100 since Linux 6.4, PCI_DEV_AIC080 later).
	 */
	{ 0x17cb, 0xa080, 0xa080, 0, "Qualcomm Cloud AI 080", NULL },
	{ 0x17cb, 0xa100, 0xa100, 0, "Qualcomm Cloud AI 100", NULL },
	/*
	 * Graphcore IPU, Colossus GC2 1d95:0001 and GC1 0002 (pci.ids; Graphcore's driver
	 * is not public).
	 */
	{ 0x1d95, 0x0001, 0x0002, 0, "Graphcore IPU", NULL },
};

const size_t pci_accel_ids_n = sizeof(pci_accel_ids) / sizeof(pci_accel_ids[0]);

const struct pci_accel_id *pci_accel_lookup(const struct pci_ident *id)
{
	for (size_t i = 0; i < pci_accel_ids_n; i++) {
		const struct pci_accel_id *e = &pci_accel_ids[i];

		if (id->vendor == e->vendor && id->device >= e->device_first &&
		    id->device <= e->device_last &&
		    (!e->class_code || id->class_code >> 8 == e->class_code))
			return e;
	}
	return NULL;
}
