// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/fact.h"
#include "core/macro.h"

static const struct fact_kind_info kinds[_FACT_KIND_MAX] = {
	[FACT_KERNEL] = { "kernel",
			  NULL,
			  { "release" },
			  "Always 1: the running kernel's release (uname -r)." },
	[FACT_NVIDIA_DRIVER] = { "nvidia_driver",
				 NULL,
				 { "version" },
				 "Always 1: the loaded NVIDIA kernel module's version." },
	[FACT_GPU] = { "gpu",
		       "gpu",
		       { "model", "vbios" },
		       "Always 1: each NVIDIA GPU's model and VBIOS, from its driver entry." },
	[FACT_RDMA_DEVICE] = { "rdma_device",
			       "device",
			       { "firmware", "board_id" },
			       "Always 1: each RDMA device's firmware and board id (PSID)." },
	[FACT_PCIE_TOPOLOGY] = { "pcie_topology",
				 NULL,
				 { "digest" },
				 "Always 1: the digest of the PCIe topology's shape "
				 "(docs/report-schema.md says what goes in)." },
};

const struct fact_kind_info *fact_kind_info(enum fact_kind k)
{
	return k >= 0 && k < _FACT_KIND_MAX ? &kinds[k] : NULL;
}

int fact_kind_from_name(const char *name)
{
	for (enum fact_kind k = 0; k < _FACT_KIND_MAX; k++)
		if (streq(kinds[k].name, name))
			return k;
	return -EINVAL;
}

static void fact_free(struct fact *f)
{
	free(f->object);
	for (size_t i = 0; i < FACT_KEYS_MAX; i++)
		free(f->values[i]);
}

static struct fact *fact_slot(struct facts *fs, enum fact_kind k, const char *object)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->items[i].kind == k && fs->items[i].object &&
		    streq(fs->items[i].object, object)) {
			fact_free(&fs->items[i]);
			return &fs->items[i];
		}
	if (fs->n == FACTS_MAX)
		return NULL;
	if (fs->n == fs->alloc) {
		size_t alloc = fs->alloc ? 2 * fs->alloc : 16;
		struct fact *v = reallocarray(fs->items, alloc, sizeof(*v));

		if (!v)
			return NULL;
		fs->items = v;
		fs->alloc = alloc;
	}
	return &fs->items[fs->n++];
}

int facts_set(struct facts *fs, enum fact_kind k, const char *object, const char *const *values)
{
	struct fact *f;
	bool failed = false;

	if (!fact_kind_info(k))
		return -EINVAL;
	object = object ? object : "host";
	f = fact_slot(fs, k, object);
	if (!f)
		return fs->n == FACTS_MAX ? -E2BIG : -ENOMEM;
	*f = (struct fact){ .kind = k, .object = strdup(object) };
	for (size_t i = 0; i < FACT_KEYS_MAX && kinds[k].keys[i]; i++) {
		if (!values[i] || !values[i][0])
			continue;
		f->values[i] = strdup(values[i]);
		failed |= !f->values[i];
	}
	return failed || !f->object ? -ENOMEM : 0;
}

void facts_done(struct facts *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		fact_free(&fs->items[i]);
	free(fs->items);
	*fs = (struct facts){};
}
