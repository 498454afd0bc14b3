// SPDX-License-Identifier: GPL-2.0-or-later
/* [Inventory]: the judgement, pure (see inventory-check.h). */

#include "inventory/inventory-check.h"
#include "rdma/rdma-check.h"
#include "core/string-table.h"

enum inventory_fn_state inventory_fn_judge(enum topo_kind kind, enum pci_dev_state dev_state,
					   int driver_err, bool has_device)
{
	if (dev_state == PCI_DEV_DEAD)
		return INVENTORY_FN_NOT_RESPONDING;
	if (dev_state == PCI_DEV_GONE)
		return INVENTORY_FN_GONE;
	if (driver_err == -ENOENT)
		return INVENTORY_FN_NO_DRIVER;
	if (driver_err < 0)
		return INVENTORY_FN_UNKNOWN;
	if (kind == TOPO_NIC && !has_device)
		return INVENTORY_FN_NO_DEVICE;
	return INVENTORY_FN_OK;
}

bool inventory_fn_present(enum inventory_fn_state s)
{
	return s != INVENTORY_FN_NOT_RESPONDING && s != INVENTORY_FN_GONE;
}

static const char *const inventory_fn_state_table[] = {
	[INVENTORY_FN_OK] = "present, driver bound",
	[INVENTORY_FN_NO_DRIVER] = "no driver bound",
	[INVENTORY_FN_NO_DEVICE] = "no RDMA device or netdev",
	[INVENTORY_FN_NOT_RESPONDING] = "not responding",
	[INVENTORY_FN_GONE] = "unreadable",
	[INVENTORY_FN_UNKNOWN] = "driver unknown",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING_FALLBACK(inventory_fn_state, enum inventory_fn_state, "?");

enum verdict inventory_count_verdict(int expected, size_t have, size_t unreadable)
{
	if (expected < 0 || have >= (size_t)expected)
		return VERDICT_PASS;
	if (have + unreadable >= (size_t)expected)
		return VERDICT_UNKNOWN;
	return VERDICT_FAIL;
}

static int hex_field(const char *s, size_t len, unsigned long max, unsigned long *ret)
{
	unsigned long v = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;

		if (d < 0)
			return -EINVAL;
		v = v * 16 + (unsigned long)d;
	}
	if (len == 0 || v > max)
		return -EINVAL;
	*ret = v;
	return 0;
}

/* The kernel prints "%04x:%02x:%02x" (pci_slot's address attribute); VMD domains have 5 digits. */
int inventory_parse_slot_address(const char *s, uint32_t *domain, uint8_t *bus, uint8_t *dev)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	unsigned long d, b, v;

	if (!c1 || !c2 || strchr(c2 + 1, ':') || c1 - s < 4 || c1 - s > 5 || c2 - c1 != 3 ||
	    strlen(c2 + 1) != 2)
		return -EINVAL;
	if (hex_field(s, (size_t)(c1 - s), 0xfffff, &d) < 0 || hex_field(c1 + 1, 2, 0xff, &b) < 0 ||
	    hex_field(c2 + 1, 2, 0x1f, &v) < 0)
		return -EINVAL;
	*domain = (uint32_t)d, *bus = (uint8_t)b, *dev = (uint8_t)v;
	return 0;
}

bool inventory_slot_occupied(const struct pci_inventory *inv, uint32_t domain, uint8_t bus,
			     uint8_t dev)
{
	char prefix[PCI_ADDR_LEN];
	int n = snprintf(prefix, sizeof(prefix), "%04x:%02x:%02x.", domain, bus, dev);

	for (size_t i = 0; i < inv->n; i++)
		if (strncmp(inv->devs[i].addr, prefix, (size_t)n) == 0)
			return true;
	return false;
}

static bool is_bridge(const struct pci_dev_info *d)
{
	return d->id.class_code >> 8 == 0x0604;
}

void inventory_mark_tree(const struct pci_inventory *inv, const bool *is_kind, size_t *below,
			 bool *holds)
{
	memset(below, 0, inv->n * sizeof(*below));
	memset(holds, 0, inv->n * sizeof(*holds));
	for (size_t k = 0; k < inv->n; k++) {
		int p = inv->devs[k].parent;

		if (p >= 0 && (size_t)p < inv->n)
			below[p]++;
		if (!is_kind[k])
			continue;
		/* bounded like any walk up the tree (a parent loop in a broken tree) */
		p = (int)k;
		for (size_t depth = 0; p >= 0 && (size_t)p < inv->n && depth < 64; depth++) {
			holds[p] = true;
			p = inv->devs[p].parent;
		}
	}
}

bool inventory_empty_port(const struct pci_inventory *inv, const size_t *below, const bool *holds,
			  size_t i)
{
	const struct pci_dev_info *d = &inv->devs[i];
	int parent = d->parent;

	if (!is_bridge(d) || below[i] || parent < 0 || !is_bridge(&inv->devs[parent]))
		return false;
	/* the sibling ports: the other bridges with the same parent */
	for (size_t s = 0; s < inv->n; s++)
		if (s != i && inv->devs[s].parent == parent && is_bridge(&inv->devs[s]) && holds[s])
			return true;
	return false;
}

enum inventory_rdma_role inventory_rdma_role(bool has_link, int link_err, int is_vf)
{
	if (!has_link && link_err == 0)
		return INVENTORY_RDMA_COUNTED; /* no PCI function: a device of its own */
	if (link_err < 0 || is_vf < 0)
		return INVENTORY_RDMA_UNKNOWN;
	return is_vf ? INVENTORY_RDMA_VF : INVENTORY_RDMA_COUNTED;
}

static void tally_port(const struct rdma_device *dev, const struct rdma_port *port,
		       enum inventory_rdma_role role, enum rdma_link_layer ll,
		       struct inventory_ports *ret, struct strbuf *down)
{
	if (port->err || port->link_layer == RDMA_LL_UNKNOWN) {
		ret->unreadable++;
		return;
	}
	if (port->link_layer != ll)
		return;
	switch (rdma_port_judge(dev, port)) {
	case RDMA_PORT_JUDGED_UP:
		*(role == INVENTORY_RDMA_COUNTED ? &ret->active : &ret->unreadable) += 1;
		break;
	case RDMA_PORT_JUDGED_UNREAD:
		ret->unreadable++;
		break;
	case RDMA_PORT_JUDGED_DOWN:
		strbuf_printf(down, "; %s/%u %s (%s)", dev->name, port->num,
			      rdma_port_state_to_string(port->state),
			      rdma_phys_state_to_string(port->phys_state));
		break;
	}
}

void inventory_ports_tally(const struct rdma_inventory *rd, const enum inventory_rdma_role *role,
			   enum rdma_link_layer ll, struct inventory_ports *ret,
			   struct strbuf *down)
{
	*ret = (struct inventory_ports){};
	for (size_t i = 0; i < rd->n_devs; i++) {
		const struct rdma_device *dev = &rd->devs[i];
		enum inventory_rdma_role r = role ? role[i] : INVENTORY_RDMA_COUNTED;

		if (r == INVENTORY_RDMA_VF || r == INVENTORY_RDMA_SF)
			continue;
		if (dev->err) { /* its ports unknown: one that could be up */
			ret->unreadable++;
			continue;
		}
		for (size_t p = 0; p < dev->n_ports; p++)
			tally_port(dev, &dev->ports[p], r, ll, ret, down);
	}
}
