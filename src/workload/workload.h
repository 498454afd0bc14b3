/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "run/config.h"
#include "core/result.h"

/*
 * Pod and workload prerequisites ([Workload]): what a container needs from the host
 * before RDMA works inside it.
 *
 *   [Workload]
 *     MemlockUnits=UNIT...  list; default containerd.service docker.service crio.service
 *                           kubelet.service (a unit that is not installed is skipped)
 *     MinMemlock=infinity|SIZE   SIZE: bytes, or K/M/G/T (base 1024, as systemd); unset: no
 *                           memlock check
 *     DeviceNodes=yes|no    /dev/infiniband nodes present with the kernel's modes (default no)
 *     NetnsMode=any|shared|exclusive   RDMA netns mode of ib_core (default any: not checked)
 *
 * No [Workload] section: the module reads nothing and reports nothing.
 */

#define WORKLOAD_MAX_UNITS     32
#define WORKLOAD_UNIT_NAME_MAX 128 /* well below systemd's 256 */
#define WORKLOAD_INFINITY      UINT64_MAX

enum netns_expect {
	NETNS_ANY,
	NETNS_SHARED,
	NETNS_EXCLUSIVE,
	_NETNS_MAX,
};

struct workload_unit {
	char *name;
	struct origin at; /* .file NULL: a default */
};

struct workload_config {
	struct config_singleton head; /* must come first */
	struct workload_unit *units;
	size_t n_units;
	bool units_set; /* a MemlockUnits= line was seen (else the default list applies) */
	bool min_set;
	uint64_t min_memlock; /* bytes, WORKLOAD_INFINITY for infinity */
	struct origin min_at;
	bool devices;
	struct origin devices_at;
	enum netns_expect netns;
	struct origin netns_at;
};

extern const struct config_part workload_config_part;
/* c's [Workload] state; NULL when no file gives such a section. */
static inline const struct workload_config *workload_config_get(const struct config *c)
{
	return config_part_state(c, &workload_config_part);
}

/* ---- parsers (workload-parse.c), pure ---- */

/* "infinity", "65536", "64K", "8M", "1G", "2T" (base 1024) → bytes; -EINVAL/-ERANGE. */
int workload_parse_size(const char *s, uint64_t *ret);
/* The shortest exact form: "infinity", "8M", "65536"; buf at least 32 bytes. */
const char *workload_format_size(uint64_t v, char *buf, size_t n);
/* ib_core's netns_mode parameter "Y"/"N" (also 1/0) → NETNS_SHARED/EXCLUSIVE, else -EINVAL. */
int workload_parse_netns_mode(const char *s);
const char *netns_expect_to_string(enum netns_expect e);
/* NetnsMode='s names, for its config item. */
extern const struct config_enum_names netns_expect_names;
/* A unit name we accept: [A-Za-z0-9:_.@\-]+ ending in ".service". */
bool workload_unit_name_valid(const char *s);
/*
 * /proc/PID/limits' "Max locked memory" soft limit (fs/proc/base.c proc_pid_limits():
 * "unlimited" or bytes) → bytes, WORKLOAD_INFINITY; -EINVAL without such a line.
 */
int workload_parse_limits_memlock(const char *text, uint64_t *ret);
/* "231:192" → major/minor; -EINVAL otherwise. */
int workload_parse_devnum(const char *s, unsigned *ret_major, unsigned *ret_minor);

/* ---- verdicts (workload-parse.c), pure: what the checks decide from what they read ---- */

/* MinMemlock= met: the soft limit (what a pod's processes get) is at least min. */
bool workload_memlock_enough(uint64_t soft, uint64_t min);
/*
 * A device node's mode and owner against the stock ones (want: 0666 or 0600). strict_open:
 * VERDICT_FAIL when the mode lacks a bit of want (a pod cannot open it). Otherwise
 * VERDICT_WARN when it allows more than want or is not root's. Else VERDICT_PASS.
 */
enum verdict workload_node_mode_verdict(unsigned mode, unsigned uid, unsigned want,
					bool strict_open);

/* ---- checks; each reads fresh and adds its results (never "pass" on a read failure) ---- */

struct run;

int workload_memlock_verify(struct run *run);
/*
 * A unit's LoadState and ActiveState ("loaded", "active"; malloc'd), read from systemd
 * over the system bus as workload.memlock reads it (under --root only from a bus named by
 * DBUS_SYSTEM_BUS_ADDRESS). <0 with *reason (malloc'd) saying why not; -ENOMEM alone.
 */
int workload_unit_state(const struct run *run, const char *unit, char **load, char **active,
			char **reason);
int workload_devices_verify(struct run *run);
int workload_netns_verify(struct run *run);
