/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "pci/selector.h"
#include "core/sysroot.h"

/*
 * PCI backend: enumeration and config-space access. Enumeration is ours:
 * one readdir of <root>/sys/bus/pci/devices and one readlink per entry
 * (the link names every bridge above the device). Config space goes
 * through libpci with the sysfs method forced and sysfs.path set under the
 * root prefix, so a fake tree of plain files behaves like the kernel's.
 * A device that cannot be read stays in the inventory with its state; it
 * never fails the scan of the others. Only apply.c (apply and revert)
 * calls pcib_write16().
 */
#define PCI_ADDR_LEN	    16 /* "dddd:bb:dd.f" + NUL; VMD domains have 5 digits */
#define PCI_EXT_CAP_ACS	    0x000d
#define PCI_CFG_LEGACY_SIZE 64 /* what an unprivileged reader sees */

enum pci_cfg_access {
	PCI_CFG_FULL,	 /* the whole config space reads */
	PCI_CFG_LIMITED, /* only the first 64 bytes: not root (or a broken device) */
	/*
	 * A PCIe function whose config space ends at 256 bytes: no extended config space
	 * (no ECAM/MMCONFIG, pci=nommconf, some hypervisors), so its ACS capability, if
	 * any, cannot be read. A conventional PCI function has 256 bytes and no ACS: FULL.
	 */
	PCI_CFG_NO_EXT,
	/*
	 * The extended capability list cannot be followed to its end: a read past 0x100
	 * failed (a short config file), a capability header or the ACS registers read
	 * all-ones, or the list loops. Whether the function has ACS, and its Control, is
	 * unknown, never "no ACS".
	 */
	PCI_CFG_EXT_BROKEN,
};

enum pci_dev_state {
	PCI_DEV_OK,
	PCI_DEV_GONE, /* listed in sysfs, config space unreadable: removed, dangling entry */
	PCI_DEV_DEAD, /* config space reads all-ones: surprise removal, link down, off */
};

/*
 * Whether a function is an SR-IOV virtual function, as its config header tells: a VF's
 * Vendor ID reads 0xffff (SR-IOV 1.1 3.4.1.1) and the rest of its header answers, so a
 * header that gives a vendor is no VF's. Unknown where the header was not read (and in an
 * inventory built by hand): the physfn link decides then (topo_is_virtfn()).
 */
enum pci_virtfn {
	PCI_VIRTFN_UNKNOWN,
	PCI_VIRTFN_NO,
	PCI_VIRTFN_YES,
};

/*
 * Why a privileged read would see more than 64 bytes, decided from this
 * process's credentials (not from the device).
 */
enum pci_limited_cause {
	PCI_LIMITED_NOT_ROOT,	  /* euid != 0 */
	PCI_LIMITED_NO_SYS_ADMIN, /* euid 0, CAP_SYS_ADMIN not in the effective set */
	PCI_LIMITED_DEVICE,	  /* privileged: the kernel itself exposes 64 bytes */
};

struct pci_dev_info {
	struct pci_ident id; /* of a GONE/DEAD device: the kernel's sysfs ids, else 0xffff */
	char addr[PCI_ADDR_LEN];
	int parent;    /* index into pci_inventory.devs; -1 on a root bus */
	int pcie_type; /* PCIe Device/Port Type, -1 without a PCIe capability */
	enum pci_dev_state state;
	int err;		/* PCI_DEV_GONE: why (negative errno) */
	bool no_caps;		/* the header's Status.CapList is clear: no capability at all */
	enum pci_virtfn virtfn; /* what the header said of SR-IOV (zeroed: unknown) */
	/* Read by pcib_load_caps(), not by the scan: */
	bool caps_loaded;
	enum pci_cfg_access cfg;
	bool has_acs;
	uint16_t acs_off, acs_cap, acs_ctrl;
};

struct pci_dir_cache;

struct pci_inventory {
	struct pci_dev_info *devs;
	size_t n;
	/* The device directories opened so far (pci_dev_dir()); NULL: none are kept. */
	struct pci_dir_cache *dirs;
};

/*
 * The directory of devs[i], <root>/sys/bus/pci/devices/<addr> opened O_PATH inside the
 * root: the fd (>= 0) or -errno. Every capability reads a function's attributes and links
 * relative to it (isolation, topology, links, AER, inventory: up to five per function), so
 * the scan's inventory keeps each one open after its first use, until pci_inventory_done():
 * the path is walked once per run, not once per reader. *ret says whether the caller owns
 * the fd (an inventory without a cache, or past the fd budget): pci_dir_release() it,
 * always, never close() it.
 */
struct pci_dir {
	int fd;
	bool owned;
};
int pci_dev_dir(const struct sysroot *root, const struct pci_inventory *inv, size_t i,
		struct pci_dir *ret);
void pci_dir_release(struct pci_dir *d);
/*
 * The driver bound to devs[i], its driver link's last component, in buf: -ENOENT when
 * none is bound, -ENAMETOOLONG when it does not fit, -errno when the link cannot be read.
 * Read once per inventory (the VFIO refusal and [Inventory] ask it of the same GPUs and
 * NICs); a failed read other than "none bound" is tried again by the next caller.
 */
int pci_dev_driver(const struct sysroot *root, const struct pci_inventory *inv, size_t i, char *buf,
		   size_t size);
/* A new, empty cache for inv (its n functions); -ENOMEM. */
int pci_dir_cache_new(struct pci_inventory *inv);
void pci_dir_cache_free(struct pci_dir_cache *c);

struct pci_backend;

struct pci_backend_ops {
	const char *name;
	int (*open)(struct pci_backend **ret, const struct sysroot *root);
	int (*scan)(struct pci_backend *b, struct pci_inventory *ret);
	int (*read_word)(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret);
	int (*write_word)(struct pci_backend *b, const char *addr, unsigned off, uint16_t val);
	void (*close)(struct pci_backend *b);
};

extern const struct pci_backend_ops pci_backend_libpci;

int pcib_open(struct pci_backend **ret, const struct sysroot *root);
void pcib_close(struct pci_backend *b);
void pcib_closep(struct pci_backend **b);
int pcib_scan(struct pci_backend *b, struct pci_inventory *ret);
/*
 * pcib_scan(), and pcib_load_caps() right after a function's header while libpci still
 * holds its config file open (one open per function instead of two): for every function
 * want() answers PCI_WANT_SELF for, and every bridge above one it answers PCI_WANT_ABOVE
 * for. want() sees the identity and address; parent is not set yet. Topology wants
 * endpoints and their paths; check wants what a rule can select (plan_wants_caps()).
 */
enum {
	PCI_WANT_SELF = 1 << 0,
	PCI_WANT_ABOVE = 1 << 1,
	/*
	 * SELF only where the function shares the bus below its bridge with another function
	 * (on a root bus: its device's slot): where a P2P path can end at its own ACS (two
	 * functions of one device, a device beside a bridge). The topology view asks it of
	 * its endpoints, so topo_load_caps() opens none of them a second time.
	 */
	PCI_WANT_SELF_SHARED = 1 << 2,
};
int pcib_scan_caps(struct pci_backend *b, struct pci_inventory *ret,
		   unsigned (*want)(const struct pci_dev_info *info, void *ud), void *ud);
int pcib_read16(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret);
int pcib_write16(struct pci_backend *b, const char *addr, unsigned off, uint16_t val);
/*
 * Make sure devs[i]'s capability fields (cfg, pcie_type, has_acs, acs_*) are read.
 * The scan reads only each function's 64-byte header (identity, state); the
 * chains are walked here, for the functions someone asks about (the plan's
 * candidates, topology). Every reader of those fields calls this first; until
 * then they hold their defaults (cfg FULL, pcie_type -1, no ACS). Idempotent;
 * 0, -ENOENT (no such index) or -ESTALE (inv is not this backend's last scan).
 */
int pcib_load_caps(struct pci_backend *b, struct pci_inventory *inv, size_t i);
/* Extended capability id at off (to re-check a recorded offset before writing). */
int pcib_ext_cap_id_at(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret);

/*
 * Whether the process is privileged (euid 0), from the command layer, which asks once
 * (cli_set_privilege()); unset: not privileged. pci_limited_cause() needs it.
 */
void pci_set_privileged(bool privileged);
enum pci_limited_cause pci_limited_cause(void);

/*
 * Why only the first 64 bytes of config space could be read, for this
 * process (pci_limited_cause()): a short form for the plan's counts, and
 * the actual and remedy of an "unknown" result. One diagnosis for every reader
 * of config space (acs, topology.p2p, acs cmdline).
 */
struct pci_limited_text {
	const char *why;
	const char *actual;
	const char *remedy;
};
const struct pci_limited_text *pci_limited_text(enum pci_limited_cause c);
/* The same for a PCIe function without extended config space (PCI_CFG_NO_EXT). */
const struct pci_limited_text *pci_no_ext_text(void);
/* The same for an extended capability list that cannot be read to its end. */
const struct pci_limited_text *pci_ext_broken_text(void);
/* The text for why d's ACS cannot be read (d->cfg is not PCI_CFG_FULL). */
const struct pci_limited_text *pci_unreadable_text(const struct pci_dev_info *d);
const char *pci_dev_state_to_string(enum pci_dev_state s);

void pci_inventory_done(struct pci_inventory *inv);
const struct pci_dev_info *pci_inventory_find(const struct pci_inventory *inv, const char *addr);
/* Kernel path form "dddd:bb:dd.f/dd.f/..." from the root bus down to the device. */
int pci_dev_path(const struct pci_inventory *inv, const struct pci_dev_info *d, char *buf,
		 size_t size);
