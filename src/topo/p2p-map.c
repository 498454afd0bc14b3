// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The p2p.json document (p2p-map.h): one object per device, one per pair, from the run's
 * topology view (the inventory as it is after the apply, the ports' ACS Control read).
 */
#include <json-c/json.h>

#include "core/json-util.h"
#include "core/result.h"
#include "core/strbuf.h"
#include "pci/accel.h"
#include "core/log.h"
#include "topo/p2p-map.h"

static void ep_id(const struct topo_endpoint *e, char buf[static 16])
{
	snprintf(buf, 16, "%s%u", topo_kind_to_string(e->kind), e->index);
}

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *device_json(const struct topo_view *v, const struct topo_endpoint *e)
{
	const struct pci_dev_info *d = &v->inv.devs[e->dev];
	const struct pci_accel_id *known = e->kind == TOPO_GPU ? pci_accel_lookup(&d->id) : NULL;
	struct json_object *o = json_object_new_object();
	_cleanup_(freep) char *buf = NULL; /* an RDMA device name may hold any byte */
	char id[16], vd[10];

	ep_id(e, id);
	snprintf(vd, sizeof(vd), "%04x:%04x", d->id.vendor, d->id.device);
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "kind",
			       json_object_new_string(e->kind == TOPO_GPU ? "gpu" : "nic"));
	json_object_object_add(o, "pci", json_object_new_string(d->addr));
	json_object_object_add(o, "vendor_device", json_object_new_string(vd));
	json_object_object_add(o, "known_accelerator", str_or_null(known ? known->name : NULL));
	json_object_object_add(o, "name", str_or_null(text_json_safe(e->name, &buf)));
	json_object_object_add(o, "numa_node",
			       e->numa_node < 0 ? NULL : json_object_new_int(e->numa_node));
	return o;
}

/* The ports known to redirect (RR, CR or EC on): "at which bridge". */
static struct json_object *redirected_at(const struct topo_view *v, const struct topo_path *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t k = 0; k < p->n_ports; k++)
		if (p->ports[k].state == TOPO_ACS_KNOWN && p->ports[k].redirect)
			json_object_array_add(
				a, json_object_new_string(v->inv.devs[p->ports[k].dev].addr));
	return a;
}

static struct json_object *nvlink_json(const struct topo_view *v, size_t i, size_t j)
{
	int nv = topo_view_nvlink(v, i, j);

	return nv >= 0 ? json_object_new_int(nv) : NULL;
}

static struct json_object *pair_json(const struct topo_view *v, size_t i, size_t j)
{
	const struct topo_endpoint *a = &v->topo.eps[i], *b = &v->topo.eps[j];
	struct json_object *o = json_object_new_object(), *ports = json_object_new_array();
	char ia[16], ib[16];
	struct topo_path p;

	topo_ep_pair_ports(&v->topo, &v->inv, i, j, &p);
	ep_id(a, ia);
	ep_id(b, ib);
	json_object_object_add(o, "a", json_object_new_string(ia));
	json_object_object_add(o, "b", json_object_new_string(ib));
	json_object_object_add(o, "a_pci", json_object_new_string(v->inv.devs[a->dev].addr));
	json_object_object_add(o, "b_pci", json_object_new_string(v->inv.devs[b->dev].addr));
	json_object_object_add(o, "distance",
			       json_object_new_string(topo_dist_to_string(
				       topo_ep_distance(&v->topo, &v->inv, i, j))));
	json_object_object_add(o, "p2p", json_object_new_string(topo_p2p_to_string(p.p2p)));
	json_object_object_add(o, "redirected_at", redirected_at(v, &p));
	for (size_t k = 0; k < p.n_ports; k++)
		json_object_array_add(ports, topo_port_json(v, &p.ports[k]));
	json_object_object_add(o, "ports", ports);
	json_object_object_add(o, "risk",
			       str_or_null(p.p2p == TOPO_P2P_REDIRECTED
						   ? topo_p2p_risk(&v->inv, a->dev, b->dev)
						   : NULL));
	/* NVML's NV# when it was read, else not known, never "none": PCI sysfs does not show
	 * NVLink (nor xGMI or Gaudi's RoCE links) */
	json_object_object_add(o, "nvlink", nvlink_json(v, i, j));
	return o;
}

/* The pairs pairs_json() lists: each GPU with every endpoint after it. */
static size_t pairs_count(const struct topo_view *v)
{
	size_t n = 0;

	for (size_t i = 0; i < v->topo.n && v->topo.eps[i].kind == TOPO_GPU; i++)
		n += v->topo.n - i - 1;
	return n;
}

/*
 * Every GPU-GPU and GPU-NIC pair once (GPUs come first in eps), at any distance. Up to
 * P2P_PAIRS_MAX: the list is quadratic in endpoints (a host of 100 GPUs and 100 NICs
 * made 15,000 pairs, 4.5 MB of JSON and 50 MB of memory; 1,600 endpoints would take
 * gigabytes at boot). The largest real hosts (16-20 GPUs, 10-20 NICs) have a few
 * hundred; past the cap the list is empty and pairs_omitted says how many it would hold.
 */
static void pairs_json(const struct topo_view *v, struct json_object *doc)
{
	struct json_object *a = json_object_new_array();
	size_t n = pairs_count(v);

	if (n > P2P_PAIRS_MAX) {
		log_warning("p2p.json: %zu GPU pairs exceed the %d listed, none listed.", n,
			    P2P_PAIRS_MAX);
		json_object_object_add(doc, "pairs", a);
		json_object_object_add(doc, "pairs_omitted", json_object_new_int64((int64_t)n));
		return;
	}
	for (size_t i = 0; i < v->topo.n; i++)
		for (size_t j = i + 1; j < v->topo.n && v->topo.eps[i].kind == TOPO_GPU; j++)
			json_object_array_add(a, pair_json(v, i, j));
	json_object_object_add(doc, "pairs", a);
}

struct json_object *p2p_map_json(const struct topo_view *v)
{
	struct json_object *doc = json_object_new_object(), *devs = json_object_new_array();

	if (!doc || !devs) {
		json_object_put(doc);
		json_object_put(devs);
		return NULL;
	}
	json_object_object_add(doc, "schema", json_object_new_int(P2P_SCHEMA_VERSION));
	for (size_t i = 0; i < v->topo.n; i++)
		json_object_array_add(devs, device_json(v, &v->topo.eps[i]));
	json_object_object_add(doc, "devices", devs);
	json_object_object_add(doc, "nvlink_source",
			       v->nvlink ? json_object_new_string("NVML") : NULL);
	json_object_object_add(doc, "nvlink_unread",
			       str_or_null(v->nvlink_why[0] ? v->nvlink_why : NULL));
	pairs_json(v, doc);
	return doc;
}

int p2p_map_text(const struct topo_view *v, char **ret)
{
	_cleanup_(json_object_putp) struct json_object *doc = p2p_map_json(v);

	if (!doc)
		return -ENOMEM;
	if (asprintf(ret, "%s\n",
		     json_object_to_json_string_ext(
			     doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					  JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		return -ENOMEM;
	return 0;
}

/* env_pairs()'s "verdict" of the pairs NVLink joins */
#define P2P_ENV_NVLINK ((enum topo_p2p) - 1)

/* "ADDR-ADDR,..." of the GPU pairs below a switch whose verdict is p2p. */
static void env_pairs(const struct topo_view *v, enum topo_p2p p2p, struct strbuf *b, size_t *n)
{
	const struct topology *t = &v->topo;
	struct topo_path p;

	for (size_t i = 0; i < t->n; i++)
		for (size_t j = i + 1; j < t->n; j++) {
			if (t->eps[i].kind != TOPO_GPU || t->eps[j].kind != TOPO_GPU)
				continue;
			topo_ep_pair_ports(t, &v->inv, i, j, &p);
			/* a pair NVLink joins goes over NVLink: listed apart, whatever PCIe says */
			if (topo_view_nvlink(v, i, j) > 0 ? p2p != P2P_ENV_NVLINK : p.p2p != p2p)
				continue;
			strbuf_printf(b, "%s%s-%s", (*n)++ ? "," : "",
				      v->inv.devs[t->eps[i].dev].addr,
				      v->inv.devs[t->eps[j].dev].addr);
		}
}

static void env_lines(const struct topo_view *v, struct strbuf *b)
{
	size_t n_red = 0, n_unk = 0;

	strbuf_printf(b, "HOSTPREP_P2P_REDIRECTED=");
	env_pairs(v, TOPO_P2P_REDIRECTED, b, &n_red);
	strbuf_printf(b, "\nHOSTPREP_P2P_UNKNOWN=");
	env_pairs(v, TOPO_P2P_UNKNOWN, b, &n_unk);
	if (v->nvlink) {
		size_t n_nv = 0;

		strbuf_printf(b, "\nHOSTPREP_P2P_NVLINK=");
		env_pairs(v, P2P_ENV_NVLINK, b, &n_nv);
	}
	strbuf_printf(b,
		      "\n# %zu GPU/accelerator pair(s) below a PCIe switch redirected by ACS, %zu "
		      "unknown\n",
		      n_red, n_unk);
}

int p2p_map_env(const struct topo_view *v, char **ret)
{
	struct strbuf b = {};

	strbuf_printf(&b,
		      "# Peer-to-peer between GPUs/accelerators below PCIe switches, written by "
		      "hostprep\n"
		      "# (every pair, NICs too: p2p.json beside this file). A redirected pair's "
		      "traffic goes\n"
		      "# up to the root complex. hostprep never sets NCCL_IGNORE_DISABLED_P2P; a "
		      "job that must\n"
		      "# not use such a pair sets NCCL_P2P_DISABLE=1 itself.\n");
	env_lines(v, &b);
	return strbuf_take(&b, ret);
}
