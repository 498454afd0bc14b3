// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PCIe links and GPU map sections of `hostprep topology` (text and JSON): every hop
 * from each GPU/accelerator and NIC of the view up to its root port, judged as [Links]
 * judges it, and the GPU map of gpus.h.
 */
#include <json-c/json.h>

#include "topo/gpus.h"
#include "topo/links.h"

static const char *const state_name[] = {
	[HOP_OK] = "ok",
	[HOP_DEGRADED] = "degraded",
	[HOP_SLOW] = "slower",
	[HOP_UNKNOWN] = "unknown",
};

/* The hops of every endpoint of the view, in endpoint order (GPUs, then NICs). */
static int view_hops(const struct topo_view *v, struct link_hop **hops, size_t *n)
{
	_cleanup_(link_collect_done) struct link_collect c = {};
	int r = link_collect_init(&c, v->root, &v->inv);

	for (size_t i = 0; i < v->topo.n && r >= 0; i++)
		r = link_collect_add(&c, v->topo.eps[i].dev);
	if (r < 0)
		return r;
	link_hops_sort(c.hops, c.n);
	*n = c.n;
	*hops = TAKE_PTR(c.hops);
	return 0;
}

int links_show_text(const struct topo_view *v, FILE *f)
{
	_cleanup_(freep) struct link_hop *hops = NULL;
	char text[256];
	size_t n;
	int r;

	r = view_hops(v, &hops, &n);
	if (r < 0)
		return r;
	fprintf(f, "\nPCIe links (each hop from a root or downstream port to the function below; "
		   "degraded = below what both ends can do)\n");
	if (n == 0)
		fprintf(f, "  none (no PCIe link attributes)\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "  %-12s %-9s %s\n", hops[i].dev, state_name[hops[i].state],
			link_hop_describe(&hops[i], text, sizeof(text)));
		if (hops[i].port_unlisted || hops[i].dev_unlisted)
			fprintf(f,
				"               %s missing from bus/pci/devices: read through the "
				"device tree\n",
				hops[i].port_unlisted ? hops[i].port : hops[i].dev);
	}
	return ferror(f) ? -EIO : 0;
}

static struct json_object *rate_json(int gen, int width)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "speed",
			       gen ? json_object_new_string(link_gen_to_string(gen)) : NULL);
	json_object_object_add(o, "width", width ? json_object_new_int(width) : NULL);
	return o;
}

/* "unlisted": the ends missing from bus/pci/devices (only on such a hop). */
static int unlisted_json(struct json_object *o, const struct link_hop *h)
{
	struct json_object *a = json_object_new_array();
	int r = a ? 0 : -ENOMEM;

	if (r >= 0 && h->port_unlisted &&
	    json_object_array_add(a, json_object_new_string(h->port)) < 0)
		r = -ENOMEM;
	if (r >= 0 && h->dev_unlisted &&
	    json_object_array_add(a, json_object_new_string(h->dev)) < 0)
		r = -ENOMEM;
	if (r >= 0 && json_object_object_add(o, "unlisted", a) < 0)
		r = -ENOMEM;
	if (r < 0)
		json_object_put(a);
	return r;
}

static struct json_object *hop_json(const struct link_hop *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *parts[] = {
		json_object_new_string(h->port),
		json_object_new_string(h->dev),
		json_object_new_string(state_name[h->state]),
		rate_json(h->cur_gen, h->cur_width),
		rate_json(h->cap_gen, h->cap_width),
		rate_json(h->port_link.max_gen, h->port_link.max_width),
		rate_json(h->dev_link.max_gen, h->dev_link.max_width),
	};
	static const char *const keys[] = {
		"port", "device", "state", "current", "capable", "port_max", "device_max",
	};
	bool ok = o != NULL;

	for (size_t k = 0; k < ARRAY_SIZE(parts); k++) {
		if (ok && parts[k] && json_object_object_add(o, keys[k], parts[k]) == 0)
			continue;
		ok = false;
		json_object_put(parts[k]);
	}
	if (ok && (h->port_unlisted || h->dev_unlisted))
		ok = unlisted_json(o, h) == 0;
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int links_show_json(const struct topo_view *v, struct json_object *doc)
{
	_cleanup_(freep) struct link_hop *hops = NULL;
	struct json_object *a;
	size_t n;
	int r;

	r = view_hops(v, &hops, &n);
	if (r < 0)
		return r;
	a = json_object_new_array();
	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *h = hop_json(&hops[i]);

		if (!h || json_object_array_add(a, h) < 0) {
			json_object_put(h);
			json_object_put(a);
			return -ENOMEM;
		}
	}
	if (json_object_object_add(doc, "links", a) < 0) {
		json_object_put(a);
		return -ENOMEM;
	}
	return 0;
}

int gpus_show_text(const struct topo_view *v, FILE *f)
{
	struct gpu_map m;
	int r;

	r = gpu_map_build(&m, v->root, v);
	if (r < 0)
		return r;
	fputc('\n', f);
	r = gpu_map_show_text(&m, v, f);
	gpu_map_done(&m);
	return r;
}

int gpus_show_json(const struct topo_view *v, struct json_object *doc)
{
	struct json_object *j;
	struct gpu_map m;
	int r;

	r = gpu_map_build(&m, v->root, v);
	if (r < 0)
		return r;
	j = gpu_map_json(&m, v);
	gpu_map_done(&m);
	if (!j)
		return -ENOMEM;
	if (json_object_object_add(doc, "gpu_map", j) < 0) {
		json_object_put(j);
		return -ENOMEM;
	}
	return 0;
}
