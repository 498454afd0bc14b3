// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>

#include <pci/pci.h>

#include "log.h"
#include "pci.h"

/*
 * libpci's error callback must not return (the default exits the process).
 * Ours jumps back to the guard around the libpci call that failed, which
 * returns -EIO. Inputs (addresses, offsets) are validated before libpci is
 * called, so this is only reached for a tree libpci cannot make sense of.
 */
static __thread sigjmp_buf *pci_guard;
static __thread int pci_last_errno;

struct pci_backend {
	const struct pci_backend_ops *ops;
	struct pci_access *acc;
	char *sysfs_path;
};

static void pci_log(int prio, const char *msg, va_list ap)
{
	_cleanup_(freep) char *s = NULL;

	if (vasprintf(&s, msg, ap) < 0)
		return;
	log_full(prio, "libpci: %s", s);
}

static _Noreturn void pci_error_cb(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	pci_log(LOG_ERR, msg, ap);
	va_end(ap);
	if (pci_guard)
		siglongjmp(*pci_guard, 1);
	abort();
}

static void pci_warning_cb(char *msg, ...)
{
	va_list ap;

	pci_last_errno = errno; /* the failed read/write's errno, before we print */
	va_start(ap, msg);
	pci_log(LOG_DEBUG, msg, ap);
	va_end(ap);
}

static void pci_debug_cb(char *msg, ...)
{
}

/* Run fn(arg) with pci_error_cb armed to come back here; -EIO if it did. */
static int pci_guarded(void (*fn)(void *), void *arg)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 0) != 0) {
		pci_guard = NULL;
		return -EIO;
	}
	pci_guard = &jb;
	fn(arg);
	pci_guard = NULL;
	return 0;
}

struct block_io {
	struct pci_dev *dev;
	unsigned off;
	uint8_t *buf;
	bool write;
	int ok;
};

static void do_block_io(void *p)
{
	struct block_io *io = p;

	io->ok = io->write ? pci_write_block(io->dev, io->off, io->buf, 2)
			   : pci_read_block(io->dev, io->off, io->buf, 2);
}

static void do_init(void *p)
{
	pci_init(p);
}

static void do_scan_bus(void *p)
{
	pci_scan_bus(p);
}

static int libpci_open(struct pci_backend **ret, const struct sysroot *root)
{
	struct pci_backend *b;

	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->ops = &pci_backend_libpci;
	b->sysfs_path = sysroot_path(root, SYSROOT_SYS, "bus/pci");
	b->acc = pci_alloc();
	if (!b->sysfs_path || !b->acc) {
		pcib_close(b);
		return -ENOMEM;
	}
	b->acc->error = pci_error_cb;
	b->acc->warning = pci_warning_cb;
	b->acc->debug = pci_debug_cb;
	b->acc->method = PCI_ACCESS_SYS_BUS_PCI;
	/*
	 * Kernel's view (buscentric off): ids and class from sysfs, with the
	 * kernel's quirk fixups, and the parent from the sysfs hierarchy. Only
	 * the PCI_FILL_* flags used below are requested, so no other sysfs file
	 * is needed.
	 */
	b->acc->buscentric = 0;
	b->acc->writeable = 0; /* config opened O_RDWR only for the device being written */
	if (pci_set_param(b->acc, "sysfs.path", b->sysfs_path) < 0 ||
	    pci_guarded(do_init, b->acc) < 0) {
		pcib_close(b);
		return -EIO;
	}
	*ret = b;
	return 0;
}

static void libpci_close(struct pci_backend *b)
{
	if (b->acc)
		pci_cleanup(b->acc);
	free(b->sysfs_path);
	free(b);
}

static struct pci_dev *find_dev(struct pci_backend *b, const char *addr)
{
	uint32_t domain;
	uint8_t bus, dev, func;

	if (pci_address_parse(addr, &domain, &bus, &dev, &func) < 0)
		return NULL;
	for (struct pci_dev *d = b->acc->devices; d; d = d->next)
		if ((uint32_t)d->domain == domain && d->bus == bus && d->dev == dev &&
		    d->func == func)
			return d;
	return NULL;
}

static int check_offset(unsigned off)
{
	/* Only aligned words inside the 4 KiB extended config space. */
	return (off & 1) || off > 0xffe ? -EINVAL : 0;
}

static int block_io(struct pci_backend *b, const char *addr, unsigned off, uint8_t buf[2],
		    bool write)
{
	struct block_io io = { .dev = find_dev(b, addr), .off = off, .buf = buf, .write = write };

	if (!io.dev)
		return -ENODEV;
	if (check_offset(off) < 0)
		return -EINVAL;
	pci_last_errno = 0;
	if (pci_guarded(do_block_io, &io) < 0)
		return -EIO;
	if (!io.ok)
		return pci_last_errno ? -pci_last_errno : -EIO;
	return 0;
}

static int libpci_read_word(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret)
{
	uint8_t buf[2];
	int r;

	r = block_io(b, addr, off, buf, false);
	if (r < 0)
		return r;
	*ret = (uint16_t)(buf[0] | buf[1] << 8);
	return 0;
}

static int libpci_write_word(struct pci_backend *b, const char *addr, unsigned off, uint16_t val)
{
	uint8_t buf[2] = { val & 0xff, val >> 8 };

	return block_io(b, addr, off, buf, true);
}

static enum pci_cfg_access probe_cfg_access(struct pci_dev *d)
{
	uint8_t buf[4];

	/* Without CAP_SYS_ADMIN the kernel hands out the first 64 bytes only. */
	return pci_read_block(d, PCI_CFG_LEGACY_SIZE, buf, sizeof(buf)) ? PCI_CFG_FULL
									: PCI_CFG_LIMITED;
}

static void fill_caps(struct pci_dev *d, struct pci_dev_info *info)
{
	struct pci_cap *exp, *acs;

	info->pcie_type = -1;
	exp = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	if (exp)
		info->pcie_type =
			(pci_read_word(d, exp->addr + PCI_EXP_FLAGS) & PCI_EXP_FLAGS_TYPE) >> 4;
	acs = pci_find_cap(d, PCI_EXT_CAP_ID_ACS, PCI_CAP_EXTENDED);
	if (!acs)
		return;
	info->has_acs = true;
	info->acs_off = acs->addr;
	info->acs_cap = pci_read_word(d, acs->addr + PCI_ACS_CAP);
	info->acs_ctrl = pci_read_word(d, acs->addr + PCI_ACS_CTRL);
}

static void format_addr(const struct pci_dev *d, char buf[static PCI_ADDR_LEN])
{
	snprintf(buf, PCI_ADDR_LEN, "%04x:%02x:%02x.%x", (unsigned)d->domain & 0xffffffu, d->bus,
		 d->dev, d->func);
}

struct fill_arg {
	struct pci_dev *dev;
	struct pci_dev_info *info;
};

static void fill_one(void *p)
{
	struct pci_dev *d = ((struct fill_arg *)p)->dev;
	struct pci_dev_info *info = ((struct fill_arg *)p)->info;

	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CLASS_EXT | PCI_FILL_PARENT);
	*info = (struct pci_dev_info){
		.id = {
			.domain = d->domain,
			.bus = d->bus,
			.dev = d->dev,
			.func = d->func,
			.vendor = d->vendor_id,
			.device = d->device_id,
			.class_code = (uint32_t)d->device_class << 8 | d->prog_if,
		},
		.parent = -1,
		.pcie_type = -1,
	};
	format_addr(d, info->addr);
	info->cfg = probe_cfg_access(d);
	if (info->cfg == PCI_CFG_FULL)
		fill_caps(d, info);
}

static int cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct pci_dev_info *)a)->addr,
		      ((const struct pci_dev_info *)b)->addr);
}

/* libpci's parent pointers → indexes, once the array is sorted. */
static void link_parents(struct pci_backend *b, struct pci_inventory *inv)
{
	for (struct pci_dev *d = b->acc->devices; d; d = d->next) {
		char addr[PCI_ADDR_LEN], paddr[PCI_ADDR_LEN];
		const struct pci_dev_info *child, *parent;

		if (!d->parent)
			continue;
		format_addr(d, addr);
		format_addr(d->parent, paddr);
		child = pci_inventory_find(inv, addr);
		parent = pci_inventory_find(inv, paddr);
		if (child && parent)
			inv->devs[child - inv->devs].parent = (int)(parent - inv->devs);
	}
}

static int libpci_scan(struct pci_backend *b, struct pci_inventory *ret)
{
	struct pci_inventory inv = {};
	size_t n = 0, i = 0;
	int r;

	r = pci_guarded(do_scan_bus, b->acc);
	if (r < 0)
		return r;
	for (struct pci_dev *d = b->acc->devices; d; d = d->next)
		n++;
	inv.devs = calloc(n ? n : 1, sizeof(*inv.devs));
	if (!inv.devs)
		return -ENOMEM;
	for (struct pci_dev *d = b->acc->devices; d; d = d->next, i++) {
		struct fill_arg arg = { .dev = d, .info = &inv.devs[i] };

		r = pci_guarded(fill_one, &arg);
		if (r < 0) {
			free(inv.devs);
			return r;
		}
	}
	inv.n = n;
	qsort(inv.devs, inv.n, sizeof(*inv.devs), cmp_dev);
	link_parents(b, &inv);
	*ret = inv;
	return 0;
}

const struct pci_backend_ops pci_backend_libpci = {
	.name = "libpci-sysfs",
	.open = libpci_open,
	.scan = libpci_scan,
	.read_word = libpci_read_word,
	.write_word = libpci_write_word,
	.close = libpci_close,
};

int pcib_open(struct pci_backend **ret, const struct sysroot *root)
{
	return pci_backend_libpci.open(ret, root);
}

void pcib_close(struct pci_backend *b)
{
	if (b)
		b->ops->close(b);
}

void pcib_closep(struct pci_backend **b)
{
	pcib_close(*b);
}

int pcib_scan(struct pci_backend *b, struct pci_inventory *ret)
{
	return b->ops->scan(b, ret);
}

int pcib_read16(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret)
{
	return b->ops->read_word(b, addr, off, ret);
}

int pcib_write16(struct pci_backend *b, const char *addr, unsigned off, uint16_t val)
{
	return b->ops->write_word(b, addr, off, val);
}

int pcib_ext_cap_id_at(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret)
{
	if (off < 0x100)
		return -EINVAL;
	return pcib_read16(b, addr, off, ret);
}

void pci_inventory_done(struct pci_inventory *inv)
{
	free(inv->devs);
	*inv = (struct pci_inventory){};
}

const struct pci_dev_info *pci_inventory_find(const struct pci_inventory *inv, const char *addr)
{
	struct pci_dev_info key = {};

	if (!inv->n)
		return NULL;
	snprintf(key.addr, sizeof(key.addr), "%s", addr);
	return bsearch(&key, inv->devs, inv->n, sizeof(*inv->devs), cmp_dev);
}

int pci_dev_path(const struct pci_inventory *inv, const struct pci_dev_info *d, char *buf,
		 size_t size)
{
	char tail[256] = "";

	/* Walk up to the device on the root bus, prepending "/dd.f" per hop. */
	while (d->parent >= 0) {
		char hop[300];

		snprintf(hop, sizeof(hop), "/%02x.%x%s", d->id.dev, d->id.func, tail);
		if (strlen(hop) >= sizeof(tail))
			return -ENAMETOOLONG;
		strcpy(tail, hop);
		d = &inv->devs[d->parent];
	}
	if ((size_t)snprintf(buf, size, "%s%s", d->addr, tail) >= size)
		return -ENAMETOOLONG;
	return 0;
}
