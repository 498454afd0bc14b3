// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * src/topo: classification, distance classes and the ports that decide a pair, on a
 * hand-built inventory (sorted by address as pcib_scan() leaves it):
 *
 *   0000:00:01.0 root port (host bridge 0000:00)
 *   └ 01:00.0 switch 1 upstream
 *     ├ 02:00.0 downstream  ACS ctrl 0x001d (SV RR CR UF)
 *     │ └ 03:00.0 GPU0 (10de 0302)
 *     └ 02:01.0 downstream  ACS ctrl 0x0010 (UF only)
 *       └ 04:00.0 switch 2 upstream
 *         ├ 05:00.0 downstream ACS ctrl 0x0020 (EC)
 *         │ └ 06:00.0 GPU1
 *         └ 05:01.0 downstream ACS ctrl 0x0000
 *           └ 07:00.0 / 07:00.1 NIC0/NIC1, one two-function device, ACS ctrl 0x0004 / 0
 *   0000:00:02.0 root port (same host bridge)
 *   └ 08:00.0 GPU2
 *   0000:40:01.0 root port (host bridge 0000:40)
 *   └ 41:00.0 NIC2
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pci/accel.h"
#include "topo/topo.h"

enum {
	RP_A,
	RP_B,
	USP1,
	DSP1A,
	DSP1B,
	GPU0,
	USP2,
	DSP2A,
	DSP2B,
	GPU1,
	NIC0,
	NIC1,
	GPU2,
	RP_C,
	NIC2,
	N_DEVS
};

static struct pci_dev_info devs[N_DEVS];
static struct pci_inventory inv = { .devs = devs, .n = N_DEVS };

static void dev(int i, uint8_t bus, uint8_t d, uint8_t fn, int parent, int type, uint16_t vendor,
		uint32_t class_code)
{
	devs[i] = (struct pci_dev_info){
		.id = { .bus = bus,
			.dev = d,
			.func = fn,
			.vendor = vendor,
			.device = 0x1234,
			.class_code = class_code },
		.parent = parent,
		.pcie_type = type,
		.cfg = PCI_CFG_FULL,
	};
	snprintf(devs[i].addr, sizeof(devs[i].addr), "0000:%02x:%02x.%x", bus, d, fn);
}

static void acs(int i, uint16_t ctrl)
{
	devs[i].has_acs = true;
	devs[i].acs_off = 0x148;
	devs[i].acs_cap = 0x007f;
	devs[i].acs_ctrl = ctrl;
}

static int setup(void **state)
{
	dev(RP_A, 0x00, 0x01, 0, -1, 4, 0x8086, 0x060400);
	dev(RP_B, 0x00, 0x02, 0, -1, 4, 0x8086, 0x060400);
	dev(USP1, 0x01, 0x00, 0, RP_A, 5, 0x10b5, 0x060400);
	dev(DSP1A, 0x02, 0x00, 0, USP1, 6, 0x10b5, 0x060400);
	dev(DSP1B, 0x02, 0x01, 0, USP1, 6, 0x10b5, 0x060400);
	dev(GPU0, 0x03, 0x00, 0, DSP1A, 0, 0x10de, 0x030200);
	dev(USP2, 0x04, 0x00, 0, DSP1B, 5, 0x10b5, 0x060400);
	dev(DSP2A, 0x05, 0x00, 0, USP2, 6, 0x10b5, 0x060400);
	dev(DSP2B, 0x05, 0x01, 0, USP2, 6, 0x10b5, 0x060400);
	dev(GPU1, 0x06, 0x00, 0, DSP2A, 0, 0x10de, 0x030200);
	dev(NIC0, 0x07, 0x00, 0, DSP2B, 0, 0x15b3, 0x020700);
	dev(NIC1, 0x07, 0x00, 1, DSP2B, 0, 0x15b3, 0x020700);
	dev(GPU2, 0x08, 0x00, 0, RP_B, 0, 0x10de, 0x030200);
	dev(RP_C, 0x40, 0x01, 0, -1, 4, 0x8086, 0x060400);
	dev(NIC2, 0x41, 0x00, 0, RP_C, 0, 0x15b3, 0x020000);
	acs(RP_A, 0x001d);
	acs(DSP1A, 0x001d);
	acs(DSP1B, 0x0010);
	acs(DSP2A, 0x0020);
	acs(DSP2B, 0x0000);
	acs(NIC0, 0x0004);
	acs(NIC1, 0x0000);
	return 0;
}

/* What an unprivileged scan leaves: no PCIe type, no ACS, 64 bytes of config space. */
static void unprivileged(void)
{
	for (int i = 0; i < N_DEVS; i++) {
		devs[i].pcie_type = -1;
		devs[i].cfg = PCI_CFG_LIMITED;
		devs[i].has_acs = false;
	}
}

static void test_classify(void **state)
{
	assert_true(topo_is_accelerator(&inv, GPU0));
	assert_false(topo_is_accelerator(&inv, NIC0));
	assert_true(topo_is_nic(&inv, NIC0));
	assert_true(topo_is_nic(&inv, NIC2)); /* 0200 Ethernet counts as well as 0207 */
	assert_false(topo_is_nic(&inv, USP1));
	/* InfiniBand filed as a serial bus controller (QLogic, older ConnectX VPI): 0c06 */
	devs[NIC2].id.class_code = 0x0c0600;
	assert_true(topo_is_nic(&inv, NIC2));
	assert_int_equal(topo_classify(NULL, &inv, NIC2), TOPO_NIC);
	/* ... but not its neighbours: USB (0c03) and SMBus (0c05) */
	devs[NIC2].id.class_code = 0x0c0330;
	assert_false(topo_is_nic(&inv, NIC2));
	devs[NIC2].id.class_code = 0x0c0500;
	assert_false(topo_is_nic(&inv, NIC2));
	devs[NIC2].id.class_code = 0x020000;
	assert_int_equal(topo_classify(NULL, &inv, GPU1), TOPO_GPU);
	assert_int_equal(topo_classify(NULL, &inv, NIC1), TOPO_NIC);
	assert_int_equal(topo_classify(NULL, &inv, DSP2B), -1);

	/*
	 * A BMC VGA (ASPEED) behind a bridge is not a GPU; an NVIDIA VGA is. On a root bus an
	 * AMD or Intel VGA is onboard graphics; NVIDIA's is a GPU (a VM's passed-through RTX
	 * A6000 on i440fx or q35's pcie.0: NVIDIA makes no onboard graphics), unless it is
	 * conventional PCI itself.
	 */
	devs[GPU2].id.class_code = 0x030000;
	devs[GPU2].id.vendor = 0x1a03;
	assert_false(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].id.vendor = 0x10de;
	assert_true(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].parent = -1;
	assert_true(topo_is_accelerator(&inv, GPU2));
	assert_int_equal(topo_classify(NULL, &inv, GPU2), TOPO_GPU);
	devs[GPU2].no_caps = true;
	assert_false(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].no_caps = false;
	devs[GPU2].id.vendor = 0x1002;
	assert_false(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].id.vendor = 0x8086;
	assert_false(topo_is_accelerator(&inv, GPU2));
	/* A processing accelerator the table lists (Gaudi: 1da3 class 1200). */
	devs[GPU2].id.vendor = 0x1da3;
	devs[GPU2].id.class_code = 0x120000;
	assert_true(topo_is_accelerator(&inv, GPU2));
	/* Unknown ids (a dead device without sysfs ids) are nothing. */
	devs[GPU2].id.vendor = 0xffff;
	devs[GPU2].id.class_code = 0xffffff;
	assert_int_equal(topo_classify(NULL, &inv, GPU2), -1);
}

/* One function alone, as the table sees it. */
static bool accel(uint16_t vendor, uint16_t device, uint32_t class_code)
{
	devs[GPU2].id.vendor = vendor;
	devs[GPU2].id.device = device;
	devs[GPU2].id.class_code = class_code;
	return topo_is_accelerator(&inv, GPU2);
}

/*
 * Co-processors (0b40) and processing accelerators (1200) are accelerators only when the
 * table lists them, each range at both ends and one past; the Xeon's own QAT, DSA and IAA
 * never; a listed one on a root bus (a VM's) still is.
 */
static void test_classify_table(void **state)
{
	static const uint16_t qat[] = { 0x4940, 0x4941, 0x4942, 0x4943, 0x4944, 0x4945,
					0x4946, 0x4947, 0x0435, 0x37c8, 0x19e2 };

	for (size_t i = 0; i < sizeof(qat) / sizeof(qat[0]); i++)
		if (accel(0x8086, qat[i], 0x0b4000))
			fail_msg("QAT 8086:%04x is an accelerator", qat[i]);
	assert_false(accel(0x8086, 0x0b25, 0x088000)); /* DSA */
	assert_false(accel(0x8086, 0x0cfe, 0x088000)); /* IAA */
	assert_false(accel(0x8086, 0x2710, 0x0b4000)); /* DLB */
	assert_false(accel(0x8086, 0x7d1d, 0x120000)); /* a client NPU */
	/* Xeon Phi x100: 2250..225e */
	assert_false(accel(0x8086, 0x224f, 0x0b4000));
	assert_true(accel(0x8086, 0x2250, 0x0b4000));
	assert_true(accel(0x8086, 0x225c, 0x0b4000));
	assert_true(accel(0x8086, 0x225e, 0x0b4000));
	assert_false(accel(0x8086, 0x225f, 0x0b4000));
	/* NEC Vector Engine: 001c and 0039 only */
	assert_true(accel(0x1bcf, 0x001c, 0x0b4000));
	assert_false(accel(0x1bcf, 0x001b, 0x0b4000));
	assert_false(accel(0x1bcf, 0x001d, 0x0b4000));
	assert_true(accel(0x1bcf, 0x0039, 0x0b4000));
	/* AMD: every processing accelerator (amdgpu's class match), no other class */
	assert_true(accel(0x1002, 0x74a1, 0x120000));
	assert_false(accel(0x1002, 0x74a1, 0x0b4000));
	assert_false(accel(0x1002, 0x74a1, 0x118000));
	assert_false(accel(0x1022, 0x1502, 0x118000)); /* Ryzen AI NPU: 1022, not 1002 */
	/* Habana: the whole vendor */
	assert_true(accel(0x1da3, 0x1020, 0x120000));
	assert_true(accel(0x1da3, 0x1060, 0x120000));
	/* Tenstorrent, Qualcomm, Graphcore */
	assert_true(accel(0x1e52, 0x401e, 0x120000));
	assert_true(accel(0x1e52, 0xb140, 0x120000));
	assert_true(accel(0x1e52, 0xfaca, 0x120000));
	assert_false(accel(0x1e52, 0x401f, 0x120000));
	assert_true(accel(0x17cb, 0xa100, 0x120000));
	assert_true(accel(0x17cb, 0xa080, 0x120000));
	assert_false(accel(0x17cb, 0x1101, 0x028000)); /* a Qualcomm Wi-Fi part */
	assert_true(accel(0x1d95, 0x0002, 0x120000));
	assert_false(accel(0x1d95, 0x0003, 0x120000));
	/* any other vendor's 1200 or 0b40 is no accelerator */
	assert_false(accel(0x1234, 0x5678, 0x120000));
	assert_false(accel(0x1234, 0x5678, 0x0b4000));
	/* a listed one on a root bus (a VM's passed-through part) */
	devs[GPU2].parent = -1;
	assert_true(accel(0x1da3, 0x1020, 0x120000));
	assert_false(accel(0x8086, 0x4940, 0x0b4000));
	/* the table itself: every range ordered, every entry found at both ends */
	for (size_t i = 0; i < pci_accel_ids_n; i++) {
		const struct pci_accel_id *e = &pci_accel_ids[i];
		struct pci_ident id = { .vendor = e->vendor,
					.class_code = (uint32_t)(e->class_code ?: 0x1200) << 8 };

		assert_true(e->device_first <= e->device_last && e->vendor != 0xffff && e->name);
		id.device = e->device_first;
		assert_ptr_equal(pci_accel_lookup(&id), e);
		id.device = e->device_last;
		assert_ptr_equal(pci_accel_lookup(&id), e);
	}
}

/* A function of a class that is no NIC's: what sysfs shows decides (high-speed edges). */
static void test_classify_evidence_nic(void **state)
{
	struct topo_evidence ev = { .net_speed = TOPO_NIC_SPEED_MIN };

	devs[NIC2].id.class_code = 0x088000; /* "system peripheral", as some DPU functions */
	assert_int_equal(topo_classify(NULL, &inv, NIC2), -1);
	assert_true(topo_needs_evidence(NULL, &inv, NIC2));
	assert_int_equal(topo_classify_evidence(NULL, &inv, NIC2, NULL), -1);
	/* a netdev at 10 GbE is high-speed, one Mb/s less is not */
	assert_int_equal(topo_classify_evidence(NULL, &inv, NIC2, &ev), TOPO_NIC);
	ev.net_speed = TOPO_NIC_SPEED_MIN - 1;
	assert_int_equal(topo_classify_evidence(NULL, &inv, NIC2, &ev), -1);
	/* a readable speed wins over the PCIe link */
	ev.link_gen = 5, ev.link_width = 16;
	assert_false(topo_evidence_high_speed(&ev));
	/* speed unknown (link down): the PCIe link the function can do, 8 GT/s x4 and up */
	ev.net_speed = -1, ev.link_gen = 3, ev.link_width = 4;
	assert_true(topo_evidence_high_speed(&ev));
	ev.link_width = 2;
	assert_false(topo_evidence_high_speed(&ev));
	ev.link_gen = 2, ev.link_width = 16;
	assert_false(topo_evidence_high_speed(&ev));
	ev.link_gen = 0, ev.link_width = 0; /* conventional PCI or unreadable */
	assert_false(topo_evidence_high_speed(&ev));
	/* no netdev at all: a fast PCIe link alone is no NIC */
	ev.net_speed = 0, ev.link_gen = 5, ev.link_width = 16;
	assert_int_equal(topo_classify_evidence(NULL, &inv, NIC2, &ev), -1);
	/* an RDMA device makes a NIC whatever the class and the speed */
	ev.rdma = true;
	assert_int_equal(topo_classify_evidence(NULL, &inv, NIC2, &ev), TOPO_NIC);
	/* ... but not of unknown ids, nor when NICs= replaces the built-in test */
	{
		struct topo_config cfg = { .nics_set = true };

		assert_false(topo_needs_evidence(&cfg, &inv, NIC2));
		assert_int_equal(topo_classify_evidence(&cfg, &inv, NIC2, &ev), -1);
	}
	devs[NIC2].id.vendor = 0xffff;
	devs[NIC2].id.class_code = 0xffffff;
	assert_false(topo_needs_evidence(NULL, &inv, NIC2));
	assert_int_equal(topo_classify_evidence(NULL, &inv, NIC2, &ev), -1);
	/* an accelerator with RDMA ports (Gaudi, class 1200) stays an accelerator */
	devs[GPU2].id.vendor = 0x1da3;
	devs[GPU2].id.class_code = 0x120000;
	assert_false(topo_needs_evidence(NULL, &inv, GPU2));
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), TOPO_GPU);
	/* bridges are never asked */
	assert_false(topo_needs_evidence(NULL, &inv, DSP2B));
}

/* Onboard graphics (ES1000 1002:515e behind the chipset's legacy PCI bridge) is no GPU. */
static void test_classify_onboard_vga(void **state)
{
	struct topo_evidence ev = { .bar_max = 256ULL << 20 };

	devs[GPU2].id.vendor = 0x1002;
	devs[GPU2].id.class_code = 0x030000;
	/* behind a PCIe root port with a 256 MiB aperture: a GPU */
	assert_true(topo_is_accelerator(&inv, GPU2));
	assert_true(topo_needs_evidence(NULL, &inv, GPU2));
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), TOPO_GPU);
	/* one byte less: onboard graphics */
	ev.bar_max = (256ULL << 20) - 1;
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), -1);
	ev.bar_max = 128ULL << 20; /* ES1000 */
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), -1);
	/* Intel: the same rule */
	devs[GPU2].id.vendor = 0x8086;
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), -1);
	/* NVIDIA makes no onboard graphics: a Fermi Quadro's 128 MiB BAR1 is still a GPU */
	devs[GPU2].id.vendor = 0x10de;
	assert_false(topo_needs_evidence(NULL, &inv, GPU2));
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), TOPO_GPU);
	devs[GPU2].id.vendor = 0x1002;
	/* BARs unknown: the BAR decides nothing */
	ev.bar_max = 0;
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), TOPO_GPU);
	/* behind a subtractive-decode PCI bridge (class 060401): conventional PCI */
	devs[RP_B].id.class_code = 0x060401;
	devs[RP_B].pcie_type = -1;
	assert_false(topo_is_accelerator(&inv, GPU2));
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), -1);
	/* a plain 060400 bridge of unknown type is not proof of conventional PCI */
	devs[RP_B].id.class_code = 0x060400;
	assert_true(topo_is_accelerator(&inv, GPU2));
	/* a PCIe-to-PCI bridge (PCIe type 7) above: conventional PCI */
	devs[RP_B].pcie_type = 7;
	assert_false(topo_is_accelerator(&inv, GPU2));
	devs[RP_B].pcie_type = 4;
	/* 3D controllers and co-processors need no evidence, whatever sits above */
	devs[GPU2].id.class_code = 0x030200;
	assert_false(topo_needs_evidence(NULL, &inv, GPU2));
	ev.bar_max = 16ULL << 20;
	assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &ev), TOPO_GPU);
	devs[GPU2].id.class_code = 0x0b4000; /* a co-processor the table does not know */
	assert_false(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].id.vendor = 0x1bcf, devs[GPU2].id.device = 0x001c; /* NEC Vector Engine */
	assert_true(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].id.class_code = 0x0b0000; /* listed: the table decides, not the class */
	assert_true(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].id.vendor = 0x1002, devs[GPU2].id.device = 0x1234;
	/* Accelerators= set: evidence is not read for the display controller */
	{
		struct topo_config cfg = { .accel_set = true };

		devs[GPU2].id.class_code = 0x030000;
		assert_int_equal(topo_classify(&cfg, &inv, GPU2), -1);
		assert_true(topo_needs_evidence(&cfg, &inv, GPU2)); /* could still be a NIC */
	}
}

/*
 * A display controller without the PCI Express capability is conventional PCI: no GPU
 * whatever its BARs (the ES1000 behind the ICH's hub-to-PCI bridge); decided by a header
 * without any capability list, or a whole chain read without the capability; a chain that
 * could not be read (64 bytes, not loaded, a dead function) proves nothing. A bridge above
 * without it is a conventional bridge.
 */
static void test_classify_no_pcie(void **state)
{
	struct topo_evidence big = { .bar_max = 256ULL << 20 }, none = {};
	static const uint16_t vendors[] = { 0x1002, 0x8086, 0x10de };

	for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++) {
		devs[GPU2].id.vendor = vendors[i];
		devs[GPU2].id.class_code = i == 2 ? 0x038000 : 0x030000;
		devs[GPU2].pcie_type = 0;
		devs[GPU2].caps_loaded = true;
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), TOPO_GPU);
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &big), TOPO_GPU);
		/* no capability list at all: decisive, BARs or not */
		devs[GPU2].no_caps = true, devs[GPU2].pcie_type = -1;
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), -1);
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &big), -1);
		assert_false(topo_is_accelerator(&inv, GPU2));
		/* ... even read without root: the header is in the 64 bytes */
		devs[GPU2].cfg = PCI_CFG_LIMITED;
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), -1);
		devs[GPU2].no_caps = false;
		/* a list that could not be read: nothing proven, the BAR rules stand */
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), TOPO_GPU);
		/* the whole chain read without the capability (PM only): decisive */
		devs[GPU2].cfg = PCI_CFG_FULL;
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), -1);
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &big), -1);
		/* ... but only once the chain was walked */
		devs[GPU2].caps_loaded = false;
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), TOPO_GPU);
		/* a function that does not answer: its header proves nothing either */
		devs[GPU2].caps_loaded = true, devs[GPU2].no_caps = true;
		devs[GPU2].state = PCI_DEV_DEAD;
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), TOPO_GPU);
		devs[GPU2].state = PCI_DEV_GONE;
		assert_int_equal(topo_classify_evidence(NULL, &inv, GPU2, &none), TOPO_GPU);
		devs[GPU2].state = PCI_DEV_OK, devs[GPU2].no_caps = false, devs[GPU2].pcie_type = 0;
	}
	/* 3D controllers and listed accelerators are not display controllers: not asked */
	devs[GPU2].id.class_code = 0x030200, devs[GPU2].no_caps = true, devs[GPU2].pcie_type = -1;
	assert_true(topo_is_accelerator(&inv, GPU2));
	devs[GPU2].no_caps = false, devs[GPU2].pcie_type = 0, devs[GPU2].id.class_code = 0x030000;
	/* the bridge above: without the capability it is a PCI-to-PCI bridge (conventional) */
	devs[RP_B].pcie_type = -1, devs[RP_B].caps_loaded = true;
	assert_false(topo_is_accelerator(&inv, GPU2));
	devs[RP_B].caps_loaded = false; /* its chain unread: not proof */
	assert_true(topo_is_accelerator(&inv, GPU2));
	devs[RP_B].no_caps = true; /* its header says no capability at all */
	assert_false(topo_is_accelerator(&inv, GPU2));
	devs[RP_B].no_caps = false, devs[RP_B].pcie_type = 4;
	assert_true(topo_is_accelerator(&inv, GPU2));
}

/* topo_evidence_read() on a directory shaped like a function's sysfs directory. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_evidence_read(void **state)
{
	char dir[] = "/tmp/test_topo.XXXXXX", sub[600];
	const struct sysroot host = {}; /* plain *at() calls below dfd */
	struct topo_evidence ev;
	int dfd;

	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_PATH | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(topo_evidence_read(&host, dfd, true, &ev), 0);
	assert_false(ev.rdma);
	assert_int_equal(ev.net_speed, 0);
	assert_true(ev.bar_max == 0);
	/* ES1000: BAR0 128 MiB prefetchable memory, BAR1 I/O, BAR2 64 KiB memory */
	put(dir, "resource",
	    "0x00000000d8000000 0x00000000dfffffff 0x0000000000042208\n"
	    "0x0000000000003000 0x00000000000030ff 0x0000000000040101\n"
	    "0x00000000f7ff0000 0x00000000f7ffffff 0x0000000000040200\n"
	    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	    "0x00000000f0000000 0x00000000ffffffff 0x0000000000046200\n");
	put(dir, "max_link_speed", "8.0 GT/s PCIe");
	put(dir, "max_link_width", "4");
	snprintf(sub, sizeof(sub), "%s/net", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof(sub), "%s/net/eth0", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	put(dir, "net/eth0/speed", "-1");
	assert_int_equal(topo_evidence_read(&host, dfd, true, &ev), 0);
	/* the ROM line (7th, 256 MiB here) is no BAR */
	assert_true(ev.bar_max == 128ULL << 20);
	assert_int_equal(ev.net_speed, -1);
	assert_int_equal(ev.link_gen, 3);
	assert_int_equal(ev.link_width, 4);
	assert_true(topo_evidence_high_speed(&ev));
	snprintf(sub, sizeof(sub), "%s/net/eth1", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	put(dir, "net/eth1/speed", "25000");
	snprintf(sub, sizeof(sub), "%s/infiniband", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof(sub), "%s/infiniband/mlx5_0", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(topo_evidence_read(&host, dfd, true, &ev), 0);
	assert_int_equal(ev.net_speed, 25000); /* the fastest netdev */
	assert_true(ev.rdma);
	assert_int_equal(ev.link_gen, 0); /* a readable speed: the link is not read */
	/* not a display controller: the BARs are not read */
	assert_int_equal(topo_evidence_read(&host, dfd, false, &ev), 0);
	assert_true(ev.bar_max == 0);
	/* not the kernel's format: unknown, not zero-sized */
	put(dir, "resource", "garbage\n");
	assert_int_equal(topo_evidence_read(&host, dfd, true, &ev), 0);
	assert_true(ev.bar_max == 0);
	close(dfd);
	assert_int_equal(system("rm -rf /tmp/test_topo.*") >= 0, 1);
}

static void test_classify_config(void **state)
{
	struct selector_entry nvme = { .text = (char *)"class:0108" };
	struct topo_config cfg = { .accel = &nvme, .n_accel = 1, .accel_set = true };
	const char *reason;

	assert_int_equal(selector_parse("class:0207", &nvme.sel, &reason), 0);
	/* Accelerators= replaces the built-in test: now the InfiniBand NICs are "GPUs". */
	assert_int_equal(topo_classify(&cfg, &inv, NIC0), TOPO_GPU);
	assert_int_equal(topo_classify(&cfg, &inv, GPU0), -1);
	/* NICs= not set: the built-in NIC test still applies to the rest. */
	assert_int_equal(topo_classify(&cfg, &inv, NIC2), TOPO_NIC);
	cfg.nics_set = true; /* set and empty of matches: no NIC at all */
	assert_int_equal(topo_classify(&cfg, &inv, NIC2), -1);
}

static void test_distance(void **state)
{
	assert_int_equal(topo_pci_distance(&inv, GPU1, NIC0), TOPO_PIX);
	assert_int_equal(topo_pci_distance(&inv, NIC0, NIC1), TOPO_PIX);
	assert_int_equal(topo_pci_distance(&inv, GPU0, GPU1), TOPO_PXB);
	assert_int_equal(topo_pci_distance(&inv, GPU0, NIC0), TOPO_PXB);
	assert_int_equal(topo_pci_distance(&inv, GPU0, GPU2), TOPO_PHB);
	assert_int_equal(topo_pci_distance(&inv, GPU0, NIC2), TOPO_NODE);
	/* Symmetric. */
	assert_int_equal(topo_pci_distance(&inv, NIC0, GPU0), TOPO_PXB);
	/* NUMA: known and different → SYS; same → NODE; both unknown → NODE; one → SYS. */
	assert_int_equal(topo_distance(&inv, GPU0, 0, NIC2, 1), TOPO_SYS);
	assert_int_equal(topo_distance(&inv, GPU0, 1, NIC2, 1), TOPO_NODE);
	assert_int_equal(topo_distance(&inv, GPU0, -1, NIC2, -1), TOPO_NODE);
	assert_int_equal(topo_distance(&inv, GPU0, 0, NIC2, -1), TOPO_SYS);
	/* NUMA never changes a pair below one host bridge. */
	assert_int_equal(topo_distance(&inv, GPU0, 0, GPU2, 1), TOPO_PHB);
}

static void test_distance_unprivileged(void **state)
{
	unprivileged();
	assert_int_equal(topo_pci_distance(&inv, GPU1, NIC0), TOPO_PIX);
	assert_int_equal(topo_pci_distance(&inv, GPU0, GPU1), TOPO_PXB);
	assert_int_equal(topo_pci_distance(&inv, GPU0, GPU2), TOPO_PHB);
	assert_int_equal(topo_pci_distance(&inv, GPU0, NIC2), TOPO_NODE);
}

static void test_pair_ports_pxb(void **state)
{
	struct topo_path p;

	/* Paths enter switch 1 at 02:00.0 (RR CR on) and 02:01.0 (UF only: not a redirect). */
	topo_pair_ports(&inv, GPU0, GPU1, &p);
	assert_int_equal(p.dist, TOPO_PXB);
	assert_int_equal(p.n_ports, 2);
	assert_int_equal(p.ports[0].dev, DSP1A);
	assert_int_equal(p.ports[0].role, TOPO_PORT_INGRESS);
	assert_int_equal(p.ports[0].redirect, TOPO_ACS_RR | TOPO_ACS_CR);
	assert_int_equal(p.ports[1].dev, DSP1B);
	assert_int_equal(p.ports[1].state, TOPO_ACS_KNOWN);
	assert_int_equal(p.ports[1].redirect, 0);
	assert_int_equal(p.p2p, TOPO_P2P_REDIRECTED);

	/* Switch 2's ports are not on the list: it forwards GPU1's request upstream anyway. */
	acs(DSP1A, 0x0011);
	topo_pair_ports(&inv, GPU0, GPU1, &p);
	assert_int_equal(p.p2p, TOPO_P2P_DIRECT);
}

static void test_pair_ports_pix(void **state)
{
	struct topo_path p;

	topo_pair_ports(&inv, GPU1, NIC0, &p);
	assert_int_equal(p.dist, TOPO_PIX);
	assert_int_equal(p.n_ports, 2);
	assert_int_equal(p.ports[0].dev, DSP2A);
	assert_int_equal(p.ports[0].redirect, TOPO_ACS_EC);
	assert_int_equal(p.ports[1].dev, DSP2B);
	assert_int_equal(p.p2p, TOPO_P2P_REDIRECTED);
	/* A port without ACS does not redirect. */
	devs[DSP2A].has_acs = false;
	topo_pair_ports(&inv, GPU1, NIC0, &p);
	assert_int_equal(p.ports[0].state, TOPO_ACS_NONE);
	assert_int_equal(p.p2p, TOPO_P2P_DIRECT);
}

static void test_pair_ports_functions(void **state)
{
	struct topo_path p;

	topo_pair_ports(&inv, NIC0, NIC1, &p);
	assert_int_equal(p.dist, TOPO_PIX);
	assert_int_equal(p.n_ports, 2);
	assert_int_equal(p.ports[0].dev, NIC0);
	assert_int_equal(p.ports[0].role, TOPO_PORT_FUNCTION);
	assert_int_equal(p.ports[0].redirect, TOPO_ACS_RR);
	assert_int_equal(p.p2p, TOPO_P2P_REDIRECTED);
}

static void test_pair_ports_root_complex(void **state)
{
	struct topo_path p;

	topo_pair_ports(&inv, GPU0, GPU2, &p);
	assert_int_equal(p.dist, TOPO_PHB);
	assert_int_equal(p.n_ports, 0);
	assert_int_equal(p.p2p, TOPO_P2P_ROOT_COMPLEX);
	topo_pair_ports(&inv, GPU0, NIC2, &p);
	assert_int_equal(p.p2p, TOPO_P2P_ROOT_COMPLEX);
}

static void test_pair_ports_needs_root(void **state)
{
	struct topo_path p;

	unprivileged();
	topo_pair_ports(&inv, GPU0, GPU1, &p);
	assert_int_equal(p.ports[0].dev, DSP1A);
	assert_int_equal(p.ports[0].state, TOPO_ACS_NEEDS_ROOT);
	assert_int_equal(p.p2p, TOPO_P2P_UNKNOWN); /* never "direct" or "no ACS" */
	/* A known redirect on one side outweighs an unknown on the other. */
	devs[DSP1A].cfg = PCI_CFG_FULL;
	acs(DSP1A, 0x0004);
	topo_pair_ports(&inv, GPU0, GPU1, &p);
	assert_int_equal(p.p2p, TOPO_P2P_REDIRECTED);
	/* A dead port is unreadable, not free of ACS. */
	devs[DSP1B].state = PCI_DEV_DEAD;
	devs[DSP1A].acs_ctrl = 0;
	topo_pair_ports(&inv, GPU0, GPU1, &p);
	assert_int_equal(p.ports[1].state, TOPO_ACS_UNREADABLE);
	assert_int_equal(p.p2p, TOPO_P2P_UNKNOWN);
}

/* The cached chains and pair distances answer as the walks do, for every pair. */
static void test_paths_cache(void **state)
{
	static const int numa[] = { 0, 0, -1, 1 };
	struct topo_endpoint eps[N_DEVS];
	struct topology t = { .eps = eps, .n = N_DEVS };

	(void)state;
	for (size_t i = 0; i < N_DEVS; i++)
		eps[i] = (struct topo_endpoint){ .dev = i, .numa_node = numa[i % 4] };
	assert_int_equal(topo_paths_build(&t, &inv), 0);
	for (size_t i = 0; i < N_DEVS; i++)
		for (size_t j = 0; j < N_DEVS; j++) {
			struct topo_path a, b;

			assert_int_equal(topo_ep_distance(&t, &inv, i, j),
					 topo_endpoint_distance(&inv, &eps[i], &eps[j]));
			topo_ep_pair_ports(&t, &inv, i, j, &a);
			topo_pair_ports(&inv, i, j, &b);
			assert_int_equal(a.dist, b.dist);
			assert_int_equal(a.p2p, b.p2p);
			assert_int_equal(a.n_ports, b.n_ports);
			for (size_t k = 0; k < a.n_ports; k++) {
				assert_int_equal(a.ports[k].dev, b.ports[k].dev);
				assert_int_equal(a.ports[k].role, b.ports[k].role);
				assert_int_equal(a.ports[k].state, b.ports[k].state);
				assert_int_equal(a.ports[k].ctrl, b.ports[k].ctrl);
			}
		}
	topo_paths_done(&t);
}

/*
 * The documented P2P risk of a port (pci/accel.h p2p_risk): only for a pair of listed
 * parts whose path that port decides. GPU0 and GPU1 made Arc Pro B70s (e220): their pair
 * enters switch 1 at 02:00.0 and 02:01.0; GPU2 (another root port) and the NICs are not
 * such parts, and a port off that path names nothing.
 */
static void test_port_p2p_risk(void **state)
{
	struct topo_risky rk;

	assert_int_equal(topo_risky_build(&inv, &rk), 0);
	assert_int_equal(rk.n, 0);
	assert_null(topo_port_p2p_risk(&inv, &rk, DSP1A));
	topo_risky_done(&rk);

	devs[GPU0].id.vendor = devs[GPU1].id.vendor = 0x8086;
	devs[GPU0].id.device = devs[GPU1].id.device = 0xe220;
	devs[GPU0].id.class_code = devs[GPU1].id.class_code = 0x038000;
	assert_int_equal(topo_risky_build(&inv, &rk), 0);
	assert_int_equal(rk.n, 2);
	assert_int_equal(rk.idx[0], GPU0);
	assert_int_equal(rk.idx[1], GPU1);
	assert_non_null(topo_port_p2p_risk(&inv, &rk, DSP1A));
	assert_non_null(topo_port_p2p_risk(&inv, &rk, DSP1B));
	assert_string_equal(topo_port_p2p_risk(&inv, &rk, DSP1A), topo_p2p_risk(&inv, GPU0, GPU1));
	assert_null(topo_port_p2p_risk(&inv, &rk, DSP2A)); /* below the pair's meeting point */
	assert_null(topo_port_p2p_risk(&inv, &rk, RP_A));
	topo_risky_done(&rk);
	assert_null(rk.idx);

	/* one listed part alone: no pair, no risk */
	devs[GPU1].id.device = 0x1234;
	assert_int_equal(topo_risky_build(&inv, &rk), 0);
	assert_int_equal(rk.n, 1);
	assert_null(topo_port_p2p_risk(&inv, &rk, DSP1A));
	topo_risky_done(&rk);
}

static void test_acs_bits(void **state)
{
	char buf[16];

	assert_string_equal(topo_acs_bits(0x001d & TOPO_ACS_REDIRECT, buf, sizeof(buf)), "RR CR");
	assert_string_equal(topo_acs_bits(TOPO_ACS_REDIRECT, buf, sizeof(buf)), "RR CR EC");
	assert_string_equal(topo_acs_bits(0, buf, sizeof(buf)), "none");
	assert_string_equal(topo_dist_to_string(TOPO_PXB), "PXB");
}

/* A GPU's nearest NIC: RDMA NICs only when the host has one, else every NIC. */
static void test_nearest_candidate(void **state)
{
	struct topo_endpoint eps[] = {
		{ .kind = TOPO_GPU },
		{ .kind = TOPO_NIC, .rdma = false },
		{ .kind = TOPO_NIC, .rdma = true },
	};
	struct topology t = { .eps = eps, .n = 3, .n_rdma_nics = 1 };

	assert_false(topo_nearest_candidate(&t, 0)); /* a GPU is never a NIC candidate */
	assert_false(topo_nearest_candidate(&t, 1)); /* a 1 GbE port beside an HCA */
	assert_true(topo_nearest_candidate(&t, 2));
	t.n_rdma_nics = 0; /* no RDMA NIC anywhere: every NIC */
	eps[2].rdma = false;
	assert_false(topo_nearest_candidate(&t, 0));
	assert_true(topo_nearest_candidate(&t, 1));
	assert_true(topo_nearest_candidate(&t, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_classify, setup),
		cmocka_unit_test_setup(test_classify_config, setup),
		cmocka_unit_test_setup(test_classify_table, setup),
		cmocka_unit_test_setup(test_classify_evidence_nic, setup),
		cmocka_unit_test_setup(test_classify_onboard_vga, setup),
		cmocka_unit_test_setup(test_classify_no_pcie, setup),
		cmocka_unit_test_setup(test_evidence_read, setup),
		cmocka_unit_test_setup(test_distance, setup),
		cmocka_unit_test_setup(test_distance_unprivileged, setup),
		cmocka_unit_test_setup(test_pair_ports_pxb, setup),
		cmocka_unit_test_setup(test_pair_ports_pix, setup),
		cmocka_unit_test_setup(test_pair_ports_functions, setup),
		cmocka_unit_test_setup(test_pair_ports_root_complex, setup),
		cmocka_unit_test_setup(test_pair_ports_needs_root, setup),
		cmocka_unit_test_setup(test_paths_cache, setup),
		cmocka_unit_test_setup(test_port_p2p_risk, setup),
		cmocka_unit_test_setup(test_acs_bits, setup),
		cmocka_unit_test(test_nearest_candidate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
