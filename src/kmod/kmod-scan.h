/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "kmod/kmod-backend.h"
#include "kmod/kmod-config.h"
#include "kmod/kmod-parse.h"
#include "core/sysroot.h"

/*
 * What the host shows about the configured modules, read under the root:
 * <root>/proc/modules and <root>/sys/module/NAME/... for the kernel's view,
 * libkmod (the backend) for the file modprobe would load now, modprobe.d and
 * the command line for deny-lists, /sys/class/infiniband* and /proc/PID/fd
 * for devices and their users.
 */
enum kmod_state {
	KS_BUILTIN,
	KS_LIVE,
	KS_COMING,
	KS_GOING,
	KS_NOT_LOADED,
	KS_NOT_INSTALLED,
	KS_UNKNOWN, /* err says why */
};

struct kmod_user {
	int pid;
	char comm[32];
	char *node; /* "/dev/infiniband/uverbs0" as the process sees it */
};

struct kmod_rdma_dev {
	char *name;	/* mlx5_0, erdma_0 */
	char *module;	/* the module driving its device (device/driver/module) */
	char *provider; /* the RDMA driver's module on its auxiliary device, or NULL */
	char *uverbs;	/* "uverbs0", NULL when no verbs node is registered */
	bool node;	/* <root>/dev/infiniband/uverbsN exists */
};

/* Whether the device is the module's: it drives the device, or registered it (provider). */
bool kmod_rdma_dev_of(const struct kmod_rdma_dev *d, const char *module);

/* One configured module. */
struct kmod_seen {
	const struct kmod_rule *rule;
	enum kmod_state state;
	int err;
	long refcnt;
	char *holders; /* "a,b" */
	char taint[16];
	char *srcversion, *version; /* of the running module */
	bool ofed_dep;		    /* running, and a user of mlx_compat */
	struct kmod_file_info file; /* what modprobe would load now */
	int file_err;		    /* -ENOENT: no file */
	char *deny_by;		    /* "/etc/modprobe.d/x.conf:3", "the kernel command line ..." */
	char **param_have;	    /* per rule->params; NULL entries when unreadable */
	int *param_err;
	/*
	 * The wanted values are what the next load gets without hostprep.conf: "compat_mode=Y
	 * from /etc/modprobe.d/erdma.conf:3" (another file, or the kernel command line); NULL
	 * otherwise (kmod_persist_scan).
	 */
	char *set_by;
};

struct kmod_host {
	char *proc_modules; /* whole file, NULL when unreadable */
	int proc_modules_err;
	struct kmod_rdma_dev *devs;
	size_t n_devs;
	struct kmod_user *users; /* processes holding /dev/infiniband nodes */
	size_t n_users;
	bool users_scanned;
	bool rdma_cm_node;
	/* ib_uverbs and rdma_ucm, which make the nodes (kmod_host_modules_scan) */
	enum kmod_state uverbs_state, ucm_state;
};

int kmod_host_scan(const struct sysroot *root, struct kmod_host *h);
void kmod_host_done(struct kmod_host *h);
/* The state of ib_uverbs and rdma_ucm, for the remedies of module.devices. */
int kmod_host_modules_scan(const struct sysroot *root, const char *osrelease, struct kmod_host *h);
/* Processes with /dev/infiniband nodes open: only when a reload may need to know. */
int kmod_host_scan_users(const struct sysroot *root, struct kmod_host *h);

/* /sys/module/NAME/initstate: -ENOENT when there is none to read (not loaded, builtin). */
int kmod_sys_state(const struct sysroot *root, const char *name, enum kmod_live_state *ret);
int kmod_seen_scan(const struct sysroot *root, struct kmod_backend *b, const struct kmod_host *h,
		   const struct cmdline *cmd, const char *osrelease, const struct kmod_rule *rule,
		   struct kmod_seen *s);
void kmod_seen_done(struct kmod_seen *s);

bool kmod_state_present(enum kmod_state s); /* builtin or live */
/* "live (refcnt 0)", "deny-listed (by ...)", ... malloc'd */
char *kmod_state_describe(const struct kmod_seen *s, const char *osrelease);
/* "/dev/infiniband/uverbs0" for display, under no root prefix. */
char *kmod_dev_node_display(const struct sysroot *root, const char *node);
