// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `hostprep rdma`: one row per port with what people otherwise join by hand from
 * ibdev2netdev, ibstat and /proc/net/bonding. Text and JSON from the same inventory.
 */
#include "rdma/rdma-check.h"

/* The bond a port's traffic goes through: its netdev's master, or the netdev itself when
 * the RDMA device sits on the bond (RoCE LAG: mlx5_bond_0 on bond0). */
static const char *rdma_port_bond(const struct rdma_port *p)
{
	return p->bond ? p->bond : p->netdev_is_bond ? p->netdev : NULL;
}

enum {
	C_DEV,
	C_PORT,
	C_STATE,
	C_RATE,
	C_LAYER,
	C_MTU,
	C_NETDEV,
	C_BOND,
	C_PCI,
	C_FW,
	C_BOARD,
	C_SRC,
	_C_MAX
};

static const char *const titles[_C_MAX] = {
	"DEVICE", "PORT", "STATE", "RATE",     "LAYER", "MTU",
	"NETDEV", "BOND", "PCI",   "FIRMWARE", "BOARD", "SOURCE"
};

struct row {
	char cell[_C_MAX][96];
};

/* A name from the host, escaped as docs/CONTRACT.md says (any byte but '/' may be in it). */
static void cell_name(char *cell, size_t size, const char *name, const char *suffix)
{
	_cleanup_(freep) char *buf = NULL;
	const char *e = text_terminal_safe(name, &buf);

	snprintf(cell, size, "%s%s", e ? e : "?", suffix);
}

static void fill_port(const struct rdma_device *d, const struct rdma_port *p, struct row *w)
{
	snprintf(w->cell[C_PORT], sizeof(w->cell[0]), "%u", p->num);
	if (p->err) {
		snprintf(w->cell[C_STATE], sizeof(w->cell[0]), "unknown (%s: %s)", p->err_what,
			 strerror(-p->err));
		return;
	}
	snprintf(w->cell[C_STATE], sizeof(w->cell[0]), "%s%s%s",
		 rdma_port_state_to_string(p->state), p->phys_state ? "/" : "",
		 p->phys_state ? rdma_phys_state_to_string(p->phys_state) : "");
	if (p->rate_err)
		snprintf(w->cell[C_RATE], sizeof(w->cell[0]), "unknown");
	else
		rdma_rate_format(&p->rate, w->cell[C_RATE], sizeof(w->cell[0]));
	snprintf(w->cell[C_LAYER], sizeof(w->cell[0]), "%s",
		 rdma_link_layer_to_string(p->link_layer));
	if (p->active_mtu)
		snprintf(w->cell[C_MTU], sizeof(w->cell[0]), "%u", p->active_mtu);
	if (p->netdev)
		cell_name(w->cell[C_NETDEV], sizeof(w->cell[0]), p->netdev,
			  p->netdev_up ? "" : " (down)");
	if (rdma_port_bond(p))
		cell_name(w->cell[C_BOND], sizeof(w->cell[0]), rdma_port_bond(p), "");
}

static void fill_row(const struct rdma_device *d, const struct rdma_port *p, struct row *w)
{
	for (int c = 0; c < _C_MAX; c++)
		snprintf(w->cell[c], sizeof(w->cell[0]), "-");
	cell_name(w->cell[C_DEV], sizeof(w->cell[0]), d->name, "");
	snprintf(w->cell[C_PCI], sizeof(w->cell[0]), "%s", d->pci ? d->pci : "-");
	if (d->fw_ver)
		cell_name(w->cell[C_FW], sizeof(w->cell[0]), d->fw_ver, "");
	if (d->board_id)
		cell_name(w->cell[C_BOARD], sizeof(w->cell[0]), d->board_id, "");
	snprintf(w->cell[C_SRC], sizeof(w->cell[0]), "%s", rdma_source_to_string(d->source));
	if (d->err)
		snprintf(w->cell[C_STATE], sizeof(w->cell[0]), "unknown (%s)", strerror(-d->err));
	else if (p)
		fill_port(d, p, w);
}

static size_t collect(const struct rdma_inventory *inv, struct row *rows)
{
	size_t n = 0;

	for (size_t i = 0; i < inv->n_devs; i++) {
		const struct rdma_device *d = &inv->devs[i];

		if (d->err || !d->n_ports)
			fill_row(d, NULL, &rows[n++]);
		for (size_t k = 0; !d->err && k < d->n_ports; k++)
			fill_row(d, &d->ports[k], &rows[n++]);
	}
	return n;
}

static void print_row(FILE *f, const char *const *cells, const size_t *width)
{
	for (int c = 0; c < _C_MAX; c++) {
		if (c == _C_MAX - 1)
			fprintf(f, "%s\n", cells[c]);
		else
			fprintf(f, "%-*s  ", (int)width[c], cells[c]);
	}
}

int rdma_table_print(const struct rdma_inventory *inv, FILE *f)
{
	size_t rows_max = 0, n, width[_C_MAX];
	_cleanup_(freep) struct row *rows = NULL;

	if (inv->err) {
		fprintf(f, "RDMA devices unreadable: %s\n", strerror(-inv->err));
		return 0;
	}
	if (!inv->n_devs) {
		fprintf(f, "No RDMA devices.\n");
		return 0;
	}
	for (size_t i = 0; i < inv->n_devs; i++)
		rows_max += inv->devs[i].n_ports ? inv->devs[i].n_ports : 1;
	rows = calloc(rows_max, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	n = collect(inv, rows);
	for (int c = 0; c < _C_MAX; c++) {
		width[c] = strlen(titles[c]);
		for (size_t i = 0; i < n; i++)
			if (strlen(rows[i].cell[c]) > width[c])
				width[c] = strlen(rows[i].cell[c]);
	}
	print_row(f, titles, width);
	for (size_t i = 0; i < n; i++) {
		const char *cells[_C_MAX];

		for (int c = 0; c < _C_MAX; c++)
			cells[c] = rows[i].cell[c];
		print_row(f, cells, width);
	}
	return 0;
}

/* ---- JSON ---- */

/* Device, netdev and bond names may hold any byte: JSON gets valid UTF-8 (escaped). */
static void add_str(struct json_object *o, const char *key, const char *v)
{
	_cleanup_(freep) char *buf = NULL;
	const char *safe = text_json_safe(v, &buf);

	json_object_object_add(o, key, safe ? json_object_new_string(safe) : NULL);
}

/*
 * An IP only for a RoCE GID (Ethernet, type known): an IB GID is a subnet prefix and a
 * GUID, an iWARP/erdma standard-mode GID a MAC; neither is an address.
 */
static bool gid_is_ip(const struct rdma_port *p, const struct rdma_gid *g)
{
	return p->link_layer == RDMA_LL_ETHERNET && !g->type_err && rdma_gid_has_ip(g->raw);
}

static struct json_object *gid_json(const struct rdma_port *p, const struct rdma_gid *g)
{
	struct json_object *o = json_object_new_object();
	char text[RDMA_GID_TEXT_MAX], ip[RDMA_GID_IP_MAX];

	for (int i = 0; i < 8; i++)
		snprintf(text + i * 5, sizeof(text) - (size_t)i * 5, "%02x%02x%s", g->raw[2 * i],
			 g->raw[2 * i + 1], i < 7 ? ":" : "");
	json_object_object_add(o, "index", json_object_new_int((int)g->index));
	add_str(o, "gid", text);
	add_str(o, "type", g->type_err ? NULL : rdma_gid_type_to_string(g->type));
	add_str(o, "ndev", g->ndev[0] ? g->ndev : NULL);
	if (gid_is_ip(p, g)) {
		rdma_gid_format_ip(g->raw, ip);
		add_str(o, "ip", ip);
	} else {
		add_str(o, "ip", NULL);
	}
	return o;
}

static struct json_object *port_json(const struct rdma_port *p)
{
	struct json_object *o = json_object_new_object(), *gids = json_object_new_array();
	char rate[64];

	json_object_object_add(o, "port", json_object_new_int((int)p->num));
	add_str(o, "error", p->err ? strerror(-p->err) : NULL);
	if (p->err)
		return json_object_put(gids), o;
	add_str(o, "state", rdma_port_state_to_string(p->state));
	add_str(o, "phys_state", rdma_phys_state_to_string(p->phys_state));
	rdma_rate_format(&p->rate, rate, sizeof(rate));
	add_str(o, "rate", p->rate_err ? NULL : rate);
	json_object_object_add(o, "rate_mbps", json_object_new_int64(p->rate.mbps));
	json_object_object_add(o, "width", json_object_new_int((int)p->rate.width));
	add_str(o, "link_layer", rdma_link_layer_to_string(p->link_layer));
	json_object_object_add(o, "active_mtu",
			       p->active_mtu ? json_object_new_int((int)p->active_mtu) : NULL);
	add_str(o, "netdev", p->netdev);
	add_str(o, "netdev_via", p->netdev_via);
	json_object_object_add(o, "netdev_up", json_object_new_boolean(p->netdev_up));
	add_str(o, "bond", rdma_port_bond(p));
	for (size_t i = 0; i < p->n_gids; i++)
		json_object_array_add(gids, gid_json(p, &p->gids[i]));
	json_object_object_add(o, "gids", gids);
	return o;
}

static struct json_object *device_json(const struct rdma_device *d)
{
	struct json_object *o = json_object_new_object(), *ports = json_object_new_array();
	char guid[20], ids[10];

	add_str(o, "name", d->name);
	add_str(o, "error", d->err ? strerror(-d->err) : NULL);
	add_str(o, "source", rdma_source_to_string(d->source));
	add_str(o, "source_note", d->source_note);
	add_str(o, "node_type", rdma_node_type_to_string(d->node_type));
	snprintf(guid, sizeof(guid), "%02x%02x:%02x%02x:%02x%02x:%02x%02x", d->node_guid[0],
		 d->node_guid[1], d->node_guid[2], d->node_guid[3], d->node_guid[4],
		 d->node_guid[5], d->node_guid[6], d->node_guid[7]);
	add_str(o, "node_guid", d->have_guid ? guid : NULL);
	add_str(o, "pci", d->pci);
	snprintf(ids, sizeof(ids), "%04x:%04x", d->vendor, d->device);
	add_str(o, "pci_id", d->have_ids ? ids : NULL);
	add_str(o, "fw_ver", d->fw_ver);
	add_str(o, "board_id", d->board_id);
	for (size_t k = 0; k < d->n_ports; k++)
		json_object_array_add(ports, port_json(&d->ports[k]));
	json_object_object_add(o, "ports", ports);
	return o;
}

struct json_object *rdma_table_json(const struct rdma_inventory *inv)
{
	struct json_object *o = json_object_new_object(), *devs = json_object_new_array();

	add_str(o, "error", inv->err ? strerror(-inv->err) : NULL);
	for (size_t i = 0; i < inv->n_devs; i++)
		json_object_array_add(devs, device_json(&inv->devs[i]));
	json_object_object_add(o, "devices", devs);
	return o;
}
