// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PCI capability walks (src/pci/pci.c walk_caps(), walk_ext_caps()) through the real
 * backend: the input is one function's config space (up to 4096 bytes; its length is the
 * file's, so a 64-byte unprivileged view and a 256-byte conventional space come too),
 * written as <root>/sys/devices/pci0000:00/0000:00:01.0/config; the backend is opened on
 * that root, scans, loads the function's capabilities and reads the ACS words back as
 * apply does. Besides memory safety, UB and loops (the 10 s timeout): every field the
 * walks report is what the bytes say at the place they name.
 */
#include "fuzz.h"
#include "pci/pci.h"

#define ADDR	"0000:00:01.0"
#define DEVREL	"sys/devices/pci0000:00/" ADDR
#define CFG_MAX 4096

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *link;

	log_set_max_level(LOG_CRIT);
	fuzz_put_file(DEVREL "/vendor", "0x8086\n", 7);
	fuzz_assert(asprintf(&link, "%s/sys/bus/pci/devices/" ADDR, fuzz_root()) > 0);
	fuzz_mkparents(link);
	fuzz_assert(symlink("../../../devices/pci0000:00/" ADDR, link) == 0 || errno == EEXIST);
	free(link);
	return 0;
}

/* What the walks found agrees with the bytes. */
static void check_info(const struct pci_dev_info *d, const uint8_t *cfg, size_t size)
{
	fuzz_assert(d->caps_loaded);
	fuzz_assert(d->pcie_type >= -1 && d->pcie_type <= 15);
	if (size < 64 || le16(cfg) == 0xffff) {
		/* a header that cannot be read, or all-ones: no capability is claimed */
		fuzz_assert(d->state != PCI_DEV_OK && !d->has_acs && d->pcie_type == -1);
		return;
	}
	fuzz_assert(d->state == PCI_DEV_OK);
	fuzz_assert(d->id.vendor == le16(cfg) && d->id.device == le16(cfg + 2));
	if (!d->has_acs)
		return;
	/* ACS only behind a PCI Express capability, in extended space, dword aligned */
	fuzz_assert(d->pcie_type >= 0 && d->cfg == PCI_CFG_FULL);
	fuzz_assert(d->acs_off >= 0x100 && d->acs_off % 4 == 0 && d->acs_off + 8u <= size);
	fuzz_assert(le16(cfg + d->acs_off) == PCI_EXT_CAP_ACS);
	fuzz_assert(d->acs_cap == le16(cfg + d->acs_off + 4));
	fuzz_assert(d->acs_ctrl == le16(cfg + d->acs_off + 6));
}

/* What apply re-reads before a write names the same capability and word. */
static void check_reread(struct pci_backend *b, const struct pci_dev_info *d)
{
	uint16_t id, ctrl;

	/* never below extended space, whatever the bytes */
	fuzz_assert(pcib_ext_cap_id_at(b, ADDR, 0x0fc, &id) == -EINVAL);
	if (!d->has_acs)
		return;
	fuzz_assert(pcib_ext_cap_id_at(b, ADDR, d->acs_off, &id) == 0 && id == PCI_EXT_CAP_ACS);
	fuzz_assert(pcib_read16(b, ADDR, d->acs_off + 6, &ctrl) == 0 && ctrl == d->acs_ctrl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_(pcib_closep) struct pci_backend *b = NULL;
	struct pci_inventory inv = {};
	struct sysroot root = {};

	if (size > CFG_MAX)
		size = CFG_MAX;
	fuzz_put_file(DEVREL "/config", data, size);
	fuzz_assert(sysroot_init(&root, fuzz_root()) == 0);
	fuzz_assert(pcib_open(&b, &root) == 0);
	fuzz_assert(pcib_scan(b, &inv) == 0);
	fuzz_assert(inv.n == 1 && streq(inv.devs[0].addr, ADDR));
	fuzz_assert(pcib_load_caps(b, &inv, 0) == 0);
	/* idempotent: a second load reads nothing and changes nothing */
	{
		struct pci_dev_info before = inv.devs[0];

		fuzz_assert(pcib_load_caps(b, &inv, 0) == 0);
		fuzz_assert(memcmp(&before, &inv.devs[0], sizeof(before)) == 0);
	}
	check_info(&inv.devs[0], data, size);
	if (inv.devs[0].state == PCI_DEV_OK)
		check_reread(b, &inv.devs[0]);
	pci_inventory_done(&inv);
	sysroot_done(&root);
	return 0;
}
