// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `hostprep rdma`: one row per port with what people otherwise join by hand from
 * ibdev2netdev, ibstat and /proc/net/bonding. Text and JSON from one walk over the
 * inventory, each field named once (core/emit.h): the text is a table, a row per port with
 * its device's cells repeated; the JSON nests the ports (and their GIDs) in the devices.
 */
#include "core/emit.h"
#include "rdma/rdma-check.h"

/* The bond a port's traffic goes through: its netdev's master, or the netdev itself when
 * the RDMA device sits on the bond (RoCE LAG: mlx5_bond_0 on bond0). */
static const char *rdma_port_bond(const struct rdma_port *p)
{
	return p->bond ? p->bond : p->netdev_is_bond ? p->netdev : NULL;
}

/* The text columns and the field that fills each. */
static const struct emit_column columns[] = {
	{ "DEVICE", "name" },	  { "PORT", "port" },	     { "STATE", "state" },
	{ "RATE", "rate" },	  { "LAYER", "link_layer" }, { "MTU", "active_mtu" },
	{ "NETDEV", "netdev" },	  { "BOND", "bond" },	     { "PCI", "pci" },
	{ "FIRMWARE", "fw_ver" }, { "BOARD", "board_id" },   { "SOURCE", "source" },
};

/*
 * An IP only for a RoCE GID (Ethernet, type known): an IB GID is a subnet prefix and a
 * GUID, an iWARP/erdma standard-mode GID a MAC; neither is an address.
 */
static bool gid_is_ip(const struct rdma_port *p, const struct rdma_gid *g)
{
	return p->link_layer == RDMA_LL_ETHERNET && !g->type_err && rdma_gid_has_ip(g->raw);
}

/* JSON only: the table does not show GIDs. */
static void gid_emit(struct emit *e, const struct rdma_port *p, const struct rdma_gid *g)
{
	char text[RDMA_GID_TEXT_MAX], ip[RDMA_GID_IP_MAX];

	for (int i = 0; i < 8; i++)
		snprintf(text + i * 5, sizeof(text) - (size_t)i * 5, "%02x%02x%s", g->raw[2 * i],
			 g->raw[2 * i + 1], i < 7 ? ":" : "");
	emit_open_object(e, NULL);
	emit_uint(e, EMIT_JSON, "index", NULL, g->index);
	emit_string(e, EMIT_JSON, "gid", NULL, text);
	emit_string(e, EMIT_JSON, "type", NULL,
		    g->type_err ? NULL : rdma_gid_type_to_string(g->type));
	emit_string(e, EMIT_JSON, "ndev", NULL, g->ndev[0] ? g->ndev : NULL);
	if (gid_is_ip(p, g))
		rdma_gid_format_ip(g->raw, ip);
	emit_string(e, EMIT_JSON, "ip", NULL, gid_is_ip(p, g) ? ip : NULL);
	emit_close_object(e);
}

/* The members of a port's object, and its cells. */
static void port_emit(struct emit *e, const struct rdma_port *p)
{
	char rate[64];

	emit_uint(e, EMIT_ANY, "port", "%u", p->num);
	emit_string(e, EMIT_JSON, "error", NULL, p->err ? strerror(-p->err) : NULL);
	if (p->err)
		return emit_cellf(e, "state", "unknown (%s: %s)", p->err_what, strerror(-p->err));
	emit_string(e, EMIT_JSON, "state", NULL, rdma_port_state_to_string(p->state));
	emit_string(e, EMIT_JSON, "phys_state", NULL, rdma_phys_state_to_string(p->phys_state));
	emit_cellf(e, "state", "%s%s%s", rdma_port_state_to_string(p->state),
		   p->phys_state ? "/" : "",
		   p->phys_state ? rdma_phys_state_to_string(p->phys_state) : "");
	rdma_rate_format(&p->rate, rate, sizeof(rate));
	if (p->rate_err)
		emit_null(e, EMIT_ANY, "rate", "%s", "unknown");
	else
		emit_string(e, EMIT_ANY, "rate", "%s", rate);
	emit_uint(e, EMIT_JSON, "rate_mbps", NULL, p->rate.mbps);
	emit_uint(e, EMIT_JSON, "width", NULL, p->rate.width);
	emit_string(e, EMIT_ANY, "link_layer", "%s", rdma_link_layer_to_string(p->link_layer));
	if (p->active_mtu)
		emit_uint(e, EMIT_ANY, "active_mtu", "%u", p->active_mtu);
	else
		emit_null(e, EMIT_ANY, "active_mtu", "%s", "-");
	emit_string(e, EMIT_ANY, "netdev", p->netdev && !p->netdev_up ? "%s (down)" : "%s",
		    p->netdev);
	emit_string(e, EMIT_JSON, "netdev_via", NULL, p->netdev_via);
	emit_bool(e, EMIT_JSON, "netdev_up", NULL, p->netdev_up);
	emit_string(e, EMIT_ANY, "bond", "%s", rdma_port_bond(p));
	emit_open_array(e, "gids");
	for (size_t i = 0; i < p->n_gids; i++)
		gid_emit(e, p, &p->gids[i]);
	emit_close_array(e);
}

/* A device's object with its ports; in text a row per port, or one row without ports. */
static void device_emit(struct emit *e, const struct rdma_device *d)
{
	char guid[20], ids[10];

	snprintf(guid, sizeof(guid), "%02x%02x:%02x%02x:%02x%02x:%02x%02x", d->node_guid[0],
		 d->node_guid[1], d->node_guid[2], d->node_guid[3], d->node_guid[4],
		 d->node_guid[5], d->node_guid[6], d->node_guid[7]);
	snprintf(ids, sizeof(ids), "%04x:%04x", d->vendor, d->device);
	emit_open_object(e, NULL);
	emit_string(e, EMIT_ANY, "name", "%s", d->name);
	emit_string(e, EMIT_JSON, "error", NULL, d->err ? strerror(-d->err) : NULL);
	if (d->err) /* its ports were not read: it has none */
		emit_cellf(e, "state", "unknown (%s)", strerror(-d->err));
	emit_string(e, EMIT_ANY, "source", "%s", rdma_source_to_string(d->source));
	emit_string(e, EMIT_JSON, "source_note", NULL, d->source_note);
	emit_string(e, EMIT_JSON, "node_type", NULL, rdma_node_type_to_string(d->node_type));
	emit_string(e, EMIT_JSON, "node_guid", NULL, d->have_guid ? guid : NULL);
	emit_string(e, EMIT_ANY, "pci", "%s", d->pci);
	emit_string(e, EMIT_JSON, "pci_id", NULL, d->have_ids ? ids : NULL);
	emit_string(e, EMIT_ANY, "fw_ver", "%s", d->fw_ver);
	emit_string(e, EMIT_ANY, "board_id", "%s", d->board_id);
	emit_open_array(e, "ports");
	for (size_t k = 0; k < d->n_ports; k++) {
		emit_open_object(e, NULL);
		port_emit(e, &d->ports[k]);
		emit_table_row(e);
		emit_close_object(e);
	}
	emit_close_array(e);
	if (!d->n_ports)
		emit_table_row(e);
	emit_close_object(e);
}

static void table_emit(const struct rdma_inventory *inv, struct emit *e)
{
	emit_string(e, inv->err ? EMIT_ANY : EMIT_JSON, "error", "RDMA devices unreadable: %s\n",
		    inv->err ? strerror(-inv->err) : NULL);
	if (!inv->err && !inv->n_devs)
		emit_textf(e, "No RDMA devices.\n");
	emit_table_open(e, "devices", columns, ARRAY_SIZE(columns));
	for (size_t i = 0; i < inv->n_devs; i++)
		device_emit(e, &inv->devs[i]);
	emit_table_close(e);
}

int rdma_table_print(const struct rdma_inventory *inv, FILE *f)
{
	struct emit e;

	emit_init_text(&e, f);
	table_emit(inv, &e);
	return emit_done(&e);
}

struct json_object *rdma_table_json(const struct rdma_inventory *inv)
{
	struct json_object *doc;
	struct emit e;

	if (emit_init_json(&e) < 0)
		return NULL;
	table_emit(inv, &e);
	doc = emit_take_json(&e);
	emit_done(&e);
	return doc;
}
