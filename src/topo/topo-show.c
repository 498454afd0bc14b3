// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `hostprep topology`: the matrix, the devices and the P2P verdict of every pair, as text
 * or JSON (docs/topology-schema.md). The matrix is written in blocks, the other parts each
 * by one function for both outputs (core/emit.h); a new part is one more entry in sections[].
 */
#include <json-c/json.h>

#include "core/emit.h"
#include "core/log.h"
#include "core/result.h"
#include "topo/gpus.h"
#include "topo/links.h"
#include "topo/topo.h"
#include "core/string-table.h"

#define TOPO_SCHEMA_VERSION 1

int topo_view_complete(struct topo_view *v)
{
	/* A port whose capabilities cannot be read stays "unknown" in the verdicts. */
	int r = topo_load_caps(v->pci, &v->inv, &v->topo);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		log_debug_errno(r, "Failed to read some capabilities, ignoring: %m");
	return topo_paths_build(&v->topo, &v->inv);
}

/* The topology, its capabilities and paths over the inventory in v. */
static int view_build(struct topo_view *v, const struct topo_config *cfg, bool complete)
{
	int r = topo_build(&v->topo, v->root, cfg, &v->inv);

	if (r >= 0 && complete)
		r = topo_view_complete(v);
	if (r < 0)
		topo_view_done(v);
	return r;
}

int topo_view_open(struct topo_view *v, const struct sysroot *root, const struct topo_config *cfg)
{
	int r;

	*v = (struct topo_view){ .root = root };
	r = pcib_open(&v->pci, root);
	if (r >= 0)
		r = pcib_scan_caps(v->pci, &v->inv, topo_wants_view_caps, (void *)cfg);
	if (r < 0) {
		topo_view_done(v);
		return r;
	}
	return view_build(v, cfg, true);
}

int topo_view_borrow(struct topo_view *v, const struct sysroot *root, const struct topo_config *cfg,
		     struct pci_backend *b, const struct pci_inventory *inv, bool complete)
{
	*v = (struct topo_view){ .root = root, .pci = b, .inv = *inv, .borrowed = true };
	return view_build(v, cfg, complete);
}

void topo_view_done(struct topo_view *v)
{
	free(v->nvlink);
	topo_done(&v->topo);
	if (!v->borrowed) {
		pci_inventory_done(&v->inv);
		pcib_close(v->pci);
	}
	*v = (struct topo_view){};
}

static const char *dev_addr(const struct topo_view *v, size_t dev)
{
	return v->inv.devs[dev].addr;
}

/* "%s%u" of kind and index, without a printf: every pair names two. */
static void endpoint_id(const struct topo_endpoint *e, char buf[static 16])
{
	const char *kind = topo_kind_to_string(e->kind);
	size_t n = strlen(kind), d = 0;
	char digits[10];

	for (unsigned i = e->index; d == 0 || i; i /= 10)
		digits[d++] = (char)('0' + i % 10);
	if (n + d >= 16) {
		snprintf(buf, 16, "%s%u", kind, e->index);
		return;
	}
	memcpy(buf, kind, n);
	while (d)
		buf[n++] = digits[--d];
	buf[n] = '\0';
}

void topo_endpoint_label(const struct topo_view *v, const struct topo_endpoint *e, char *buf,
			 size_t size)
{
	char id[16];

	endpoint_id(e, id);
	snprintf(buf, size, "%s (%s)", id, e->name);
}

/* ---- verdict phrases ---- */

static int describe_redirected(const struct topo_view *v, const struct topo_path *p, FILE *f)
{
	bool first = true;

	fputs("redirected at ", f);
	for (size_t k = 0; k < p->n_ports; k++) {
		const struct topo_port *pt = &p->ports[k];
		char bits[16];

		if (pt->state != TOPO_ACS_KNOWN || !pt->redirect)
			continue;
		fprintf(f, "%s%s%s (%s on)", first ? "" : ", ",
			pt->role == TOPO_PORT_FUNCTION ? "function " : "", dev_addr(v, pt->dev),
			topo_acs_bits(pt->redirect, bits, sizeof(bits)));
		first = false;
	}
	return 0;
}

/*
 * Why a port's ACS could not be read past 64 bytes: the same diagnosis as the acs results
 * (pci_limited_cause(), pci_limited_text()), not "needs root" to a root without it.
 */
static const char *limited_phrase(char *buf, size_t size)
{
	enum pci_limited_cause c = pci_limited_cause();

	if (c == PCI_LIMITED_NOT_ROOT)
		return "ACS needs root to read";
	snprintf(buf, size, "ACS cannot be read: %s", pci_limited_text(c)->why);
	return buf;
}

static int describe_unknown(const struct topo_view *v, const struct topo_path *p, FILE *f)
{
	char limited[128];
	bool first = true;

	fputs("unknown: ", f);
	for (size_t k = 0; k < p->n_ports; k++) {
		const struct topo_port *pt = &p->ports[k];

		if (!topo_acs_unknown(pt->state))
			continue;
		fprintf(f, "%s%s %s", first ? "" : ", ", dev_addr(v, pt->dev),
			pt->state == TOPO_ACS_NEEDS_ROOT ? limited_phrase(limited, sizeof(limited))
			: pt->state == TOPO_ACS_NO_EXT
				? "ACS cannot be read: no extended config space"
			: v->inv.devs[pt->dev].state == PCI_DEV_OK
				? "ACS cannot be read: extended capability list unreadable"
				: pci_dev_state_to_string(v->inv.devs[pt->dev].state));
		first = false;
	}
	return 0;
}

/* The phrase of topo_path_describe(), into f. */
static void path_describe(const struct topo_view *v, const struct topo_path *p, FILE *f)
{
	switch (p->p2p) {
	case TOPO_P2P_DIRECT:
		fputs("direct", f);
		break;
	case TOPO_P2P_REDIRECTED:
		describe_redirected(v, p, f);
		break;
	case TOPO_P2P_UNKNOWN:
		describe_unknown(v, p, f);
		break;
	case TOPO_P2P_ROOT_COMPLEX:
		fputs(p->dist == TOPO_PHB
			      ? "through the host bridge: the root complex decides, "
				"not ACS"
			      : "across host bridges: the root complexes decide, not ACS",
		      f);
		break;
	}
}

int topo_path_describe(const struct topo_view *v, const struct topo_path *p, char **ret)
{
	_cleanup_(freep) char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -ENOMEM;
	path_describe(v, p, f);
	if (fclose(f) != 0)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	return 0;
}

int topo_for_each_pair(const struct topo_view *v, topo_pair_fn fn, void *ud)
{
	const struct topology *t = &v->topo;

	for (size_t i = 0; i < t->n; i++) {
		if (t->eps[i].kind != TOPO_GPU)
			continue;
		for (size_t j = i + 1; j < t->n; j++) {
			struct topo_path p;
			int r;

			if (topo_ep_distance(t, &v->inv, i, j) > TOPO_PHB)
				continue; /* NUMA only turns NODE into SYS: PCI distance is above
					     PHB */
			topo_ep_pair_ports(t, &v->inv, i, j, &p);
			if (p.dist > TOPO_PHB)
				continue;
			r = fn(v, &t->eps[i], &t->eps[j], &p, ud);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* ---- text ---- */

static void numa_text(const struct topo_endpoint *e, char buf[static 16])
{
	if (e->numa_node < 0)
		snprintf(buf, 16, "N/A");
	else
		snprintf(buf, 16, "%d", e->numa_node);
}

/* "%-7s" of each cell, without a printf per cell: a matrix has n^2 of them. */
#define CELL_W 7

static char *cell_put(char *at, const char *s)
{
	size_t n = strlen(s);

	memcpy(at, s, n);
	if (n < CELL_W) {
		memset(at + n, ' ', CELL_W - n);
		n = CELL_W;
	}
	return at + n;
}

static int matrix_text(const struct topo_view *v, FILE *f)
{
	const struct topology *t = &v->topo;
	char id[16], numa[16], cells[_TOPO_DIST_MAX][CELL_W], self[CELL_W], nvcell[16];
	/* One row: the ids may be longer than a cell (NIC1000), the distances are not. */
	_cleanup_(freep) char *row = malloc(t->n * 16 + 1);
	char *at;

	if (!row)
		return -ENOMEM;
	for (int d = 0; d < _TOPO_DIST_MAX; d++)
		cell_put(cells[d], topo_dist_to_string(d));
	cell_put(self, " X");
	at = row;
	for (size_t j = 0; j < t->n; j++) {
		endpoint_id(&t->eps[j], id);
		at = cell_put(at, id);
	}
	fprintf(f, "%-8s", "");
	fwrite(row, 1, at - row, f);
	fprintf(f, "%-6s%s\n", "NUMA", "CPUs");
	for (size_t i = 0; i < t->n; i++) {
		at = row;
		for (size_t j = 0; j < t->n; j++) {
			int nv = i == j ? 0 : topo_view_nvlink(v, i, j);

			if (nv > 0) {
				snprintf(nvcell, sizeof(nvcell), "NV%d", nv);
				at = cell_put(at, nvcell);
				continue;
			}
			memcpy(at, i == j ? self : cells[topo_ep_distance(t, &v->inv, i, j)],
			       CELL_W);
			at += CELL_W;
		}
		endpoint_id(&t->eps[i], id);
		numa_text(&t->eps[i], numa);
		fprintf(f, "%-8s", id);
		fwrite(row, 1, at - row, f);
		fprintf(f, "%-6s%s\n", numa, t->eps[i].cpulist ? t->eps[i].cpulist : "N/A");
	}
	return ferror(f) ? -EIO : 0;
}

/* Text "  GPU0: name (address) [state]" lines (the name only when it is not the address,
 * the state only when it is not ok), then what the matrix's classes mean. */
static void device_emit(const struct topo_view *v, const struct topo_endpoint *ep, struct emit *e)
{
	const struct pci_dev_info *d = &v->inv.devs[ep->dev];
	bool named = !streq(ep->name, d->addr);
	char id[16];

	endpoint_id(ep, id);
	emit_open_object(e, NULL);
	emit_string(e, EMIT_ANY, "id", "  %s: ", id);
	emit_string(e, EMIT_JSON, "kind", NULL, ep->kind == TOPO_GPU ? "gpu" : "nic");
	if (named)
		emit_string(e, EMIT_TEXT, NULL, "%s (", ep->name);
	emit_string(e, EMIT_ANY, "address", named ? "%s)" : "%s", d->addr);
	emit_string(e, EMIT_JSON, "name", NULL, ep->name); /* may hold any byte */
	emit_string(e, d->state != PCI_DEV_OK ? EMIT_ANY : EMIT_JSON, "state", " [%s]",
		    pci_dev_state_to_string(d->state));
	if (ep->numa_node < 0)
		emit_null(e, EMIT_JSON, "numa_node", NULL, NULL);
	else
		emit_int(e, EMIT_JSON, "numa_node", NULL, ep->numa_node);
	emit_string(e, EMIT_JSON, "cpulist", NULL, ep->cpulist);
	emit_textf(e, "\n");
	emit_close_object(e);
}

static int devices_show(const struct topo_view *v, struct emit *e)
{
	emit_textf(e, "\nLegend:\n");
	emit_open_array(e, "devices");
	for (size_t i = 0; i < v->topo.n; i++)
		device_emit(v, &v->topo.eps[i], e);
	emit_close_array(e);
	emit_textf(e, "\n  X    = self\n"
		      "  PIX  = through at most one PCIe switch\n"
		      "  PXB  = through several PCIe switches, not through a host bridge\n"
		      "  PHB  = through a PCIe host bridge (root ports of one root complex)\n"
		      "  NODE = across host bridges within one NUMA node\n"
		      "  SYS  = across NUMA nodes (the SMP interconnect)\n");
	if (v->nvlink)
		emit_textf(e, "  NV#  = through a bonded set of # NVLinks (NVML)\n");
	else if (v->nvlink_why[0])
		emit_textf(e, "  PCIe only: NVLink not read (%s)\n", v->nvlink_why);
	return 0;
}

/* ---- JSON ---- */

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static int matrix_json(const struct topo_view *v, struct json_object *doc)
{
	const struct topology *t = &v->topo;
	struct json_object *rows = json_object_new_array(), *cells[_TOPO_DIST_MAX], *self;

	/* One string object per class, referenced from every cell that holds it. */
	for (int d = 0; d < _TOPO_DIST_MAX; d++)
		cells[d] = json_object_new_string(topo_dist_to_string(d));
	self = json_object_new_string("X");
	for (size_t i = 0; i < t->n; i++) {
		struct json_object *row = json_object_new_array();

		for (size_t j = 0; j < t->n; j++) {
			int nv = i == j ? 0 : topo_view_nvlink(v, i, j);
			char nvcell[16];

			if (nv > 0) {
				snprintf(nvcell, sizeof(nvcell), "NV%d", nv);
				json_object_array_add(row, json_object_new_string(nvcell));
				continue;
			}
			json_object_array_add(
				row,
				json_object_get(
					i == j ? self : cells[topo_ep_distance(t, &v->inv, i, j)]));
		}
		json_object_array_add(rows, row);
	}
	for (int d = 0; d < _TOPO_DIST_MAX; d++)
		json_object_put(cells[d]);
	json_object_put(self);
	json_object_object_add(doc, "matrix", rows);
	/* NVLink: "NVML" when the NV# cells were read, else null with the reason */
	json_object_object_add(doc, "nvlink_source",
			       v->nvlink ? json_object_new_string("NVML") : NULL);
	json_object_object_add(doc, "nvlink_unread",
			       str_or_null(v->nvlink_why[0] ? v->nvlink_why : NULL));
	return 0;
}

static const char *const topo_p2p_table[] = {
	[TOPO_P2P_DIRECT] = "direct",
	[TOPO_P2P_REDIRECTED] = "redirected",
	[TOPO_P2P_UNKNOWN] = "unknown",
	[TOPO_P2P_ROOT_COMPLEX] = "root-complex",
};

DEFINE_STRING_TABLE_LOOKUP_TO_STRING(topo_p2p, enum topo_p2p);

static const char *const acs_state_table[] = {
	[TOPO_ACS_KNOWN] = "known",
	[TOPO_ACS_NONE] = "none",
	[TOPO_ACS_NEEDS_ROOT] = "needs-root",
	[TOPO_ACS_UNREADABLE] = "unreadable",
	[TOPO_ACS_NO_EXT] = "no-extended-config",
};

DEFINE_PRIVATE_STRING_TABLE_LOOKUP_TO_STRING(acs_state, enum topo_acs_state);

/* ---- P2P pairs (text and JSON, core/emit.h) ---- */

/* A deciding port as docs/topology-schema.md's ports[] (JSON only: the text says the
 * verdict instead). */
static void port_emit(const struct topo_view *v, const struct topo_port *pt, struct emit *e)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} names[] = { { TOPO_ACS_RR, "RR" }, { TOPO_ACS_CR, "CR" }, { TOPO_ACS_EC, "EC" } };
	static const char hex[] = "0123456789abcdef";
	char ctrl[] = "0x0000"; /* "0x%04x", without a printf: every pair has ports */

	emit_string(e, EMIT_JSON, "address", NULL, dev_addr(v, pt->dev));
	emit_string(e, EMIT_JSON, "role", NULL,
		    pt->role == TOPO_PORT_INGRESS ? "ingress" : "function");
	emit_string(e, EMIT_JSON, "acs", NULL, acs_state_to_string(pt->state));
	for (int k = 0; k < 4; k++)
		ctrl[2 + k] = hex[(pt->ctrl >> (12 - 4 * k)) & 0xf];
	emit_string(e, EMIT_JSON, "control", NULL, pt->state == TOPO_ACS_KNOWN ? ctrl : NULL);
	emit_open_array(e, "redirect");
	for (size_t k = 0; k < ARRAY_SIZE(names); k++)
		if (pt->redirect & names[k].bit)
			emit_string(e, EMIT_JSON, NULL, NULL, names[k].name);
	emit_close_array(e);
}

struct json_object *topo_port_json(const struct topo_view *v, const struct topo_port *pt)
{
	struct json_object *o;
	struct emit e;

	if (emit_init_json(&e) < 0)
		return NULL;
	port_emit(v, pt, &e); /* the document is the port's object */
	o = emit_take_json(&e);
	emit_done(&e);
	return o;
}

/* The walk over the pairs: one stream rewritten with each pair's verdict, not one
 * allocation per pair (a big tree has hundreds of thousands of them). */
struct pairs_walk {
	struct emit *e;
	FILE *verdict;
	char *buf;
	size_t len;
};

/* The verdict of p (topo_path_describe()'s phrase), valid until the next one. */
static const char *pair_verdict(const struct topo_view *v, const struct topo_path *p,
				struct pairs_walk *w)
{
	rewind(w->verdict);
	path_describe(v, p, w->verdict);
	fputc('\0', w->verdict);
	return fflush(w->verdict) == 0 && !ferror(w->verdict) ? w->buf : NULL;
}

/* Text "  GPU0 (name) ↔ NIC1 (name) PIX: verdict[; P2P over NVLink (NV#)]". */
static int pair_emit(const struct topo_view *v, const struct topo_endpoint *a,
		     const struct topo_endpoint *b, const struct topo_path *p, void *ud)
{
	struct pairs_walk *w = ud;
	struct emit *e = w->e;
	const char *verdict = pair_verdict(v, p, w);
	char ia[16], ib[16];
	int nv;

	if (!verdict)
		return -ENOMEM;
	endpoint_id(a, ia);
	endpoint_id(b, ib);
	emit_open_object(e, NULL);
	emit_string(e, EMIT_ANY, "a", "  %s", ia);
	emit_string(e, EMIT_TEXT, NULL, " (%s)", a->name);
	emit_string(e, EMIT_ANY, "b", " \u2194 %s", ib);
	emit_string(e, EMIT_TEXT, NULL, " (%s)", b->name);
	emit_string(e, EMIT_ANY, "distance", " %s: ", topo_dist_to_string(p->dist));
	emit_string(e, EMIT_JSON, "p2p", NULL, topo_p2p_to_string(p->p2p));
	if (emit_is_json(e)) { /* JSON only: in text each call below would be a no-op */
		emit_open_array(e, "ports");
		for (size_t k = 0; k < p->n_ports; k++) {
			emit_open_object(e, NULL);
			port_emit(v, &p->ports[k], e);
			emit_close_object(e);
		}
		emit_close_array(e);
	}
	emit_string(e, EMIT_ANY, "verdict", "%s", verdict);
	nv = topo_view_nvlink(v, (size_t)(a - v->topo.eps), (size_t)(b - v->topo.eps));
	if (nv > 0) /* GPU peer-to-peer takes NVLink, not this path */
		emit_int(e, EMIT_TEXT, NULL, "; P2P over NVLink (NV%d)", nv);
	emit_textf(e, "\n");
	emit_close_object(e);
	if (e->err)
		return e->err;
	return !emit_is_json(e) && ferror(e->f) ? -EIO : 0; /* stop writing to a closed pipe */
}

static int pairs_show(const struct topo_view *v, struct emit *e)
{
	struct pairs_walk w = { .e = e };
	int r;

	if (v->topo.n_kind[TOPO_GPU] > 0)
		emit_textf(e, "\nP2P paths (GPU pairs and GPU-NIC pairs at PIX, PXB, PHB):\n");
	emit_open_array(e, "pairs");
	w.verdict = open_memstream(&w.buf, &w.len);
	r = w.verdict ? topo_for_each_pair(v, pair_emit, &w) : -ENOMEM;
	if (w.verdict && fclose(w.verdict) != 0 && r >= 0)
		r = -ENOMEM;
	free(w.buf);
	emit_close_array(e);
	return r;
}

/*
 * The parts after the matrix, in order, each written once for text and JSON (core/emit.h):
 * one prints its text (a blank line first) and adds its members to the JSON document. A new
 * part (PCIe links per hop, the GPU map) is one more entry. The matrix comes first and is
 * written in blocks (matrix_text(), matrix_json()): n^2 cells without a call each.
 */
static int (*const sections[])(const struct topo_view *v, struct emit *e) = {
	devices_show,
	pairs_show,
	links_show,
	gpus_show,
};

/* A section into the output e was opened for. */
static int section_emit(size_t i, const struct topo_view *v, struct emit *e)
{
	int r = sections[i](v, e);
	int k = emit_done(e);

	return r < 0 ? r : k;
}

int topo_show_text(const struct topo_view *v, FILE *f)
{
	struct emit e;
	int r;

	if (v->topo.n == 0) {
		fputs("No GPU, accelerator or NIC found.\n", f);
		return 0;
	}
	r = matrix_text(v, f);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(sections); i++) {
		emit_init_text(&e, f);
		r = section_emit(i, v, &e);
	}
	return r < 0 ? r : 0;
}

struct json_object *topo_show_json(const struct topo_view *v)
{
	struct json_object *doc = json_object_new_object();
	struct emit e;
	int r;

	if (!doc)
		return NULL;
	json_object_object_add(doc, "schema", json_object_new_int(TOPO_SCHEMA_VERSION));
	r = matrix_json(v, doc);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(sections); i++) {
		emit_init_json_into(&e, doc);
		r = section_emit(i, v, &e);
	}
	if (r < 0) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}
