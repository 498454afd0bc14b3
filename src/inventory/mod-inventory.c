// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The inventory module ([Inventory]): counts what a host of this kind must have and names
 * what is missing (src/inventory/inventory-check.h). Check only; it reads at verify time,
 * after the other modules wrote (a module load may have made RDMA devices appear). The
 * GPUs and NICs are the run's topology (topo_run_endpoints(): built once per run, shared
 * with [Topology], the GPU map and [AER]), the RDMA devices and ports the run's RDMA view
 * (rdma_run_view(): one scan, shared with the [Port:*] rules): no second reader of the
 * same sysfs.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/log.h"
#include "run/run.h"
#include "core/strbuf.h"
#include "inventory/inventory-check.h"
#include "rdma/rdma-run.h"

static const char remedy_missing[] =
	"lspci -tv (where the tree stops); dmesg | grep -i -e 'link down' -e 'PCIe Bus Error' "
	"-e 'not responding'; a function that fell off the bus comes back only after a reset or "
	"a reboot; reseat or replace the card if it stays away";
static const char remedy_probe[] = "dmesg | grep %s (the probe error); lspci -vv -s %s "
				   "(Kernel driver in use, Kernel modules)";
static const char remedy_ports[] =
	"rdma link (or ibstat); a port in Polling has no cable or peer, Disabled is down by "
	"the admin or the switch; check the cable and the switch port";

struct inventory_view {
	const struct inventory_config *ic;
	const struct pci_inventory *inv;
	const struct topology *topo; /* the run's (topo_run_endpoints()) */
	struct inventory_fn *fns;    /* one per topology endpoint, same order */
	size_t n_fns;
	const struct rdma_inventory *rdma; /* the run's (rdma_run_view()), or NULL */
	enum inventory_rdma_role *roles;   /* per RDMA device: does it count */
	bool have_rdma;			   /* the RDMA class was readable */
};

static const char *kind_plural(enum topo_kind k)
{
	return k == TOPO_GPU ? "GPUs" : "NICs";
}

/* A kind takes part when some key is about it. */
static bool kind_wanted(const struct inventory_config *ic, enum topo_kind k)
{
	if (ic->n_addrs[k])
		return true;
	if (k == TOPO_GPU)
		return ic->count[INVENTORY_GPUS] >= 0;
	for (int c = INVENTORY_NICS; c < _INVENTORY_COUNT_MAX; c++)
		if (ic->count[c] >= 0)
			return true;
	return false;
}

static bool rdma_wanted(const struct inventory_config *ic)
{
	return kind_wanted(ic, TOPO_NIC);
}

static bool rdma_names(const struct rdma_inventory *rd, const char *addr)
{
	for (size_t i = 0; i < rd->n_devs; i++)
		if (rd->devs[i].pci && streq(rd->devs[i].pci, addr))
			return true;
	return false;
}

static void fn_read(const struct run *run, struct inventory_view *v, size_t e)
{
	const struct topo_endpoint *ep = &v->topo->eps[e];
	const struct pci_dev_info *d = &v->inv->devs[ep->dev];
	struct inventory_fn *f = &v->fns[e];

	*f = (struct inventory_fn){ .dev = ep->dev, .kind = ep->kind };
	f->has_rdma = v->have_rdma && rdma_names(v->rdma, d->addr);
	/* topology names a NIC by its RDMA device or netdev, else by its address */
	f->has_netdev = f->has_rdma || !streq(ep->name, d->addr);
	f->driver_err = d->state == PCI_DEV_OK ? pci_dev_driver(run->root, v->inv, ep->dev,
								f->driver, sizeof(f->driver))
					       : 0;
	f->state = inventory_fn_judge(f->kind, d->state, f->driver_err, f->has_netdev);
}

/*
 * Through the device's link to its PCI function (a VF may be missing from the bus list):
 * no link is a device without a PCI function; a link that leads nowhere is unknown. A
 * scalable function's device (its link leads below a PCI function to one that is not
 * PCI: the RDMA view's below_pci) is a second view of the PF's port, as a VF's is.
 */
static enum inventory_rdma_role rdma_role(const struct sysroot *root, const struct rdma_device *dev)
{
	const char *name = dev->name;
	_cleanup_(closep) int cls = -EBADF, dfd = -EBADF;
	struct stat st;

	cls = sysroot_openat(root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "class/infiniband/%s", name);
	if (cls < 0)
		return inventory_rdma_role(true, cls, 0);
	if (fstatat(cls, "device", &st, AT_SYMLINK_NOFOLLOW) < 0) {
		int r = errno == ENOENT ? 0 : -errno;

		return inventory_rdma_role(r < 0, r, 0);
	}
	dfd = sysroot_openat(root, SYSROOT_SYS, O_PATH | O_DIRECTORY, "class/infiniband/%s/device",
			     name);
	if (dfd < 0)
		return inventory_rdma_role(true, dfd, 0);
	if (dev->below_pci)
		return INVENTORY_RDMA_SF;
	return inventory_rdma_role(true, 0, topo_is_virtfn(dfd));
}

static int rdma_open(struct run *run, struct inventory_view *v)
{
	struct rdma_run *rr;
	int r = rdma_run_view(run, true, &rr);

	if (r == -ENOMEM)
		return r;
	v->rdma = r >= 0 ? &rr->inv : NULL;
	v->have_rdma = r >= 0 && rr->inv.err == 0;
	if (!v->have_rdma)
		return 0;
	v->roles = calloc(v->rdma->n_devs ? v->rdma->n_devs : 1, sizeof(*v->roles));
	if (!v->roles)
		return -ENOMEM;
	for (size_t i = 0; i < v->rdma->n_devs; i++)
		v->roles[i] = rdma_role(run->root, &v->rdma->devs[i]);
	return 0;
}

static int view_open(struct run *run, struct inventory_view *v)
{
	int r;

	*v = (struct inventory_view){ .ic = inventory_config_get(run->cfg), .inv = &run->pci_inv };
	if (rdma_wanted(v->ic)) {
		r = rdma_open(run, v);
		if (r < 0)
			return r;
	}
	if (run->pci_err < 0)
		return 0;
	r = topo_run_endpoints(run, &v->topo);
	if (r < 0)
		return r;
	v->fns = calloc(v->topo->n ? v->topo->n : 1, sizeof(*v->fns));
	if (!v->fns)
		return -ENOMEM;
	v->n_fns = v->topo->n;
	for (size_t e = 0; e < v->n_fns; e++)
		fn_read(run, v, e);
	return 0;
}

static void view_done(struct inventory_view *v)
{
	free(v->fns);
	free(v->roles);
}

/* ---- where the missing ones should be ---- */

static void hint_dead(const struct inventory_view *v, enum topo_kind k, struct strbuf *b)
{
	for (size_t i = 0; i < v->n_fns; i++)
		if (v->fns[i].kind == k && !inventory_fn_present(v->fns[i].state))
			strbuf_printf(b, "; %s %s", v->inv->devs[v->fns[i].dev].addr,
				      inventory_fn_state_to_string(v->fns[i].state));
}

static void hint_listed(const struct inventory_view *v, enum topo_kind k, struct strbuf *b)
{
	for (size_t i = 0; i < v->ic->n_addrs[k]; i++)
		if (!pci_inventory_find(v->inv, v->ic->addrs[k][i].addr))
			strbuf_printf(b, "; %s absent", v->ic->addrs[k][i].addr);
}

static void hint_slot(const struct run *run, const struct inventory_view *v, const char *name,
		      struct strbuf *b)
{
	_cleanup_(freep) char *addr = NULL;
	uint32_t dom;
	uint8_t bus, dev;

	if (sysroot_read_attr(run->root, SYSROOT_SYS, &addr, "bus/pci/slots/%s/address", name) <
		    0 ||
	    inventory_parse_slot_address(addr, &dom, &bus, &dev) < 0)
		return; /* a slot without a readable address says nothing about where */
	if (!inventory_slot_occupied(v->inv, dom, bus, dev))
		strbuf_printf(b, "; slot %s (%s) empty", name, addr);
}

/* Slots in name order, so the text is the same from run to run. */
static int hint_slots(const struct run *run, const struct inventory_view *v, struct strbuf *b)
{
	_cleanup_(closep) int fd = -EBADF;
	struct dirent **list = NULL;
	int n;

	fd = sysroot_openat(run->root, SYSROOT_SYS, O_RDONLY | O_DIRECTORY, "bus/pci/slots");
	if (fd == -ENOMEM)
		return fd;
	if (fd < 0)
		return 0;
	n = scandirat(fd, ".", &list, NULL, alphasort);
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.')
			hint_slot(run, v, list[i]->d_name, b);
		free(list[i]);
	}
	free(list);
	return 0;
}

/* The bus a switch port hands out (its secondary bus), or "" when sysfs does not say. */
static void port_bus(const struct run *run, const char *addr, char *buf, size_t size)
{
	_cleanup_(freep) char *line = NULL;
	char *end;
	long v;

	buf[0] = '\0';
	if (sysroot_read_attr(run->root, SYSROOT_SYS, &line,
			      "bus/pci/devices/%s/secondary_bus_number", addr) < 0)
		return;
	errno = 0;
	v = strtol(line, &end, 10);
	if (!errno && end != line && !*end && v > 0 && v <= 0xff)
		snprintf(buf, size, "bus %02lx; ", v);
}

static int hint_ports(const struct run *run, const struct inventory_view *v, enum topo_kind k,
		      struct strbuf *b)
{
	size_t n = v->inv->n ? v->inv->n : 1;
	_cleanup_(freep) bool *is_kind = calloc(n, sizeof(bool));
	_cleanup_(freep) bool *holds = calloc(n, sizeof(bool));
	_cleanup_(freep) size_t *below = calloc(n, sizeof(size_t));
	char bus[16];

	if (!is_kind || !holds || !below)
		return -ENOMEM;
	for (size_t i = 0; i < v->n_fns; i++)
		if (v->fns[i].kind == k)
			is_kind[v->fns[i].dev] = true;
	inventory_mark_tree(v->inv, is_kind, below, holds);
	for (size_t i = 0; i < v->inv->n; i++) {
		if (!inventory_empty_port(v->inv, below, holds, i))
			continue;
		port_bus(run, v->inv->devs[i].addr, bus, sizeof(bus));
		strbuf_printf(b, "; nothing below switch port %s (%sa sibling port holds %s)",
			      v->inv->devs[i].addr, bus, kind_plural(k));
	}
	return 0;
}

/* ---- results ---- */

/* "7 of 8 GPUs on the bus", or with more than asked "9 GPUs on the bus (8 expected)". */
static void count_phrase(struct strbuf *b, size_t have, int want, const char *what)
{
	if (have > (size_t)want)
		strbuf_printf(b, "%zu %s (%d expected)", have, what, want);
	else
		strbuf_printf(b, "%zu of %d %s", have, want, what);
}

static int count_result(struct run *run, const struct inventory_view *v, enum topo_kind k)
{
	enum inventory_count c = k == TOPO_GPU ? INVENTORY_GPUS : INVENTORY_NICS;
	_cleanup_(strbuf_done) struct strbuf b = {};
	int want = v->ic->count[c], r = 0;
	size_t have = 0;
	char expected[64], check[32], what[32];
	enum verdict verdict;
	_cleanup_(freep) char *actual = NULL;

	if (want < 0)
		return 0;
	for (size_t i = 0; i < v->n_fns; i++)
		have += v->fns[i].kind == k && inventory_fn_present(v->fns[i].state);
	snprintf(check, sizeof(check), "inventory.%s", k == TOPO_GPU ? "gpus" : "nics");
	snprintf(expected, sizeof(expected), "%d %s on the bus", want, kind_plural(k));
	verdict = inventory_count_verdict(want, have, 0);
	snprintf(what, sizeof(what), "%s on the bus", kind_plural(k));
	count_phrase(&b, have, want, what);
	if (verdict != VERDICT_PASS) {
		hint_dead(v, k, &b);
		hint_listed(v, k, &b);
		r = hint_slots(run, v, &b);
		if (r >= 0)
			r = hint_ports(run, v, k, &b);
	}
	if (r < 0 || strbuf_take(&b, &actual) < 0)
		return -ENOMEM;
	return results_add(&run->results,
			   &(const struct result_spec){
				   .verdict = verdict,
				   .check = check,
				   .object = "host",
				   .expected = expected,
				   .actual = actual,
				   .remedy = verdict == VERDICT_PASS ? NULL : remedy_missing,
				   .action = ACTION_HARDWARE,
			   });
}

static int address_result(struct run *run, const struct inventory_view *v, enum topo_kind k,
			  const char *addr)
{
	const struct pci_dev_info *d = pci_inventory_find(v->inv, addr);
	char expected[64];
	int kind;

	snprintf(expected, sizeof(expected), "a %s at this address", k == TOPO_GPU ? "GPU" : "NIC");
	if (!d)
		return results_add(&run->results,
				   &(const struct result_spec){
					   .verdict = VERDICT_FAIL,
					   .check = "inventory.address",
					   .object = addr,
					   .expected = expected,
					   .actual = "absent: no PCI function at this address",
					   .remedy = remedy_missing,
					   .action = ACTION_HARDWARE,
				   });
	if (d->state != PCI_DEV_OK)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "inventory.address",
					    .object = addr,
					    .expected = expected,
					    .remedy = remedy_missing,
					    .action = ACTION_HARDWARE,
				    },
				    "%s",
				    d->state == PCI_DEV_DEAD
					    ? "not responding (config space reads all-ones)"
					    : "unreadable config space");
	kind = topo_classify_at(run->root, topo_config_get(run->cfg), v->inv,
				(size_t)(d - v->inv->devs));
	if (kind == -ENOMEM)
		return kind;
	if (kind != (int)k) /* the topology's judgement, evidence included */
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "inventory.address",
					    .object = addr,
					    .expected = expected,
					    .action = ACTION_HARDWARE,
				    },
				    "not a %s (%04x:%04x class %06x)",
				    k == TOPO_GPU ? "GPU" : "NIC", d->id.vendor, d->id.device,
				    d->id.class_code);
	return results_add(&run->results, &(const struct result_spec){
						  .verdict = VERDICT_PASS,
						  .check = "inventory.address",
						  .object = addr,
						  .expected = expected,
						  .actual = "present",
					  });
}

static int probe_result(struct run *run, const struct inventory_view *v,
			const struct inventory_fn *f)
{
	const char *addr = v->inv->devs[f->dev].addr;
	char remedy[256];

	snprintf(remedy, sizeof(remedy), remedy_probe, addr, addr);
	switch (f->state) {
	case INVENTORY_FN_NO_DRIVER:
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_FAIL,
							  .check = "inventory.probe",
							  .object = addr,
							  .expected = "a driver bound",
							  .actual = "no driver bound",
							  .remedy = remedy,
							  .action = ACTION_DRIVER,
						  });
	case INVENTORY_FN_NO_DEVICE:
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = "inventory.probe",
					    .object = addr,
					    .expected = "an RDMA device or netdev",
					    .remedy = remedy,
					    .action = ACTION_DRIVER,
				    },
				    "%s bound, but no RDMA device and no netdev (a failed probe?)",
				    f->driver);
	case INVENTORY_FN_UNKNOWN:
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "inventory.probe",
					    .object = addr,
					    .expected = "a driver bound",
					    .action = ACTION_INSPECT,
				    },
				    "driver link unreadable: %s", strerror(-f->driver_err));
	default:
		return 0; /* present and bound, or not on the bus: the count says so */
	}
}

static int pci_results(struct run *run, const struct inventory_view *v)
{
	int r = 0;

	if (!kind_wanted(v->ic, TOPO_GPU) && !kind_wanted(v->ic, TOPO_NIC))
		return 0;
	if (run->pci_err < 0)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "inventory.pci",
					    .object = "host",
					    .expected = "readable PCI devices",
					    .action = ACTION_INSPECT,
				    },
				    "cannot enumerate PCI devices: %s", strerror(-run->pci_err));
	for (int k = TOPO_GPU; r >= 0 && k <= TOPO_NIC; k++) {
		r = count_result(run, v, k);
		for (size_t i = 0; r >= 0 && i < v->ic->n_addrs[k]; i++)
			r = address_result(run, v, k, v->ic->addrs[k][i].addr);
	}
	for (size_t i = 0; r >= 0 && i < v->n_fns; i++)
		if (kind_wanted(v->ic, v->fns[i].kind))
			r = probe_result(run, v, &v->fns[i]);
	return r;
}

/*
 * The NIC functions that should have an RDMA device and have none: not responding, no
 * driver, or a driver that gave other functions of the same part an RDMA device.
 */
static void hint_rdma(const struct inventory_view *v, struct strbuf *b)
{
	for (size_t i = 0; i < v->n_fns; i++) {
		const struct inventory_fn *f = &v->fns[i];
		const struct pci_dev_info *d = &v->inv->devs[f->dev];
		bool sibling = false;

		if (f->kind != TOPO_NIC || f->has_rdma)
			continue;
		for (size_t j = 0; j < v->n_fns; j++)
			sibling |= v->fns[j].has_rdma &&
				   v->inv->devs[v->fns[j].dev].id.vendor == d->id.vendor &&
				   v->inv->devs[v->fns[j].dev].id.device == d->id.device;
		if (f->state != INVENTORY_FN_OK)
			strbuf_printf(b, "; %s %s", d->addr,
				      inventory_fn_state_to_string(f->state));
		else if (sibling)
			strbuf_printf(b, "; %s (%s) has no RDMA device", d->addr, f->driver);
	}
}

static int rdma_count_result(struct run *run, const struct inventory_view *v)
{
	_cleanup_(strbuf_done) struct strbuf b = {};
	_cleanup_(freep) char *actual = NULL;
	int want = v->ic->count[INVENTORY_RDMA];
	size_t n[_INVENTORY_RDMA_ROLE_MAX] = {};
	char expected[64];
	enum verdict verdict;

	if (want < 0)
		return 0;
	for (size_t i = 0; i < v->rdma->n_devs; i++)
		n[v->roles[i]]++;
	snprintf(expected, sizeof(expected), "%d RDMA devices", want);
	verdict =
		inventory_count_verdict(want, n[INVENTORY_RDMA_COUNTED], n[INVENTORY_RDMA_UNKNOWN]);
	count_phrase(&b, n[INVENTORY_RDMA_COUNTED], want, "RDMA devices");
	if (n[INVENTORY_RDMA_VF])
		strbuf_printf(&b, " (and %zu of SR-IOV virtual functions, not counted)",
			      n[INVENTORY_RDMA_VF]);
	if (n[INVENTORY_RDMA_SF])
		strbuf_printf(&b, " (and %zu of scalable functions, not counted)",
			      n[INVENTORY_RDMA_SF]);
	if (verdict != VERDICT_PASS && n[INVENTORY_RDMA_UNKNOWN])
		strbuf_printf(&b, "; %zu whose PCI function cannot be read",
			      n[INVENTORY_RDMA_UNKNOWN]);
	if (verdict != VERDICT_PASS)
		hint_rdma(v, &b);
	if (strbuf_take(&b, &actual) < 0)
		return -ENOMEM;
	return results_add(
		&run->results,
		&(const struct result_spec){
			.verdict = verdict,
			.check = "inventory.rdma",
			.object = "host",
			.expected = expected,
			.actual = actual,
			.remedy = verdict == VERDICT_PASS
					  ? NULL
					  : "rdma dev; lsmod | grep _ib (the RDMA driver of the "
					    "NIC: mlx5_ib, irdma, bnxt_re...); dmesg",
			.action = ACTION_DRIVER,
		});
}

static int ports_result(struct run *run, const struct inventory_view *v, enum inventory_count c)
{
	enum rdma_link_layer ll = c == INVENTORY_PORTS_IB ? RDMA_LL_INFINIBAND : RDMA_LL_ETHERNET;
	_cleanup_(strbuf_done) struct strbuf b = {}, down = {};
	_cleanup_(freep) char *actual = NULL;
	struct inventory_ports t;
	int want = v->ic->count[c];
	char expected[64], what[48];
	enum verdict verdict;

	if (want < 0)
		return 0;
	inventory_ports_tally(v->rdma, v->roles, ll, &t, &down);
	snprintf(expected, sizeof(expected), "%d active %s port%s", want, inventory_count_name(c),
		 want == 1 ? "" : "s");
	verdict = inventory_count_verdict(want, t.active, t.unreadable);
	snprintf(what, sizeof(what), "%s ports active", inventory_count_name(c));
	count_phrase(&b, t.active, want, what);
	if (verdict != VERDICT_PASS && t.unreadable)
		strbuf_printf(&b, "; %zu port(s) unreadable", t.unreadable);
	if (verdict != VERDICT_PASS && down.s)
		strbuf_printf(&b, "%s", down.s);
	if (down.oom || strbuf_take(&b, &actual) < 0)
		return -ENOMEM;
	return results_add(&run->results,
			   &(const struct result_spec){
				   .verdict = verdict,
				   .check = "inventory.ports",
				   .object = inventory_count_name(c),
				   .expected = expected,
				   .actual = actual,
				   .remedy = verdict == VERDICT_PASS ? NULL : remedy_ports,
				   .action = ACTION_HARDWARE,
			   });
}

static int rdma_results(struct run *run, const struct inventory_view *v)
{
	bool any = false;
	int r = 0;

	for (int c = INVENTORY_RDMA; c < _INVENTORY_COUNT_MAX; c++)
		any |= v->ic->count[c] >= 0;
	if (!any)
		return 0;
	if (!v->have_rdma)
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_UNKNOWN,
							  .check = "inventory.rdma",
							  .object = "host",
							  .expected = "a readable RDMA class",
							  .actual = "the RDMA class cannot be read",
							  .action = ACTION_INSPECT,
						  });
	r = rdma_count_result(run, v);
	if (r >= 0)
		r = ports_result(run, v, INVENTORY_PORTS_IB);
	if (r >= 0)
		r = ports_result(run, v, INVENTORY_PORTS_ETH);
	return r;
}

static bool inventory_wants_pci(const struct run *run)
{
	return inventory_config_get(run->cfg); /* no [Inventory]: nothing read or reported */
}

/* The run's PCI inventory at verify time: after an apply, the one read again. */
static int inventory_verify(struct run *run)
{
	struct inventory_view v;
	int r;

	if (!inventory_wants_pci(run))
		return 0;
	r = view_open(run, &v);
	if (r >= 0)
		r = pci_results(run, &v);
	if (r >= 0)
		r = rdma_results(run, &v);
	view_done(&v);
	return r;
}

/* The topology's classification reads the candidates' capabilities (topo_wants_caps()). */
static unsigned inventory_pci_wants_caps(const struct run *run, const struct pci_dev_info *info)
{
	return topo_wants_caps(info, (void *)topo_config_get(run->cfg));
}

const struct run_module run_module_inventory = {
	.name = "inventory",
	.wants_pci = inventory_wants_pci,
	.pci_wants_caps = inventory_pci_wants_caps,
	.verify = inventory_verify,
};
