// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PCIe links and GPU map sections of `hostprep topology` (text and JSON): every hop
 * from each GPU/accelerator and NIC of the view up to its root port, judged as [Links]
 * judges it, and the GPU map of gpus.h.
 */
#include <json-c/json.h>

#include "core/emit.h"
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

/* A link's speed and width ("current", "capable", each end's maximum): JSON only, the
 * text says them in link_hop_describe()'s phrase. */
static void rate_emit(struct emit *e, const char *key, int gen, int width)
{
	emit_open_object(e, key);
	emit_string(e, EMIT_JSON, "speed", NULL, gen ? link_gen_to_string(gen) : NULL);
	if (width)
		emit_int(e, EMIT_JSON, "width", NULL, width);
	else
		emit_null(e, EMIT_JSON, "width", NULL, NULL);
	emit_close_object(e);
}

/* The ends missing from bus/pci/devices (only on such a hop): the text names one. */
static void unlisted_emit(struct emit *e, const struct link_hop *h)
{
	if (!h->port_unlisted && !h->dev_unlisted)
		return;
	emit_string(e, EMIT_TEXT, NULL,
		    "               %s missing from bus/pci/devices: read through the device "
		    "tree\n",
		    h->port_unlisted ? h->port : h->dev);
	emit_open_array(e, "unlisted");
	if (h->port_unlisted)
		emit_string(e, EMIT_JSON, NULL, NULL, h->port);
	if (h->dev_unlisted)
		emit_string(e, EMIT_JSON, NULL, NULL, h->dev);
	emit_close_array(e);
}

static void hop_emit(struct emit *e, const struct link_hop *h)
{
	char text[256];

	emit_open_object(e, NULL);
	emit_string(e, EMIT_JSON, "port", NULL, h->port);
	emit_string(e, EMIT_ANY, "device", "  %-12s ", h->dev);
	emit_string(e, EMIT_ANY, "state", "%-9s ", state_name[h->state]);
	if (!emit_is_json(e))
		emit_textf(e, "%s\n", link_hop_describe(h, text, sizeof(text)));
	rate_emit(e, "current", h->cur_gen, h->cur_width);
	rate_emit(e, "capable", h->cap_gen, h->cap_width);
	rate_emit(e, "port_max", h->port_link.max_gen, h->port_link.max_width);
	rate_emit(e, "device_max", h->dev_link.max_gen, h->dev_link.max_width);
	unlisted_emit(e, h);
	emit_close_object(e);
}

int links_show(const struct topo_view *v, struct emit *e)
{
	_cleanup_(freep) struct link_hop *hops = NULL;
	size_t n;
	int r;

	r = view_hops(v, &hops, &n);
	if (r < 0)
		return r;
	emit_textf(e, "\nPCIe links (each hop from a root or downstream port to the function "
		      "below; degraded = below what both ends can do)\n");
	if (n == 0)
		emit_textf(e, "  none (no PCIe link attributes)\n");
	emit_open_array(e, "links");
	for (size_t i = 0; i < n; i++)
		hop_emit(e, &hops[i]);
	emit_close_array(e);
	return 0;
}

int gpus_show(const struct topo_view *v, struct emit *e)
{
	struct gpu_map m;
	int r;

	r = gpu_map_build(&m, v->root, v);
	if (r < 0)
		return r;
	emit_textf(e, "\n");
	emit_open_object(e, "gpu_map");
	gpu_map_emit(&m, v, e);
	emit_close_object(e);
	gpu_map_done(&m);
	return 0;
}
