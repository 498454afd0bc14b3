/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/result.h"
#include "kmod/kmod-modprobe.h"
#include "kmod/kmod-scan.h"

/*
 * The decisions behind module.* as pure functions over plain data: what the scan read
 * (the module's state, refcnt, holders, parameters, RDMA devices and nodes) and what
 * libkmod answered (the file modprobe would load, kmod_module_get_options()). No I/O and
 * no libkmod here, so unit tests pin every edge (tests/unit/test_kmod_judge.c); the live
 * path (kmod-verify.c, kmod-persist.c) calls the same functions with the answers of the
 * kernel and of libkmod.
 */

/* module.state: pass when live or builtin, skip when Require=no, unknown when unread. */
enum verdict kmod_state_verdict(const struct kmod_seen *s);

/* "refcnt 1, holders a, pid 4242 (ib_send_bw) holds /dev/infiniband/uverbs0"; "" unused. */
char *kmod_users_describe(const struct kmod_host *h, const struct kmod_seen *s);

/* The file modprobe would load declares the parameter (modinfo parm/parmtype). */
bool param_declared(const struct kmod_seen *s, const char *key);
/* The modinfo parmtype of key in the file modprobe would load ("" none, NULL no file). */
const char *param_type(const struct kmod_seen *s, const char *key);
/* The running value of rule->params[i] is the wanted one (compared by modinfo type). */
bool param_ok(const struct kmod_seen *s, size_t i);

enum kmod_param_judgement {
	KP_NOT_LOADED, /* nothing to compare: module.state says why */
	KP_MISSING,    /* the module has no such parameter (mainline erdma: compat_mode) */
	KP_UNREADABLE, /* declared, but its sysfs file cannot be read */
	KP_OK,
	KP_WRONG,
};

/* rule->params[i] against the running module, compared by the modinfo type. */
enum kmod_param_judgement kmod_param_judge(const struct kmod_seen *s, size_t i);
/* A reload can fix it: live, Reload=unused, and every wrong parameter is one the file has. */
bool kmod_reload_fixes(const struct kmod_seen *s);

/* The file modprobe would load is MLNX_OFED's: it depends on mlx_compat (or is it). */
bool kmod_file_is_ofed(const struct kmod_seen *s, const char *rel);
/*
 * module.origin's remedy when what runs is not of origin want (rel: the file's path below
 * lib/modules/KVER): a reload when the file on disk already is, else the install or removal.
 */
int kmod_origin_remedy(const struct kmod_seen *s, const char *rel, enum kmod_origin want,
		       char **ret);
/*
 * module.version's remedy: stack, the kernel's own RDMA stack runs while OFED's is on disk
 * (module.stack); a reload when the file on disk has a good version; else install MLNX_OFED.
 */
const char *kmod_version_remedy(const struct kmod_seen *s, bool stack, bool live);

/* What says how GPU memory reaches the NIC ([GPUDirect]). */
struct gpudirect_facts {
	bool peermem_live;
	char *nv_mem; /* memory_peers/nv_mem/version, NULL when absent */
	bool kernel_ok;
	int nvidia; /* 1 open kernel module, 0 proprietary, -1 no NVIDIA driver */
};

/* gpudirect's remedy: only what is missing (peermem loaded but unregistered, the kernel, the
 * module). */
int kmod_gpudirect_remedy(const struct gpudirect_facts *g, enum gpudirect_expect e, char **ret);

/* A verdict with what a result shows; actual and remedy malloc'd (remedy NULL: none). */
struct kmod_judgement {
	enum verdict verdict;
	const char *expected;
	char *actual;
	char *remedy;
};

void kmod_judgement_done(struct kmod_judgement *j);

/* What module.devices expects for the rule (Devices=, RdmaCM=). */
const char *kmod_devices_expected(const struct kmod_rule *rule);
/*
 * module.devices of a loaded module: with Devices=yes, at least one RDMA device driven by
 * it, each with its uverbs device and /dev/infiniband/uverbsN node; with RdmaCM=yes,
 * /dev/infiniband/rdma_cm. The remedy names only what is missing, by what is missing
 * (ib_uverbs or rdma_ucm not loaded, or loaded and the node absent).
 */
int kmod_devices_judge(const struct kmod_host *h, const struct kmod_rule *rule,
		       struct kmod_judgement *ret);

/* ---- what libkmod will pass at the next load (Persist=yes) -------------------------- */

enum persist_hold {
	PERSIST_ABSENT,	 /* nothing sets the key */
	PERSIST_GIVES,	 /* the value the kernel keeps (the last) is the wanted one */
	PERSIST_DIFFERS, /* the last value is another one */
};

struct persist_key {
	enum persist_hold hold;
	const struct modprobe_opt *by; /* the occurrence the kernel keeps; NULL when absent */
	bool by_hostprep;	       /* by is a line of a hostprep.conf of modprobe.d */
};

/* An occurrence from a modprobe.d file named hostprep.conf (hostprep's own). */
bool modprobe_opt_from_hostprep(const struct modprobe_opt *o);
/*
 * key against the walk: the last occurrence wins. without_hostprep: as if hostprep.conf
 * were empty (what the other files and the command line give by themselves). type: the
 * modinfo type (NULL: compared exactly).
 */
void persist_key_judge(const struct modprobe_eval *e, bool without_hostprep, const char *key,
		       const char *type, const char *want, struct persist_key *ret);
/*
 * Persist=yes needs no hostprep.conf line when the other files (or the kernel command line)
 * already give every wanted value: "compat_mode=Y from /etc/modprobe.d/erdma.conf:3" (one
 * "KEY=VALUE from WHERE" per parameter, joined by ", ") into *ret, else NULL. types[i]:
 * the modinfo type of rule->params[i] (NULL entries or a NULL array: exact).
 */
int persist_set_elsewhere(const struct modprobe_eval *e, const struct kmod_rule *rule,
			  const char *const *types, char **ret);
/*
 * libkmod is the oracle of the walk: on the host (host) it must pass exactly the walk's
 * options; under --root it appends the running kernel's command line, not the tree's, so
 * only the files' part is compared.
 */
bool persist_oracle_agrees(bool host, const struct modprobe_eval *e, const char *libkmod);
/*
 * What libkmod passes (its options string) gives the wanted value: 1 yes, 0 no, with the
 * value the kernel keeps in *ret_value (NULL when libkmod passes nothing for key).
 */
int persist_libkmod_gives(const char *libkmod, const char *key, const char *type, const char *want,
			  char **ret_value);
