/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/macro.h"

/*
 * Pure parsers for what the kernel and kmod print about modules: names,
 * /proc/modules lines, modinfo "parm"/"parmtype" values, parameter values,
 * modprobe.d "blacklist" lines, modules.builtin, OFED versions. No I/O here,
 * so every parser has a unit test (tests/unit/test_kmod_parse.c).
 */

#define KMOD_NAME_MAX	 56 /* MODULE_NAME_LEN - 1 on 64-bit kernels */
#define KMOD_PARAM_MAX	 64
#define KMOD_VALUE_MAX	 128
#define KMOD_VERSION_MAX 64

/* [A-Za-z0-9_-]{1,56}; '-' becomes '_' as the kernel does. out has KMOD_NAME_MAX + 1 bytes. */
int kmod_name_normalize(const char *in, char *out);
/* A parameter name: [A-Za-z0-9_]{1,64} ('-' is '_' for the kernel too: normalised). */
int kmod_param_name_normalize(const char *in, char *out);
/* Printable ASCII, no blanks, quotes or backslashes, 1-128 characters. */
bool kmod_param_value_valid(const char *s);
/* Like the kernel's kstrtobool: "Y"/"N" (param_get_bool's output) or -EINVAL. */
int kmod_param_bool(const char *s, char *ret);
/* Whether a sysfs value equals a wanted one for a parameter of this modinfo type. */
bool kmod_param_equal(const char *type, const char *have, const char *want);
/*
 * Whether a value libkmod passes at a load ("KEY=VALUE" in modprobe.d or on the kernel
 * command line) gives the wanted one: kmod_param_equal(), and a bare "KEY" (value NULL)
 * is what the kernel makes of it: Y for a bool or invbool (param_set_bool of NULL is
 * "1"), an error for any other type (nothing set).
 */
bool kmod_param_value_gives(const char *type, const char *value, const char *want);

enum kmod_live_state {
	KMOD_STATE_LIVE,
	KMOD_STATE_COMING,
	KMOD_STATE_GOING,
	_KMOD_STATE_MAX,
};

/* One line of /proc/modules: "name size refcnt users, state addr [(taint)]". */
struct proc_module {
	char name[KMOD_NAME_MAX + 1];
	long refcnt; /* -1 when the kernel prints "-" (no unload support) */
	char *users; /* "a,b" (may be ""), malloc'd */
	enum kmod_live_state state;
	char taint[16]; /* "OE" without the parentheses, "" when untainted */
};

int proc_module_parse(const char *line, struct proc_module *ret);
void proc_module_done(struct proc_module *m);
/* state from /sys/module/NAME/initstate ("live", "coming", "going") */
int kmod_initstate_parse(const char *s, enum kmod_live_state *ret);
const char *kmod_live_state_to_string(enum kmod_live_state s);
int kmod_live_state_from_string(const char *s); /* initstate's words; -EINVAL */

/* modinfo "parm" and "parmtype" values are "NAME:TEXT"; ret_name gets a normalised name. */
int modinfo_name_value(const char *value, char *ret_name, const char **ret_text);
/* "a,b,c" contains b (modinfo depends, /proc/modules users). */
bool kmod_list_has(const char *list, const char *name);

/* "blacklist NAME" in modprobe.d syntax; 1 and the normalised name, 0 for other lines. */
int modprobe_blacklist_line(const char *line, char *ret_name);
/* modules.builtin text: one "kernel/.../name.ko" per line. */
bool modules_builtin_has(const char *text, const char *name);
/* module_blacklist=a,b on the kernel command line (value of the last occurrence). */
bool kmod_cmdline_blacklisted(const char *value, const char *name);

/* OFED versions such as 24.10-1.1.4: digits, letters, '.', '-', '_', starting with a digit. */
bool ofed_version_valid(const char *s);
/* strverscmp-like: digit runs numerically, the rest byte by byte. */
int ofed_version_cmp(const char *a, const char *b);
/* osrelease "6.1.0-27-amd64" >= major.minor */
bool kernel_at_least(const char *osrelease, unsigned major, unsigned minor);

enum kmod_path_kind {
	KMOD_PATH_INBOX,   /* kernel/ */
	KMOD_PATH_UPDATES, /* updates/, updates/dkms/ */
	KMOD_PATH_EXTRA,   /* extra/ */
	KMOD_PATH_OTHER,
};
/* Path relative to lib/modules/KVER. */
enum kmod_path_kind kmod_path_kind(const char *relpath);
