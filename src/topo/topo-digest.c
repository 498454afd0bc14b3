// SPDX-License-Identifier: GPL-2.0-or-later
/* The PCIe topology's digest (topo-digest.h says what goes in and why). */
#include <nettle/sha2.h>

#include "core/strbuf.h"
#include "topo/topo-digest.h"

static void put_function(struct strbuf *b, const struct pci_dev_info *d, const struct link_attrs *l)
{
	strbuf_printf(b, "%s %04x:%04x x%d g%d", d->addr, d->id.vendor, d->id.device,
		      l ? l->max_width : 0, l ? l->max_gen : 0);
}

static void put_endpoint(struct strbuf *b, const struct topo_endpoint *e,
			 const struct pci_inventory *inv, const struct link_attrs *links)
{
	/* a parent chain longer than the inventory is a loop: stop there */
	size_t hops = 0;

	strbuf_printf(b, "%s ", topo_kind_to_string(e->kind));
	put_function(b, &inv->devs[e->dev], links ? &links[e->dev] : NULL);
	for (int p = inv->devs[e->dev].parent; p >= 0 && (size_t)p < inv->n && hops++ < inv->n;
	     p = inv->devs[p].parent) {
		strbuf_printf(b, " < ");
		put_function(b, &inv->devs[p], links ? &links[p] : NULL);
	}
	strbuf_printf(b, "\n");
}

int topo_shape_text(const struct topology *t, const struct pci_inventory *inv,
		    const struct link_attrs *links, char **ret)
{
	_cleanup_(strbuf_done) struct strbuf b = {};

	strbuf_printf(&b, "%s", ""); /* no endpoint: the empty text, not an error */
	for (size_t i = 0; i < t->n; i++)
		if (t->eps[i].dev < inv->n)
			put_endpoint(&b, &t->eps[i], inv, links);
	return strbuf_take(&b, ret);
}

void topo_shape_digest(const char *text, char out[static TOPO_DIGEST_LEN + 1])
{
	uint8_t d[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, strlen(text), (const uint8_t *)text);
	sha256_digest(&ctx, sizeof(d), d);
	for (size_t i = 0; i < TOPO_DIGEST_LEN / 2; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The link of every function on an endpoint's chain, each read once. */
static int read_links(const struct sysroot *root, const struct topology *t,
		      const struct pci_inventory *inv, struct link_attrs *links)
{
	_cleanup_(freep) bool *done = calloc(inv->n + 1, sizeof(*done));

	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		size_t hops = 0;
		int r;

		for (int p = (int)t->eps[i].dev;
		     p >= 0 && (size_t)p < inv->n && !done[p] && hops++ < inv->n;
		     p = inv->devs[p].parent) {
			done[p] = true;
			r = link_read(root, inv, (size_t)p, &links[p]);
			if (r == -ENOMEM)
				return r;
			if (r < 0) /* unreadable: x0 g0, what the text says of an unknown link */
				links[p] = (struct link_attrs){};
		}
	}
	return 0;
}

int topo_digest(const struct sysroot *root, const struct topology *t,
		const struct pci_inventory *inv, char out[static TOPO_DIGEST_LEN + 1])
{
	_cleanup_(freep) struct link_attrs *links = calloc(inv->n + 1, sizeof(*links));
	_cleanup_(freep) char *text = NULL;
	int r;

	if (!links)
		return -ENOMEM;
	r = read_links(root, t, inv, links);
	if (r >= 0)
		r = topo_shape_text(t, inv, links, &text);
	if (r < 0)
		return r;
	topo_shape_digest(text, out);
	return 0;
}
