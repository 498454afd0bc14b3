/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"
#include "kmod/kmod-parse.h"

/*
 * The kernel-module part of the configuration: [Module:NAME] and
 * [GPUDirect]. config.c lexes the files and hands these sections' events
 * here; every problem is logged as "file:line: reason" and returned as
 * -EINVAL, which config.c counts like its own errors (exit 2, nothing done).
 *
 *   [Module:NAME]   NAME [A-Za-z0-9_-]{1,56}, '-' and '_' the same (kept as '_')
 *     Enabled=yes|no Require=yes|no Load=yes|no Persist=yes|no Devices=yes|no RdmaCM=yes|no
 *     Parameter=KEY=VALUE...  (list; accumulates; empty assignment resets)
 *     Reload=never|unused  Origin=any|ofed|inbox  MinVersion=V
 *   [GPUDirect]
 *     Expect=any|peermem|dmabuf|either
 */

#define KMOD_MAX_MODULES 64
#define KMOD_MAX_PARAMS	 32 /* per module */

enum kmod_reload {
	KMOD_RELOAD_NEVER,
	KMOD_RELOAD_UNUSED,
	_KMOD_RELOAD_MAX,
};

enum kmod_origin {
	KMOD_ORIGIN_ANY,
	KMOD_ORIGIN_OFED,
	KMOD_ORIGIN_INBOX,
	_KMOD_ORIGIN_MAX,
};

enum gpudirect_expect {
	GPUDIRECT_ANY,
	GPUDIRECT_PEERMEM,
	GPUDIRECT_DMABUF,
	GPUDIRECT_EITHER,
	_GPUDIRECT_MAX,
};

struct kmod_param_want {
	char key[KMOD_PARAM_MAX + 1];
	char *value; /* as written */
	struct origin at;
};

/* A bool key with where it was set (.file NULL: the default). */
struct kmod_flag {
	bool on;
	struct origin at;
};

struct kmod_rule {
	char name[KMOD_NAME_MAX + 1];
	struct origin at; /* first header */
	struct kmod_flag enabled, require, load, persist, devices;
	struct kmod_flag rdmacm; /* /dev/infiniband/rdma_cm must exist (module.devices) */
	enum kmod_reload reload;
	struct origin reload_at;
	enum kmod_origin origin;
	struct origin origin_at;
	char *min_version; /* NULL: none */
	struct origin min_version_at;
	struct kmod_param_want *params;
	size_t n_params;
	struct config_header header; /* for duplicates within one file */
};

struct kmod_config {
	struct kmod_rule *rules;
	size_t n_rules;
	enum gpudirect_expect gpudirect;
	struct origin gpudirect_at;
	bool in_gpudirect; /* the current section is [GPUDirect], else rules[cur] */
	size_t cur;
};

/* Whether a section header belongs here ("Module:..." or "GPUDirect"). */
bool kmod_config_is_section(const char *name);
/* Enter a section; *kc is allocated on first use. -EINVAL (logged) for a bad or duplicate one. */
int kmod_config_section(struct kmod_config **kc, const char *name, const struct origin *at,
			unsigned file_no);
/* A key=value in the current section; -EINVAL (logged) for unknown keys and bad values. */
int kmod_config_assign(struct kmod_config *kc, const char *key, const char *value,
		       const struct origin *at);
/* Contradictions across merged files; -EINVAL (each logged). NULL is fine. */
int kmod_config_finish(const struct kmod_config *kc);
void kmod_config_free(struct kmod_config *kc);

/* list: a list key (values accumulate, an empty assignment resets), for config_dump. */
typedef config_line_fn kmod_config_line_fn;
size_t kmod_config_n_lines(const struct kmod_config *kc);
int kmod_config_lines(const struct kmod_config *kc, kmod_config_line_fn fn, void *userdata);

extern const struct config_part kmod_config_part; /* the above, for src/modules.c */
/* c's [Module:*] and [GPUDirect] state; NULL when no file gives such a section. */
static inline const struct kmod_config *kmod_config_get(const struct config *c)
{
	return config_part_state(c, &kmod_config_part);
}

const char *kmod_reload_to_string(enum kmod_reload r);
const char *kmod_origin_to_string(enum kmod_origin o);
const char *gpudirect_expect_to_string(enum gpudirect_expect e);
/* "KEY=VALUE KEY=VALUE" of a rule's wanted parameters (malloc'd). */
char *kmod_rule_params_string(const struct kmod_rule *rule);
