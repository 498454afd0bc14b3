// SPDX-License-Identifier: GPL-2.0-or-later
#include <fcntl.h>
#include <linux/capability.h>
#include <setjmp.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <pci/pci.h>

#include "core/fileio.h"
#include "core/log.h"
#include "pci/pci.h"
#include "core/string-table.h"

/*
 * libpci's error callback must not return (the default exits the process).
 * Ours jumps back to the guard around the libpci call that failed, which
 * returns -EIO. Inputs (addresses, offsets) are validated before libpci is
 * called, so this is only reached for a tree libpci cannot make sense of.
 */
static __thread sigjmp_buf *pci_guard;
static __thread int pci_last_errno;

#define PCI_HDR_SIZE	   64  /* the header every function has, read in one go */
#define PCI_CAP_MAX	   48  /* (256 - 64) / 4: a longer chain loops */
#define PCI_EXT_CAP_MAX	   960 /* (4096 - 256) / 4 */
#define PCI_EXT_CAP_START  0x100
#define PCI_SYSFS_LINK_MAX 1024

/*
 * What the scan kept of a function: its address, and of its header what
 * pcib_load_caps() needs to walk the chains later without reading the
 * header again; parallel to the inventory the last scan returned.
 */
struct dev_slot {
	uint32_t domain;
	uint8_t bus, dev, func;
	uint8_t cap_ptr;
	bool cap_list; /* Status.CapList */
};

/*
 * libpci's struct pci_dev is over 400 bytes: one per function was most of a
 * scan's memory at thousands of functions. Only one exists at a time, for the
 * function being read or written (cur); switching to another frees it, which
 * also closes libpci's cached config fd, as opening the next one would have.
 */
struct pci_backend {
	const struct pci_backend_ops *ops;
	struct pci_access *acc;
	const struct sysroot *root;
	bool contained;	  /* a --root: config files opened by us, not by libpci (config_seed()) */
	char *sysfs_path; /* <root>/sys/bus/pci, for libpci */
	int devices_fd;	  /* <root>/sys/bus/pci/devices, or negative errno */
	struct dev_slot *slots;
	size_t n_slots;
	struct pci_dev *cur;
	/* pcib_scan_caps(): whose capabilities to load during the scan */
	unsigned (*want_caps)(const struct pci_dev_info *info, void *ud);
	void *want_ud;
};

static void pci_log(int prio, const char *msg, va_list ap)
{
	_cleanup_(freep) char *s = NULL;

	if (vasprintf(&s, msg, ap) < 0)
		return;
	log_full(prio, "libpci: %s", s);
}

/* the attribute, not _Noreturn: clang makes it part of the type libpci's hook has */
static __attribute__((noreturn)) void pci_error_cb(char *msg, ...)
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
	int len;
	bool write;
	int ok;
};

static void do_block_io(void *p)
{
	struct block_io *io = p;

	io->ok = io->write ? pci_write_block(io->dev, io->off, io->buf, io->len)
			   : pci_read_block(io->dev, io->off, io->buf, io->len);
}

static void do_init(void *p)
{
	pci_init(p);
}

/* One guarded config-space transfer; the errno libpci saw, or -EIO. */
static int cfg_io(struct pci_dev *dev, unsigned off, void *buf, int len, bool write)
{
	struct block_io io = { .dev = dev, .off = off, .buf = buf, .len = len, .write = write };

	pci_last_errno = 0;
	if (pci_guarded(do_block_io, &io) < 0)
		return -EIO;
	if (!io.ok)
		return pci_last_errno ? -pci_last_errno : -EIO;
	return 0;
}

static int cfg_read(struct pci_dev *dev, unsigned off, void *buf, int len)
{
	return cfg_io(dev, off, buf, len, false);
}

static int libpci_open(struct pci_backend **ret, const struct sysroot *root)
{
	struct pci_backend *b;

	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->ops = &pci_backend_libpci;
	b->root = root;
	b->contained = !sysroot_is_host(root);
	/*
	 * Ours resolve below this fd; libpci takes a path string: the directory resolved inside
	 * the root (below a --root it opens nothing there itself: config_seed()).
	 */
	b->devices_fd =
		sysroot_openat(root, SYSROOT_SYS, O_RDONLY | O_DIRECTORY, "bus/pci/devices");
	if (sysroot_lib_path(root, SYSROOT_SYS, &b->sysfs_path, "bus/pci") < 0)
		b->sysfs_path = sysroot_path(root, SYSROOT_SYS, "bus/pci"); /* for messages only */
	b->acc = pci_alloc();
	if (!b->sysfs_path || !b->acc) {
		pcib_close(b);
		return -ENOMEM;
	}
	b->acc->error = pci_error_cb;
	b->acc->warning = pci_warning_cb;
	b->acc->debug = pci_debug_cb;
	b->acc->method = PCI_ACCESS_SYS_BUS_PCI;
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
	if (b->cur)
		pci_free_dev(b->cur);
	if (b->acc)
		pci_cleanup(b->acc);
	free(b->slots);
	free(b->sysfs_path);
	if (b->devices_fd >= 0)
		close(b->devices_fd);
	free(b);
}

/*
 * Below a --root libpci never opens a config file itself: it would follow any symlink (an
 * absolute bus/pci/devices link reaches this machine's hardware) and block on a FIFO.
 * Ours is opened inside the root (sysroot_openat(): -EXDEV for a path that leaves it),
 * O_NONBLOCK, and must be a regular file; it is handed to libpci as the config fd it
 * caches for the device (pci_access fd, fd_rw, cached_dev: all its sysfs_setup() looks
 * at, pciutils 3.9 to 3.14), and libpci closes it as its own. On the host libpci opens
 * /sys itself, as before: nothing there leaves the root.
 */
static int config_seed(struct pci_backend *b, struct pci_dev *dev, const char *addr, bool rw)
{
	struct pci_access *a = b->acc;
	struct stat st;
	int fd, r = 0;

	if (!b->contained || (a->cached_dev == dev && a->fd >= 0 && (a->fd_rw || !rw)))
		return 0;
	fd = sysroot_openat(b->root, SYSROOT_SYS, (rw ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_NOCTTY,
			    "bus/pci/devices/%s/config", addr);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
	if (r < 0) {
		close(fd);
		return r;
	}
	if (a->fd >= 0)
		close(a->fd);
	a->fd = fd;
	a->fd_rw = rw;
	a->cached_dev = dev;
	return 0;
}

static void slot_addr(const struct dev_slot *s, char buf[static PCI_ADDR_LEN])
{
	snprintf(buf, PCI_ADDR_LEN, "%04x:%02x:%02x.%x", s->domain, s->bus, s->dev, s->func);
}

/* libpci's device for a slot: the current one, or a new one in its place; negative errno. */
static int slot_dev(struct pci_backend *b, const struct dev_slot *slot, struct pci_dev **ret)
{
	struct pci_dev *d = b->cur;
	char addr[PCI_ADDR_LEN];
	int r;

	if (d && (uint32_t)d->domain == slot->domain && d->bus == slot->bus &&
	    d->dev == slot->dev && d->func == slot->func) {
		*ret = d;
		return 0;
	}
	if (d)
		pci_free_dev(d);
	b->cur = pci_get_dev(b->acc, (int)slot->domain, slot->bus, slot->dev, slot->func);
	if (!b->cur)
		return -ENOMEM;
	slot_addr(slot, addr);
	r = config_seed(b, b->cur, addr, false);
	if (r < 0) {
		pci_free_dev(b->cur);
		b->cur = NULL;
		return r;
	}
	*ret = b->cur;
	return 0;
}

/* Only the functions of the last scan: an address it did not list is -ENODEV. */
static int find_dev(struct pci_backend *b, const char *addr, struct pci_dev **ret)
{
	uint32_t domain;
	uint8_t bus, dev, func;

	if (pci_address_parse(addr, &domain, &bus, &dev, &func) < 0)
		return -ENODEV;
	for (size_t i = 0; i < b->n_slots; i++) {
		const struct dev_slot *s = &b->slots[i];

		if (s->domain == domain && s->bus == bus && s->dev == dev && s->func == func)
			return slot_dev(b, s, ret);
	}
	return -ENODEV;
}

static int check_offset(unsigned off)
{
	/* Only aligned words inside the 4 KiB extended config space. */
	return (off & 1) || off > 0xffe ? -EINVAL : 0;
}

static int word_io(struct pci_backend *b, const char *addr, unsigned off, uint8_t buf[2],
		   bool write)
{
	struct pci_dev *dev;
	int r;

	r = find_dev(b, addr, &dev);
	if (r >= 0 && check_offset(off) < 0)
		r = -EINVAL;
	if (r >= 0 && write)
		r = config_seed(b, dev, addr, true);
	if (r < 0)
		return r;
	return cfg_io(dev, off, buf, 2, write);
}

static int libpci_read_word(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret)
{
	uint8_t buf[2];
	int r;

	r = word_io(b, addr, off, buf, false);
	if (r < 0)
		return r;
	*ret = (uint16_t)(buf[0] | buf[1] << 8);
	return 0;
}

static int libpci_write_word(struct pci_backend *b, const char *addr, unsigned off, uint16_t val)
{
	uint8_t buf[2] = { val & 0xff, val >> 8 };

	return word_io(b, addr, off, buf, true);
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The classic chain, up to the PCI Express capability (all we need from
 * it). The first read past byte 64 also tells whether the kernel hands out
 * more than the header: without CAP_SYS_ADMIN it does not.
 */
static void walk_caps(struct pci_dev *dev, const struct dev_slot *slot, struct pci_dev_info *info)
{
	uint8_t cap[4];
	unsigned pos = slot->cap_ptr & ~3u;

	if (!slot->cap_list) {
		if (cfg_read(dev, PCI_HDR_SIZE, cap, sizeof(cap)) < 0)
			info->cfg = PCI_CFG_LIMITED;
		return;
	}
	for (int n = 0; n < PCI_CAP_MAX && pos >= PCI_HDR_SIZE; n++) {
		if (cfg_read(dev, pos, cap, sizeof(cap)) < 0) {
			info->cfg = PCI_CFG_LIMITED;
			return;
		}
		if (cap[PCI_CAP_LIST_ID] == PCI_CAP_ID_EXP) {
			info->pcie_type = (le16(cap + PCI_EXP_FLAGS) & PCI_EXP_FLAGS_TYPE) >> 4;
			return;
		}
		pos = cap[PCI_CAP_LIST_NEXT] & ~3u;
	}
}

/* The ACS capability at pos: its registers, or the list is broken (all-ones: not an answer). */
static void take_acs(struct pci_dev *dev, unsigned pos, struct pci_dev_info *info)
{
	uint8_t buf[4];

	if (cfg_read(dev, pos + PCI_ACS_CAP, buf, sizeof(buf)) < 0 || le32(buf) == 0xffffffffu) {
		info->cfg = PCI_CFG_EXT_BROKEN;
		return;
	}
	info->has_acs = true;
	info->acs_off = (uint16_t)pos;
	info->acs_cap = le16(buf);
	info->acs_ctrl = le16(buf + 2);
}

/*
 * The extended chain from 0x100, up to the ACS capability. A zero header ends it (at 0x100:
 * no extended capabilities), as the kernel's walk does; a read that fails past 0x100, an
 * all-ones header or a list longer than the space (a loop) leave ACS unknown: "no ACS"
 * there would clear the port from a P2P path it may still redirect.
 */
static void walk_ext_caps(struct pci_dev *dev, struct pci_dev_info *info)
{
	unsigned pos = PCI_EXT_CAP_START;
	uint8_t buf[4];

	for (int n = 0; n < PCI_EXT_CAP_MAX; n++) {
		uint32_t h;

		if (cfg_read(dev, pos, buf, sizeof(buf)) < 0) {
			/* A PCIe function with 256 bytes: the extended space is not reachable. */
			info->cfg = pos == PCI_EXT_CAP_START ? PCI_CFG_NO_EXT : PCI_CFG_EXT_BROKEN;
			return;
		}
		h = le32(buf);
		if (h == 0)
			return;
		if (h == 0xffffffffu)
			break;
		if ((h & 0xffff) == PCI_EXT_CAP_ACS)
			return take_acs(dev, pos, info);
		pos = (h >> 20) & 0xffc;
		if (pos < PCI_EXT_CAP_START)
			return; /* the last one */
	}
	info->cfg = PCI_CFG_EXT_BROKEN;
}

static int sysfs_attr_hex(struct pci_backend *b, const char *addr, const char *attr, uint32_t *ret)
{
	_cleanup_(freep) char *line = NULL;
	_cleanup_(closep) int fd = -1;
	unsigned long v;
	char *end;
	int r;

	/* From the root, not devices_fd: the entry's link climbs above it, inside the root. */
	fd = sysroot_openat(b->root, SYSROOT_SYS, O_RDONLY | O_NONBLOCK | O_NOCTTY,
			    "bus/pci/devices/%s/%s", addr, attr);
	if (fd < 0)
		return fd;
	r = read_one_line_fd(fd, &line);
	if (r < 0)
		return r;
	errno = 0;
	v = strtoul(line, &end, 16);
	if (errno || end == line || *end || v > 0xffffff)
		return -EINVAL;
	*ret = (uint32_t)v;
	return 0;
}

/*
 * A device that does not answer still has the ids the kernel read at
 * enumeration (sysfs vendor/device/class), so the GPU behind a dead port
 * still selects it. Unknown ids stay all-ones: no id or class selector
 * matches them, an address selector does.
 */
static void ident_from_sysfs(struct pci_backend *b, struct pci_dev_info *info)
{
	uint32_t v;

	info->id.vendor = info->id.device = 0xffff;
	info->id.class_code = 0xffffff;
	if (sysfs_attr_hex(b, info->addr, "vendor", &v) >= 0 && v <= 0xffff)
		info->id.vendor = (uint16_t)v;
	if (sysfs_attr_hex(b, info->addr, "device", &v) >= 0 && v <= 0xffff)
		info->id.device = (uint16_t)v;
	if (sysfs_attr_hex(b, info->addr, "class", &v) >= 0)
		info->id.class_code = v;
}

/*
 * Identity from the config header read in one go, not from the sysfs
 * vendor/device/class files (three opens per device). Trade-off: class
 * selectors see the register, not the kernel's class quirk fixups (a few
 * bridges that report a wrong class); ACS ports are found by their
 * capability, not by class, so the plan does not depend on it.
 * Only the 64-byte header is read here: the capability chains are walked by
 * pcib_load_caps() for the few functions a rule can select, since on real
 * hardware every config dword is a bus transaction.
 */
/*
 * An SR-IOV virtual function's Vendor and Device ID registers read 0xffff (SR-IOV 1.1
 * 3.4.1.1, 3.4.1.2): the kernel takes them from its PF and shows them in sysfs, but the
 * config file is the hardware's. The rest of its header answers (class, status, the
 * capability pointer), where a function that does not respond reads all-ones throughout;
 * the physfn link tells the two apart. Linux does not emulate the IDs (FreeBSD does).
 */
static bool virtfn_header(struct pci_backend *b, const struct pci_dev_info *info,
			  const uint8_t *hdr)
{
	bool answers = false;

	for (size_t i = PCI_COMMAND; i < PCI_HDR_SIZE && !answers; i++)
		answers = hdr[i] != 0xff;
	return answers &&
	       sysroot_exists(b->root, SYSROOT_SYS, "bus/pci/devices/%s/physfn", info->addr) > 0;
}

static void fill_dev(struct pci_backend *b, struct pci_dev *dev, struct dev_slot *slot,
		     struct pci_dev_info *info)
{
	uint8_t hdr[PCI_HDR_SIZE];
	int r;

	r = cfg_read(dev, 0, hdr, sizeof(hdr));
	if (r >= 0 && le16(hdr + PCI_VENDOR_ID) == 0xffff && virtfn_header(b, info, hdr)) {
		ident_from_sysfs(b, info); /* the kernel's ids, class included */
		info->virtfn = PCI_VIRTFN_YES;
		slot->cap_ptr = hdr[PCI_CAPABILITY_LIST];
		slot->cap_list = le16(hdr + PCI_STATUS) & PCI_STATUS_CAP_LIST;
		info->no_caps = !slot->cap_list;
		return;
	}
	if (r < 0 || le16(hdr + PCI_VENDOR_ID) == 0xffff) {
		info->state = r < 0 ? PCI_DEV_GONE : PCI_DEV_DEAD;
		info->err = r < 0 ? r : -EIO;
		log_debug_errno(info->err, "PCI device %s: %s: %m", info->addr,
				pci_dev_state_to_string(info->state));
		ident_from_sysfs(b, info);
		info->caps_loaded = true; /* nothing more to read from it */
		return;
	}
	info->virtfn = PCI_VIRTFN_NO;
	info->id.vendor = le16(hdr + PCI_VENDOR_ID);
	info->id.device = le16(hdr + PCI_DEVICE_ID);
	info->id.class_code = (uint32_t)hdr[PCI_CLASS_DEVICE + 1] << 16 |
			      (uint32_t)hdr[PCI_CLASS_DEVICE] << 8 | hdr[PCI_CLASS_PROG];
	slot->cap_ptr = hdr[PCI_CAPABILITY_LIST];
	slot->cap_list = le16(hdr + PCI_STATUS) & PCI_STATUS_CAP_LIST;
	info->no_caps = !slot->cap_list;
}

static int load_caps(struct pci_backend *b, const struct dev_slot *slot, struct pci_dev_info *info)
{
	struct pci_dev *dev;
	int r = slot_dev(b, slot, &dev);

	info->caps_loaded = true;
	if (r == -ENOMEM)
		return r;
	if (r < 0) { /* it read at the scan and is gone or refused now: say so, not a skip */
		info->state = PCI_DEV_GONE;
		info->err = r;
		return 0;
	}
	walk_caps(dev, slot, info);
	if (info->cfg == PCI_CFG_FULL && info->pcie_type >= 0)
		walk_ext_caps(dev, info);
	return 0;
}

/* One sys/bus/pci/devices entry: its address and its parent's, from the link. */
struct dev_entry {
	char addr[PCI_ADDR_LEN];
	char parent[PCI_ADDR_LEN]; /* "" on a root bus */
};

/* "dddd:bb:dd.f" exactly as the kernel names it, copied to buf; false for anything else. */
static bool canonical_addr(const char *s, char buf[static PCI_ADDR_LEN])
{
	if (!pci_address_is_kernel(s)) /* then shorter than PCI_ADDR_LEN */
		return false;
	memcpy(buf, s, strlen(s) + 1);
	return true;
}

/*
 * "../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0": the component
 * before the device's own is its parent bridge, or the root bus
 * ("pci0000:15", also a VMD domain's) when it is not an address.
 */
static void parent_from_link(const char *link, char parent[static PCI_ADDR_LEN])
{
	const char *end = strrchr(link, '/'), *start;
	char comp[PCI_ADDR_LEN];

	parent[0] = '\0';
	if (!end || end == link)
		return;
	for (start = end; start > link && start[-1] != '/'; start--)
		;
	if ((size_t)(end - start) >= sizeof(comp))
		return;
	memcpy(comp, start, end - start);
	comp[end - start] = '\0';
	if (!canonical_addr(comp, parent))
		parent[0] = '\0';
}

/* The last component of a link target ("" after a trailing '/'). */
static const char *base_name(const char *link)
{
	const char *slash = strrchr(link, '/');

	return slash ? slash + 1 : link;
}

static int read_entry(const struct pci_backend *b, int dfd, const char *name, struct dev_entry *e)
{
	char link[PCI_SYSFS_LINK_MAX], other[PCI_ADDR_LEN];

	if (!canonical_addr(name, e->addr)) {
		log_warning("Ignoring PCI sysfs entry '%s': not a PCI address as the kernel names "
			    "one (dddd:bb:dd.f).",
			    name);
		return -EINVAL;
	}
	if (sysroot_readlink_at(b->root, dfd, name, link, sizeof(link)) < 0) {
		/* Not a link (a plain directory in an odd tree): no parent known. */
		e->parent[0] = '\0';
		return 0;
	}
	if (canonical_addr(base_name(link), other) && !streq(other, name)) {
		/* the kernel names each entry after its device: another one's is a second view */
		log_warning("Ignoring PCI sysfs entry '%s': it links to %s, not its own device.",
			    name, link);
		return -EINVAL;
	}
	parent_from_link(link, e->parent);
	return 0;
}

/* Doubling: growing by one entry left a trail of freed blocks in the heap. */
static int push_entry(struct dev_entry **v, size_t *n, size_t *alloc, const struct dev_entry *e)
{
	if (*n == *alloc) {
		size_t k = *alloc ? *alloc * 2 : 64;
		struct dev_entry *nv = reallocarray(*v, k, sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*alloc = k;
	}
	(*v)[(*n)++] = *e;
	return 0;
}

static int list_entries(struct pci_backend *b, struct dev_entry **ret, size_t *ret_n)
{
	_cleanup_(closedirp) DIR *dir = NULL;
	_cleanup_(freep) struct dev_entry *v = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	int r;

	/* The results only say "cannot enumerate PCI devices": name the path once, here */
	if (b->devices_fd < 0)
		return log_warning_errno(b->devices_fd,
					 "Cannot enumerate PCI devices: %s/devices: %m (--root "
					 "must hold a sysfs-shaped sys/)",
					 b->sysfs_path);
	/* A new open file description per scan: its own position, the backend keeps its fd. */
	r = sysroot_opendir_at(b->root, b->devices_fd, ".", &dir);
	if (r < 0)
		return log_debug_errno(r, "Failed to open %s/devices: %m", b->sysfs_path);
	while ((de = readdir(dir))) {
		struct dev_entry e;

		if (de->d_name[0] == '.' || read_entry(b, dirfd(dir), de->d_name, &e) < 0)
			continue;
		r = push_entry(&v, &n, &alloc, &e);
		if (r < 0)
			return r;
	}
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct dev_entry *)a)->addr, ((const struct dev_entry *)b)->addr);
}

/*
 * An absolute link on the way, "X/config" or "X" below bus/pci/devices: it resolves inside
 * --root, not where it points; named in the refusal ("" when there is none).
 */
static void absolute_link(struct pci_backend *b, const char *addr, char *buf, size_t size)
{
	char target[PCI_SYSFS_LINK_MAX];

	buf[0] = '\0';
	if (sysroot_readlink(b->root, SYSROOT_SYS, target, sizeof(target),
			     "bus/pci/devices/%s/config", addr) > 0 &&
	    target[0] == '/')
		snprintf(buf, size, "; bus/pci/devices/%s/config -> %s resolves inside --root",
			 addr, target);
	else if (sysroot_readlink(b->root, SYSROOT_SYS, target, sizeof(target),
				  "bus/pci/devices/%s", addr) > 0 &&
		 target[0] == '/')
		snprintf(buf, size, "; bus/pci/devices/%s -> %s resolves inside --root", addr,
			 target);
}

/*
 * A config file that cannot be opened inside the root (a link out of it finds nothing
 * there) or is no regular file (a FIFO) is never handed to libpci: never read, never
 * written, so never recorded. The device stays in the inventory as gone, with the reason;
 * what is selected by it is a FAIL.
 */
static void refuse_dev(struct pci_backend *b, struct pci_dev_info *info, int err)
{
	char link[PCI_SYSFS_LINK_MAX + 96];

	info->state = PCI_DEV_GONE;
	info->err = err;
	info->caps_loaded = true;
	if (err == -EBADFD || err == -EISDIR)
		log_warning_errno(err,
				  "PCI device %s: config is not a regular file (%m), refusing "
				  "to read or write it.",
				  info->addr);
	else {
		absolute_link(b, info->addr, link, sizeof(link));
		log_warning_errno(err,
				  "PCI device %s: cannot open its config file (%m%s), refusing to "
				  "read or write it.",
				  info->addr, link);
	}
	ident_from_sysfs(b, info);
}

static int scan_one(struct pci_backend *b, const struct dev_entry *e, struct dev_slot *slot,
		    struct pci_dev_info *info)
{
	uint32_t domain;
	uint8_t bus, devn, func;
	struct pci_dev *dev;
	int r;

	(void)pci_address_parse(e->addr, &domain, &bus, &devn, &func);
	*info = (struct pci_dev_info){
		.id = { .domain = domain, .bus = bus, .dev = devn, .func = func },
		.parent = -1,
		.pcie_type = -1,
	};
	snprintf(info->addr, sizeof(info->addr), "%s", e->addr);
	*slot = (struct dev_slot){ .domain = domain, .bus = bus, .dev = devn, .func = func };
	r = slot_dev(b, slot, &dev);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		refuse_dev(b, info, r);
		return 0;
	}
	fill_dev(b, dev, slot, info);
	return 0;
}

/* "dddd:bb:dd" of two addresses, the function left out. */
static bool same_slot(const char *a, const char *b)
{
	const char *dot = strrchr(a, '.');

	return dot && strncmp(a, b, (size_t)(dot - a + 1)) == 0;
}

/* On a root bus (no parent), whether entry i's neighbour j is a function of its slot. */
static bool root_slot_mate(const struct dev_entry *ents, const int *parent, size_t n, size_t i,
			   size_t j)
{
	return j < n && parent[i] < 0 && parent[j] < 0 && same_slot(ents[i].addr, ents[j].addr);
}

/*
 * shared[i]: function i is not alone below its bridge (another entry has the same
 * parent), or on a root bus not alone in its slot (entries are in address order).
 */
static bool *shared_functions(const struct dev_entry *ents, const int *parent, size_t n)
{
	_cleanup_(freep) unsigned *kids = calloc(n ? n : 1, sizeof(*kids));
	bool *shared = calloc(n ? n : 1, sizeof(*shared));

	if (!kids || !shared) {
		free(shared);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (parent[i] >= 0)
			kids[parent[i]]++;
	for (size_t i = 0; i < n; i++) {
		if (parent[i] >= 0)
			shared[i] = kids[parent[i]] > 1;
		else
			shared[i] = (i > 0 && root_slot_mate(ents, parent, n, i, i - 1)) ||
				    root_slot_mate(ents, parent, n, i, i + 1);
	}
	return shared;
}

static bool wants_own(unsigned want, bool shared)
{
	return (want & PCI_WANT_SELF) || ((want & PCI_WANT_SELF_SHARED) && shared);
}

static int libpci_scan(struct pci_backend *b, struct pci_inventory *ret)
{
	_cleanup_(freep) struct dev_entry *ents = NULL;
	_cleanup_(freep) int *parent = NULL;
	_cleanup_(freep) bool *below = NULL; /* below it, a function wants the bridges above */
	_cleanup_(freep) bool *shared = NULL;
	struct pci_inventory inv = {};
	size_t n = 0;
	int r;

	r = list_entries(b, &ents, &n);
	if (r < 0)
		return r;
	qsort(ents, n, sizeof(*ents), cmp_entry);
	free(b->slots);
	b->n_slots = 0;
	b->slots = calloc(n ? n : 1, sizeof(*b->slots));
	inv.devs = calloc(n ? n : 1, sizeof(*inv.devs));
	parent = calloc(n ? n : 1, sizeof(*parent));
	below = calloc(n ? n : 1, sizeof(*below));
	if (!inv.devs || !b->slots || !parent || !below) {
		free(inv.devs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct dev_entry key = {};
		const struct dev_entry *p = NULL;

		if (ents[i].parent[0]) {
			memcpy(key.addr, ents[i].parent, sizeof(key.addr));
			p = bsearch(&key, ents, n, sizeof(*ents), cmp_entry);
		}
		parent[i] = p ? (int)(p - ents) : -1;
	}
	shared = shared_functions(ents, parent, n);
	if (!shared) {
		free(inv.devs);
		return -ENOMEM;
	}
	/*
	 * Last address first: a bridge's secondary bus numbers above its own, so its
	 * functions are read before it and pcib_scan_caps() knows whether it is on the path
	 * of a function it loads (the bridge is then loaded too). Any other order only costs
	 * pcib_load_caps() a second open later.
	 */
	for (size_t i = n; i-- > 0;) {
		unsigned want;

		r = scan_one(b, &ents[i], &b->slots[i], &inv.devs[i]);
		if (r < 0) {
			free(inv.devs);
			return r;
		}
		want = b->want_caps ? b->want_caps(&inv.devs[i], b->want_ud) : 0;
		/* Now, while libpci still has this function's config open (it caches one fd). */
		if ((below[i] || wants_own(want, shared[i])) && !inv.devs[i].caps_loaded)
			r = load_caps(b, &b->slots[i], &inv.devs[i]);
		if (r < 0) {
			free(inv.devs);
			return r;
		}
		if ((below[i] || (want & PCI_WANT_ABOVE)) && parent[i] >= 0)
			below[parent[i]] = true;
	}
	b->n_slots = n;
	inv.n = n;
	for (size_t i = 0; i < n; i++)
		inv.devs[i].parent = parent[i];
	if (pci_dir_cache_new(&inv) < 0) {
		free(inv.devs);
		return -ENOMEM;
	}
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

int pcib_scan_caps(struct pci_backend *b, struct pci_inventory *ret,
		   unsigned (*want)(const struct pci_dev_info *info, void *ud), void *ud)
{
	int r;

	b->want_caps = want;
	b->want_ud = ud;
	r = pcib_scan(b, ret);
	b->want_caps = NULL;
	b->want_ud = NULL;
	return r;
}

int pcib_read16(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret)
{
	return b->ops->read_word(b, addr, off, ret);
}

int pcib_write16(struct pci_backend *b, const char *addr, unsigned off, uint16_t val)
{
	return b->ops->write_word(b, addr, off, val);
}

int pcib_load_caps(struct pci_backend *b, struct pci_inventory *inv, size_t i)
{
	struct pci_dev_info *info;

	if (i >= inv->n)
		return -ENOENT;
	info = &inv->devs[i];
	if (info->caps_loaded)
		return 0;
	/* The slots belong to this backend's last scan; inv must be that scan's. */
	if (inv->n != b->n_slots || b->slots[i].domain != info->id.domain ||
	    b->slots[i].bus != info->id.bus || b->slots[i].dev != info->id.dev ||
	    b->slots[i].func != info->id.func)
		return -ESTALE;
	return load_caps(b, &b->slots[i], info);
}

int pcib_ext_cap_id_at(struct pci_backend *b, const char *addr, unsigned off, uint16_t *ret)
{
	if (off < 0x100)
		return -EINVAL;
	return pcib_read16(b, addr, off, ret);
}

/* capget(2) directly: the effective set is all we need, libcap is not worth a dependency. */
static bool has_cap_sys_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &h, d) < 0)
		return true; /* cannot tell: do not blame the capability */
	return d[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective & CAP_TO_MASK(CAP_SYS_ADMIN);
}

/* The command layer's fact (cli_set_privilege()): this layer never asks the kernel. */
static bool privileged;

void pci_set_privileged(bool p)
{
	privileged = p;
}

static enum pci_limited_cause limited_cause_read(void)
{
	if (!privileged)
		return PCI_LIMITED_NOT_ROOT;
	if (!has_cap_sys_admin())
		return PCI_LIMITED_NO_SYS_ADMIN;
	return PCI_LIMITED_DEVICE;
}

/*
 * Asked once per unreadable port by acs, topology and their texts: the process's
 * credentials do not change during a run, so the privilege and capget() are read once.
 */
enum pci_limited_cause pci_limited_cause(void)
{
	static int cause = -1;

	if (cause < 0)
		cause = limited_cause_read();
	return cause;
}

const struct pci_limited_text *pci_limited_text(enum pci_limited_cause c)
{
	static const struct pci_limited_text texts[] = {
		[PCI_LIMITED_NOT_ROOT] = {
			.why = "needs CAP_SYS_ADMIN: not root",
			.actual = "cannot tell: config space past 64 bytes needs root (CAP_SYS_ADMIN)",
			.remedy = "run as root",
		},
		[PCI_LIMITED_NO_SYS_ADMIN] = {
			.why = "needs CAP_SYS_ADMIN: uid 0 without it, a container?",
			.actual = "cannot tell: config space past 64 bytes needs CAP_SYS_ADMIN: uid 0 "
				  "but CAP_SYS_ADMIN is not in the effective capability set (a "
				  "container without SYS_ADMIN?)",
			.remedy = "run with CAP_SYS_ADMIN (container: --cap-add SYS_ADMIN; systemd: "
				  "keep it in CapabilityBoundingSet=)",
		},
		[PCI_LIMITED_DEVICE] = {
			.why = "the kernel exposes only 64 bytes",
			.actual = "cannot tell: the kernel exposes only 64 bytes of config space, even "
				  "with CAP_SYS_ADMIN (a conventional PCI device or a broken device)",
			.remedy = "check the port with lspci -vv and dmesg: a PCIe port has 4096 bytes "
				  "of config space",
		},
	};

	return &texts[c < ARRAY_SIZE(texts) ? c : PCI_LIMITED_NOT_ROOT];
}

const struct pci_limited_text *pci_no_ext_text(void)
{
	static const struct pci_limited_text t = {
		.why = "no extended config space",
		.actual = "cannot tell: no extended config space (pci=nommconf, no ECAM/MMCONFIG, "
			  "or the hypervisor): ACS Control cannot be read",
		.remedy = "boot without pci=nommconf, on firmware or a hypervisor that provides "
			  "ECAM/MMCONFIG (dmesg | grep -i mmconfig); a PCIe port has 4096 bytes of "
			  "config space",
	};

	return &t;
}

const struct pci_limited_text *pci_ext_broken_text(void)
{
	static const struct pci_limited_text t = {
		.why = "extended capability list unreadable",
		.actual = "cannot tell: the extended capability list cannot be read to its end (a "
			  "read failed, a capability reads all-ones, or the list loops): ACS "
			  "Control unknown",
		.remedy = "check the port with lspci -vvv and dmesg (AER, DPC, a function that "
			  "stopped answering); a reset or a reboot rereads it",
	};

	return &t;
}

const struct pci_limited_text *pci_unreadable_text(const struct pci_dev_info *d)
{
	if (d->cfg == PCI_CFG_NO_EXT)
		return pci_no_ext_text();
	if (d->cfg == PCI_CFG_EXT_BROKEN)
		return pci_ext_broken_text();
	return pci_limited_text(pci_limited_cause());
}

static const char *const pci_dev_state_table[] = {
	[PCI_DEV_OK] = "ok",
	[PCI_DEV_GONE] = "gone",
	[PCI_DEV_DEAD] = "not responding",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(pci_dev_state, enum pci_dev_state, "?");

void pci_inventory_done(struct pci_inventory *inv)
{
	pci_dir_cache_free(inv->dirs);
	free(inv->devs);
	*inv = (struct pci_inventory){};
}

static int cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct pci_dev_info *)a)->addr,
		      ((const struct pci_dev_info *)b)->addr);
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
