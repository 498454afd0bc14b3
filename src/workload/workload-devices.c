// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload.devices: the character devices a pod needs to use RDMA, as the device plugin
 * passes them in: /dev/infiniband/uverbsN (verbs), rdma_cm (librdmacm), umadN/issmN
 * (management datagrams, subnet manager). Each must be a character device with the
 * major:minor its sysfs "dev" attribute says, and the mode a stock host gives it.
 *
 * Modes: rdma-core's udev rules set none (kernel-boot/rdma-umad.rules, installed as
 * 90-rdma-umad.rules, only tags umad devices for systemd; there is no permissions rule
 * in upstream rdma-core — 91-ib-permissions.rules is an OFED/admin file). The modes come
 * from the kernel's devnode callbacks that devtmpfs and udev apply: ib_uverbs'
 * uverbs_devnode() and rdma_ucm's misc device give 0666 (verbs are safe for any user:
 * the kernel checks every object), ib_umad gives the default 0600 root (MADs can
 * reconfigure the fabric).
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "core/fileio.h"
#include "run/run.h"
#include "workload/workload.h"

#define CHECK "workload.devices"

struct node_want {
	const char *name;  /* "uverbs0" */
	const char *class; /* "infiniband_verbs", "infiniband_mad", "misc" */
	mode_t mode;	   /* 0666 or 0600 */
	bool strict_open;  /* mode must allow at least this (else: must not allow more) */
};

/* The node path as the admin knows it (the DEV top without the root prefix), whatever --root is. */
static char *node_display(const struct run *run, const char *name)
{
	_cleanup_(freep) char *full = sysroot_path(run->root, SYSROOT_DEV, "infiniband/%s", name);

	return full ? strdup(sysroot_strip(run->root, full)) : NULL;
}

static int read_devnum(const struct run *run, const struct node_want *w, unsigned *ma, unsigned *mi,
		       char **reason)
{
	_cleanup_(freep) char *path =
		sysroot_path(run->root, SYSROOT_SYS, "class/%s/%s/dev", w->class, w->name);
	_cleanup_(freep) char *line = NULL;
	int r;

	if (!path)
		return -ENOMEM;
	r = sysroot_read_attr(run->root, SYSROOT_SYS, &line, "class/%s/%s/dev", w->class, w->name);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return asprintf(reason, "cannot read %s: %s", sysroot_strip(run->root, path),
				strerror(-r)) < 0
			       ? -ENOMEM
			       : r;
	if (workload_parse_devnum(line, ma, mi) < 0)
		return asprintf(reason, "%s holds '%s', not MAJOR:MINOR",
				sysroot_strip(run->root, path), line) < 0
			       ? -ENOMEM
			       : -EINVAL;
	return 0;
}

static const char *file_kind(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISBLK(m))
		return "a block device";
	return "not a device";
}

/* Mode and owner against the stock ones: too closed for verbs breaks pods (fail), too
 * open for MAD devices is a security smell (warn). */
static int judge_mode(struct run *run, const struct node_want *w, const char *obj,
		      const char *expected, const struct stat *st)
{
	mode_t m = st->st_mode & 07777;
	enum verdict v = workload_node_mode_verdict(m, st->st_uid, w->mode, w->strict_open);

	if (v == VERDICT_FAIL)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_FAIL,
					    .check = CHECK,
					    .object = obj,
					    .expected = expected,
					    .remedy = "restore mode 0666 (look for a local rule in "
						      "/etc/udev/rules.d that overrides it), then "
						      "udevadm trigger",
					    .action = ACTION_CONFIG,
				    },
				    "mode %04o: a pod that does not run as root cannot open it",
				    (unsigned)m);
	if (v == VERDICT_WARN)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_WARN,
					    .check = CHECK,
					    .object = obj,
					    .expected = expected,
					    .remedy = "unless unprivileged fabric management is "
						      "wanted, restore root-only 0600 (remove the "
						      "local udev rule), then udevadm trigger",
					    .action = ACTION_CONFIG,
				    },
				    "mode %04o owner uid %u: users other than root can send "
				    "management datagrams",
				    (unsigned)m, (unsigned)st->st_uid);
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_PASS,
				    .check = CHECK,
				    .object = obj,
				    .expected = expected,
			    },
			    "c %u:%u mode %04o", major(st->st_rdev), minor(st->st_rdev),
			    (unsigned)m);
}

static int judge_node(struct run *run, const struct node_want *w, const char *obj,
		      const char *expected, unsigned ma, unsigned mi)
{
	struct stat st;
	int err = sysroot_stat(run->root, SYSROOT_DEV, 0, &st, "infiniband/%s", w->name);

	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		err = -err;
		if (err == ENOENT)
			return results_add(
				&run->results,
				&(const struct result_spec){
					.verdict = VERDICT_FAIL,
					.check = CHECK,
					.object = obj,
					.expected = expected,
					.actual = "missing: udev did not create it",
					.remedy = "is rdma-core installed? then: udevadm trigger "
						  "--action=add && udevadm settle",
					.action = ACTION_DRIVER,
				});
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK,
					    .object = obj,
					    .expected = expected,
					    .action = ACTION_INSPECT,
				    },
				    "cannot stat it: %s", strerror(err));
	}
	if (!S_ISCHR(st.st_mode))
		return results_addf(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = CHECK,
				.object = obj,
				.expected = expected,
				.remedy = "remove it, then: udevadm trigger --action=add",
				.action = ACTION_CONFIG,
			},
			"%s, not a character device", file_kind(st.st_mode));
	if (major(st.st_rdev) != ma || minor(st.st_rdev) != mi)
		return results_addf(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = CHECK,
				.object = obj,
				.expected = expected,
				.remedy =
					"remove the stale node, then: udevadm trigger --action=add",
				.action = ACTION_CONFIG,
			},
			"c %u:%u, but the kernel's device is %u:%u (a stale node)",
			major(st.st_rdev), minor(st.st_rdev), ma, mi);
	return judge_mode(run, w, obj, expected, &st);
}

static int check_node(struct run *run, const struct node_want *w)
{
	_cleanup_(freep) char *obj = node_display(run, w->name), *reason = NULL;
	char expected[64];
	unsigned ma, mi;
	int r;

	if (!obj)
		return -ENOMEM;
	r = read_devnum(run, w, &ma, &mi, &reason);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_UNKNOWN,
							  .check = CHECK,
							  .object = obj,
							  .expected = "a character device",
							  .actual = reason,
							  .action = ACTION_INSPECT,
						  });
	snprintf(expected, sizeof(expected), "c %u:%u mode %04o%s", ma, mi, (unsigned)w->mode,
		 w->strict_open ? "" : " root");
	return judge_node(run, w, obj, expected, ma, mi);
}

/* Whether name is one of the NULL-terminated ibdevs. */
static bool ibdev_listed(char **ibdevs, const char *name)
{
	for (char **p = ibdevs; *p; p++)
		if (streq(*p, name))
			return true;
	return false;
}

/* The names in <sys>/class/CLASS (dot entries skipped), NULL-terminated; -ENOENT if absent. */
static int list_class(const struct run *run, const char *class, char ***ret)
{
	_cleanup_(closedirp) DIR *d = NULL;
	char **v = calloc(1, sizeof(char *));
	size_t n = 0;
	struct dirent *de;
	int r;

	if (!v)
		return -ENOMEM;
	r = sysroot_opendir(run->root, SYSROOT_SYS, &d, "class/%s", class);
	if (r < 0) {
		free(v);
		return r;
	}
	while ((de = readdir(d))) {
		char **grown;

		if (de->d_name[0] == '.')
			continue;
		grown = reallocarray(v, n + 2, sizeof(char *));
		if (!grown || !(grown[n] = strdup(de->d_name))) {
			strv_free(grown ? grown : v);
			return -ENOMEM;
		}
		grown[++n] = NULL;
		v = grown;
	}
	*ret = v;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void strv_sort(char **v)
{
	size_t n = 0;

	while (v[n])
		n++;
	qsort(v, n, sizeof(char *), cmp_str);
}

/* The RDMA device a uverbs/umad/issm node belongs to (its "ibdev" attribute). */
static int node_ibdev(const struct run *run, const char *class, const char *name, char **ret)
{
	return sysroot_read_attr(run->root, SYSROOT_SYS, ret, "class/%s/%s/ibdev", class, name);
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strneq(s, prefix, strlen(prefix));
}

/*
 * Every node of a class whose name starts with one of the prefixes and whose ibdev is
 * one of ours; *found counts them per ibdev index. An unreadable ibdev is unknown.
 */
static int check_class(struct run *run, const char *class, const char *const *prefixes,
		       char **ibdevs, unsigned *found)
{
	char **names = NULL;
	int r = list_class(run, class, &names);

	if (r < 0)
		return r;
	strv_sort(names);
	for (char **p = names; r >= 0 && *p; p++) {
		const char *const *pre = prefixes;
		_cleanup_(freep) char *ibdev = NULL, *obj = NULL;

		while (*pre && !has_prefix(*p, *pre))
			pre++;
		if (!*pre)
			continue; /* abi_version and the like */
		r = node_ibdev(run, class, *p, &ibdev);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			obj = node_display(run, *p);
			r = obj ? results_addf(&run->results,
					       &(const struct result_spec){
						       .verdict = VERDICT_UNKNOWN,
						       .check = CHECK,
						       .object = obj,
						       .expected = "a character device",
						       .action = ACTION_INSPECT,
					       },
					       "cannot tell which RDMA device it belongs to: %s",
					       strerror(-r))
				: -ENOMEM;
			continue;
		}
		if (!ibdev_listed(ibdevs, ibdev))
			continue;
		for (size_t i = 0; ibdevs[i]; i++)
			if (streq(ibdevs[i], ibdev))
				found[i]++;
		r = check_node(run,
			       &(struct node_want){ .name = *p,
						    .class = class,
						    .mode = streq(*pre, "uverbs") ? 0666 : 0600,
						    .strict_open = streq(*pre, "uverbs") });
	}
	strv_free(names);
	return r;
}

/* ib_uverbs in the kernel (loaded or built in): never "load ib_uverbs" while it is. */
static bool uverbs_there(struct run *run)
{
	struct stat st;

	return sysroot_stat(run->root, SYSROOT_SYS, 0, &st, "module/ib_uverbs") >= 0;
}

/*
 * A device without its verbs node: ib_uverbs is not loaded, or it runs and the device
 * registered none (its driver's business: never "load ib_uverbs" while it runs).
 */
static int missing_verbs(struct run *run, const char *obj, const char *dev, bool uverbs)
{
	_cleanup_(freep) char *remedy = NULL;

	if (uverbs && asprintf(&remedy,
			       "see why %s registered no verbs device (dmesg; a soft device "
			       "without verbs, or its driver failed part-way); reloading its "
			       "driver or a reboot registers it",
			       dev) < 0)
		return -ENOMEM;
	return results_addf(
		&run->results,
		&(const struct result_spec){
			.verdict = VERDICT_FAIL,
			.check = CHECK,
			.object = obj,
			.expected = "one per RDMA device",
			.remedy = uverbs ? remedy
					 : "modprobe ib_uverbs (rdma-core loads it at "
					   "boot through rdma-load-modules@rdma.service)",
			.action = ACTION_DRIVER,
		},
		"%s has no verbs device%s", dev,
		uverbs ? " although ib_uverbs is loaded" : ": ib_uverbs is not loaded");
}

static int check_verbs(struct run *run, char **ibdevs, unsigned *found)
{
	static const char *const prefixes[] = { "uverbs", NULL };
	_cleanup_(freep) char *obj = node_display(run, "uverbs*");
	int r, uverbs = -1; /* read once, and only when a node is missing */

	if (!obj)
		return -ENOMEM;
	r = check_class(run, "infiniband_verbs", prefixes, ibdevs, found);
	if (r < 0 && r != -ENOENT)
		return r == -ENOMEM
			       ? r
			       : results_addf(&run->results,
					      &(const struct result_spec){
						      .verdict = VERDICT_UNKNOWN,
						      .check = CHECK,
						      .object = obj,
						      .expected = "one per RDMA device",
						      .action = ACTION_INSPECT,
					      },
					      "cannot list the verbs devices: %s", strerror(-r));
	for (size_t i = 0; ibdevs[i]; i++) {
		if (found[i])
			continue;
		if (uverbs < 0)
			uverbs = uverbs_there(run);
		r = missing_verbs(run, obj, ibdevs[i], uverbs);
		if (r < 0)
			return r;
	}
	return 0;
}

/* umad/issm exist only with ib_umad, which only fabric management tools need. */
static int check_mad(struct run *run, char **ibdevs, unsigned *found)
{
	static const char *const prefixes[] = { "umad", "issm", NULL };
	_cleanup_(freep) char *obj = node_display(run, "umad*");
	int r;

	if (!obj)
		return -ENOMEM;
	r = check_class(run, "infiniband_mad", prefixes, ibdevs, found);
	if (r == -ENOENT)
		return results_add(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_SKIP,
				.check = CHECK,
				.object = obj,
				.expected = "umadN and issmN",
				.actual = "ib_umad is not loaded: no management datagram devices "
					  "(only ibstat, opensm and other fabric tools need them)",
				.action = ACTION_NONE,
			});
	if (r < 0 && r != -ENOMEM)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK,
					    .object = obj,
					    .expected = "umadN and issmN",
					    .action = ACTION_INSPECT,
				    },
				    "cannot list the MAD devices: %s", strerror(-r));
	return r;
}

/* No misc/rdma_cm in sysfs: rdma_ucm not loaded, or a sysfs we cannot make sense of. */
static int rdma_cm_absent(struct run *run, const char *obj)
{
	int r = sysroot_exists(run->root, SYSROOT_SYS, "module/rdma_ucm");

	if (r == -ENOMEM)
		return r;
	if (r == 0)
		return results_add(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = CHECK,
				.object = obj,
				.expected = "a character device",
				.actual =
					"rdma_ucm is not loaded: the kernel has no rdma_cm device",
				.remedy = "modprobe rdma_ucm (rdma-core loads it at boot through "
					  "rdma-load-modules@rdma.service)",
				.action = ACTION_DRIVER,
			});
	return results_add(
		&run->results,
		&(const struct result_spec){
			.verdict = VERDICT_UNKNOWN,
			.check = CHECK,
			.object = obj,
			.expected = "a character device",
			.actual = "rdma_ucm is loaded, but sysfs has no class/misc/rdma_cm",
			.action = ACTION_INSPECT,
		});
}

static int check_rdma_cm(struct run *run)
{
	_cleanup_(freep) char *obj = node_display(run, "rdma_cm");
	int r = sysroot_exists(run->root, SYSROOT_SYS, "class/misc/rdma_cm");

	if (!obj || r == -ENOMEM)
		return -ENOMEM;
	if (r == 0)
		return rdma_cm_absent(run, obj);
	return check_node(run, &(struct node_want){ .name = "rdma_cm",
						    .class = "misc",
						    .mode = 0666,
						    .strict_open = true });
}

int workload_devices_verify(struct run *run)
{
	_cleanup_(freep) char *top = node_display(run, "");
	_cleanup_(freep) unsigned *found = NULL;
	char **ibdevs = NULL;
	size_t n = 0;
	int r;

	if (!workload_config_get(run->cfg)->devices)
		return 0;
	if (!top)
		return -ENOMEM;
	top[strlen(top) - 1] = '\0'; /* the infiniband folder itself, without the root prefix */
	r = list_class(run, "infiniband", &ibdevs);
	if (r == -ENOMEM)
		return r;
	if (r < 0 && r != -ENOENT)
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = CHECK,
					    .object = top,
					    .expected = "nodes for every RDMA device",
					    .action = ACTION_INSPECT,
				    },
				    "cannot list the RDMA devices: %s", strerror(-r));
	while (r >= 0 && ibdevs[n])
		n++;
	if (n == 0) {
		strv_free(ibdevs);
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_SKIP,
							  .check = CHECK,
							  .object = top,
							  .expected = "nodes for every RDMA device",
							  .actual = "no RDMA device",
							  .action = ACTION_NONE,
						  });
	}
	strv_sort(ibdevs);
	found = calloc(n, sizeof(*found));
	r = found ? check_verbs(run, ibdevs, found) : -ENOMEM;
	if (r >= 0)
		r = check_rdma_cm(run);
	if (r >= 0) {
		memset(found, 0, n * sizeof(*found));
		r = check_mad(run, ibdevs, found);
	}
	strv_free(ibdevs);
	return r;
}
