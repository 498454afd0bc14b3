/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/*
 * What the host is, beside what was judged: the facts a run read that a fleet compares
 * across hosts (the NVIDIA driver's version, each GPU's model and VBIOS, each RDMA
 * device's firmware and board id, the kernel, the PCIe topology's digest). Nothing here
 * judges them: a module sets them on its run (struct run.facts), the run's report carries
 * them (struct report.facts), and the Prometheus and NFD sinks publish them as info
 * metrics and labels (docs/report-schema.md) for Prometheus to find the odd host out
 * (fleet/prometheus). A value that was not read is NULL: published as "unknown", never
 * guessed; a kind nobody read this run has no fact at all.
 */
enum fact_kind {
	FACT_KERNEL,	    /* host: release */
	FACT_NVIDIA_DRIVER, /* host: version */
	FACT_GPU,	    /* a PCI address: model, vbios */
	FACT_RDMA_DEVICE,   /* an RDMA device: firmware, board_id */
	FACT_PCIE_TOPOLOGY, /* host: digest */
	_FACT_KIND_MAX,
};

#define FACT_KEYS_MAX 2
#define FACTS_MAX     1024 /* a bound on series: 8 GPUs and 16 HCAs need 30 */
#define FACT_UNKNOWN  "unknown"

struct fact_kind_info {
	const char *name;   /* "gpu": the metric is hostprep_gpu_info */
	const char *object; /* the label that names the object ("gpu"); NULL: one per host */
	const char *keys[FACT_KEYS_MAX]; /* the labels of the values, in order; NULL ends */
	const char *help;		 /* the metric's HELP line */
};

struct fact {
	enum fact_kind kind;
	char *object;		     /* "host", a PCI address, an RDMA device */
	char *values[FACT_KEYS_MAX]; /* by the kind's keys; NULL: not read */
};

struct facts {
	struct fact *items;
	size_t n, alloc;
};

const struct fact_kind_info *fact_kind_info(enum fact_kind k);
/* The kind whose info's name is name ("gpu"), or -EINVAL. */
int fact_kind_from_name(const char *name);
/*
 * Set the fact of kind k about object (NULL: "host") to values (the kind's keys in order,
 * each NULL or "" when not read): copied; a fact of the same kind and object is replaced
 * (a view read again after a write step sets it again). The sinks keep the order of the
 * first set within a kind (the modules set them in PCI address or device name order).
 * -ENOMEM, or -E2BIG past FACTS_MAX.
 */
int facts_set(struct facts *fs, enum fact_kind k, const char *object, const char *const *values);
void facts_done(struct facts *fs);
