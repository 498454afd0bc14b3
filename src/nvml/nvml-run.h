/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "nvml/nvml.h"

/*
 * The run's NVML answers, asked once per state of the host however many modules read
 * them ([GPU], the topology's NV#, ExpectP2P=, p2p.json): the live library on the host,
 * the root's recorded answers under --root (NVML_RECORD below /run, written when a
 * snapshot records a live run), else none (facts.loaded false, facts.why says why).
 */
#define NVML_RECORD "hostprep/snapshot/nvml.txt"

struct nvml_view {
	struct nvml_facts facts;
	char source[96]; /* "NVML" or "NVML recorded in /run/..." */
	const char *tag; /* "NVML" or "recorded NVML": which one answered, in each actual */
};

struct sysroot;
/* Ask (live) or read (recorded) once, outside a run (`hostprep topology`). -ENOMEM. */
int nvml_view_load(const struct sysroot *root, struct nvml_view *v);
void nvml_view_done(struct nvml_view *v);

struct run;
/* The run's view (owned by the run), or -ENOMEM. Reading fails nothing: facts.why says it. */
int nvml_run_view(struct run *run, const struct nvml_view **ret);
/* The run's view when a module of this run asked for it already, else NULL: reads nothing. */
const struct nvml_view *nvml_run_peek(struct run *run);
