/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"
#include "core/result.h"
#include "core/sysroot.h"

/*
 * [Sinks]: files other systems read (see conf/hostprep.conf).
 *   Prometheus=yes|no   node_exporter textfile "hostprep.prom" (default yes)
 *   PrometheusDir=PATH  its directory (default /var/lib/prometheus/node-exporter, the
 *                       --collector.textfile.directory of Debian's prometheus-node-exporter)
 *   NFD=yes|no          Node Feature Discovery local source file (default yes)
 *   NFDFile=PATH        the file (default
 *                       /etc/kubernetes/node-feature-discovery/features.d/hostprep)
 * A sink writes only when its directory already exists: hostprep never creates another
 * tool's directory, so a host without node_exporter or NFD is left exactly as it was.
 * An explicit yes whose directory is missing is a warning at run time, not an error.
 * Paths are absolute, at most SINK_PATH_MAX characters, and lie below the root prefix.
 */

#define SINK_PATH_MAX 256
#define PROM_FILE     "hostprep.prom"
#define NFD_MAX_SIZE  (64 * 1024) /* nfd-worker ignores a larger features.d file */
#define NFD_VALUE_MAX 63	  /* a Kubernetes label value */

struct sink_switch {
	bool on;
	struct origin at; /* .file NULL: the default */
};

struct sink_path {
	char *path; /* NULL: the default */
	struct origin at;
};

struct sinks_config {
	struct sink_switch prometheus, nfd;
	struct sink_path prom_dir, nfd_file;
};

extern const struct config_part sinks_config_part;
/* c's [Sinks] state; NULL when no file gives such a section. */
static inline const struct sinks_config *sinks_config_get(const struct config *c)
{
	return config_part_state(c, &sinks_config_part);
}

/* The effective settings of a config (which may have no [Sinks] section: c->sinks NULL). */
bool sinks_prometheus_on(const struct config *c);
bool sinks_nfd_on(const struct config *c);
/*
 * Whether a run's sink_files() would write a file: a sink that is on and whose directory
 * exists below root (a host without node_exporter or NFD gets none). One directory open
 * each; what reads more for the sinks alone (the host's facts) asks this first.
 */
bool sinks_will_write(const struct config *c, const struct sysroot *root);
/* "<root><dir>/hostprep.prom" and "<root><file>"; malloc'd, NULL on ENOMEM. */
char *sinks_prom_path(const struct config *c, const struct sysroot *root);
char *sinks_nfd_path(const struct config *c, const struct sysroot *root);

/*
 * Text exposition format (node_exporter textfile collector): hostprep_info, the host's
 * facts (hostprep_<kind>_info, core/fact.h), hostprep_ready,
 * hostprep_check{check,object,verdict} (the number of results with those labels),
 * hostprep_last_run_timestamp_seconds, hostprep_last_run_duration_seconds. No timestamps.
 */
int prom_render(const struct report *r, uint64_t duration_usec, char **ret);
/*
 * NFD features.d: "feature.node.kubernetes.io/hostprep.ready=true|false" then
 * "feature.node.kubernetes.io/hostprep.<area>=<worst verdict>" (sink-nfd.c says why the
 * namespace is written out), then "...hostprep.info.<fact>=<value>" for the host's facts.
 */
int nfd_render(const struct report *r, char **ret);
/* The NFD file while no verdict can be published: "...hostprep.ready=false\n". */
extern const char nfd_unpublished[];
/*
 * A Kubernetes label value made of what the host says (a GPU's model, a version): each
 * character outside [A-Za-z0-9._-] becomes '_' (each byte of a UTF-8 character), what is
 * not alphanumeric at either end is dropped, and it is cut at NFD_VALUE_MAX bytes (then
 * trimmed again). "NVIDIA H100 80GB HBM3" -> "NVIDIA_H100_80GB_HBM3". false: nothing is
 * left, no label.
 */
bool nfd_label_value(const char *in, char out[static NFD_VALUE_MAX + 1]);

/*
 * Write each enabled sink whose directory exists, atomically (a dot-file temp in the
 * same directory, fsync, rename); a file that cannot be written is removed, so no stale
 * READY stays, and so is a switched-off sink's file and, for a sink moved away from its
 * default path, the file at the default path. Logs its own warnings; returns 0 unless out of
 * memory: a sink, not a verdict. Only the one publish step calls it (src/core/run-publish.c).
 */
int sink_files(const struct report *r, const struct config *c, const struct sysroot *root,
	       uint64_t duration_usec);
/*
 * A run that cannot publish its verdict leaves no older one (at the configured paths; c
 * NULL: the default ones): the metrics file goes (HostprepMetricsMissing fires), the
 * NFD file says hostprep.ready=false alone (its taint stays). Logs.
 */
void sink_files_remove(const struct config *c, const struct sysroot *root);
