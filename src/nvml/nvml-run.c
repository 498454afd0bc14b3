// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's NVML answers (nvml-run.h): one NVML initialisation per state of the host.
 * NVML's initialisation is the costly part (it brings the GPUs up when persistence is
 * off), so the modules that read it share one answer, as they share the PCI inventory.
 */
#include <stdio.h>
#include <string.h>

#include "nvml/nvml-run.h"
#include "run/run.h"

struct nvml_run {
	bool read;
	struct nvml_view v;
};

static void nvml_run_done(void *state)
{
	struct nvml_run *n = state;

	nvml_facts_done(&n->v.facts);
}

static const struct run_service nvml_service = {
	.name = "nvml",
	.size = sizeof(struct nvml_run),
	.done = nvml_run_done,
};

static int load_live(struct nvml_view *v)
{
	_cleanup_(freep) char *text = NULL;
	int r;

	snprintf(v->source, sizeof(v->source), "NVML");
	v->tag = "NVML";
	r = nvml_read_live(&v->facts, &text);
	if (r >= 0 && text) /* what a snapshot's replay reads instead */
		sysroot_note_data(SYSROOT_RUN, NVML_RECORD, text, strlen(text));
	return r;
}

static int load_recorded(const struct sysroot *root, struct nvml_view *v)
{
	_cleanup_(freep) char *text = NULL;
	int r;

	snprintf(v->source, sizeof(v->source), "NVML recorded in /run/%s", NVML_RECORD);
	v->tag = "recorded NVML";
	r = sysroot_read_file(root, SYSROOT_RUN, 1 << 20, &text, NULL, "%s", NVML_RECORD);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		v->facts = (struct nvml_facts){};
		snprintf(v->facts.why, sizeof(v->facts.why),
			 "under --root the host's NVML is not this tree's, and no answers are "
			 "recorded in /run/%s%s%s%s",
			 NVML_RECORD, r == -ENOENT ? "" : " (", r == -ENOENT ? "" : strerror(-r),
			 r == -ENOENT ? "" : ")");
		return 0;
	}
	return nvml_parse(text, &v->facts);
}

int nvml_view_load(const struct sysroot *root, struct nvml_view *v)
{
	int r;

	*v = (struct nvml_view){};
	r = sysroot_is_host(root) ? load_live(v) : load_recorded(root, v);
	if (r < 0)
		nvml_view_done(v);
	return r;
}

void nvml_view_done(struct nvml_view *v)
{
	nvml_facts_done(&v->facts);
}

const struct nvml_view *nvml_run_peek(struct run *run)
{
	const struct nvml_run *n = run_service_peek(run, &nvml_service);

	return n && n->read ? &n->v : NULL;
}

int nvml_run_view(struct run *run, const struct nvml_view **ret)
{
	struct nvml_run *n = run_service(run, &nvml_service);
	int r;

	if (!n)
		return -ENOMEM;
	if (!n->read) {
		r = nvml_view_load(run->root, &n->v);
		if (r < 0)
			return r;
		n->read = true;
	}
	*ret = &n->v;
	return 0;
}
