// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload.memlock: the RLIMIT_MEMLOCK a container runtime hands to its pods is its own
 * unit's LimitMEMLOCK= (containers inherit it; containerd's unit often leaves the 8 MiB
 * default), and RDMA memory registration inside a pod fails with "Couldn't allocate MR"
 * below what it registers. Read from systemd over the system bus, never from unit files:
 * drop-ins, presets and the manager's DefaultLimitMEMLOCK= all end up in the property.
 */
#include "run/run.h"
#include "core/sd-dlopen.h"
#include "workload/workload.h"

#define SD_DEST		 "org.freedesktop.systemd1"
#define SD_PATH		 "/org/freedesktop/systemd1"
#define SD_MANAGER	 "org.freedesktop.systemd1.Manager"
#define SD_UNIT		 "org.freedesktop.systemd1.Unit"
#define SD_SERVICE	 "org.freedesktop.systemd1.Service"
#define BUS_TIMEOUT_USEC (5ULL * 1000000) /* a stuck bus must not stall a boot for 25 s each */

struct unit_seen {
	char *load_state;
	char *active_state;
	uint64_t hard, soft;
	uint32_t main_pid; /* 0: none running (or a systemd that does not say) */
};

static void unit_seen_done(struct unit_seen *u)
{
	free(u->load_state);
	free(u->active_state);
}

/*
 * The bus of the host we look at. Under --root that is not the bus of this machine, so
 * only an address given explicitly (DBUS_SYSTEM_BUS_ADDRESS, e.g. a test's private bus)
 * is used there. Returns a reason sentence (malloc'd) in *reason on failure.
 */
static int open_bus(const struct run *run, sd_bus **ret, char **reason)
{
	const char *addr = getenv("DBUS_SYSTEM_BUS_ADDRESS");
	sd_bus *bus = NULL;
	int r;

	if (!sysroot_is_host(run->root) && !addr) {
		*reason = strdup("no system bus under --root (set DBUS_SYSTEM_BUS_ADDRESS to "
				 "read that host's systemd)");
		return *reason ? -ENXIO : -ENOMEM;
	}
	r = dlopen_libsystemd(LOG_DEBUG);
	if (r < 0) {
		*reason = strdup("cannot load " SYSTEMD_SONAME " (install libsystemd0 or "
				 "systemd-libs) to ask systemd over the system bus");
		return *reason ? r : -ENOMEM;
	}
	r = sym_sd_bus_open_system(&bus);
	if (r >= 0)
		r = sym_sd_bus_set_method_call_timeout(bus, BUS_TIMEOUT_USEC);
	if (r < 0) {
		sym_sd_bus_flush_close_unref(bus);
		if (asprintf(reason, "cannot connect to the system bus%s%s: %s", addr ? " at " : "",
			     strempty(addr), strerror(-r)) < 0)
			return -ENOMEM;
		return r;
	}
	*ret = bus;
	return 0;
}

/* The unit's object path: GetUnit, or LoadUnit for a unit the manager has not loaded. */
static int unit_path(sd_bus *bus, const char *unit, char **ret, sd_bus_error *e)
{
	_cleanup_(sd_bus_message_unrefp_dl) sd_bus_message *reply = NULL;
	const char *path;
	int r;

	r = sym_sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER, "GetUnit", e, &reply, "s",
				   unit);
	if (r < 0 && sym_sd_bus_error_has_name(e, "org.freedesktop.systemd1.NoSuchUnit")) {
		sym_sd_bus_error_free(e);
		r = sym_sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER, "LoadUnit", e, &reply,
					   "s", unit);
	}
	if (r < 0)
		return r;
	r = sym_sd_bus_message_read(reply, "o", &path);
	if (r < 0)
		return r;
	*ret = strdup(path);
	return *ret ? 0 : -ENOMEM;
}

static int read_unit(sd_bus *bus, const char *unit, struct unit_seen *u, sd_bus_error *e)
{
	_cleanup_(freep) char *path = NULL;
	int r;

	r = unit_path(bus, unit, &path, e);
	if (r >= 0)
		r = sym_sd_bus_get_property_string(bus, SD_DEST, path, SD_UNIT, "LoadState", e,
						   &u->load_state);
	if (r >= 0)
		r = sym_sd_bus_get_property_string(bus, SD_DEST, path, SD_UNIT, "ActiveState", e,
						   &u->active_state);
	if (r < 0 || !streq(u->load_state, "loaded"))
		return r;
	r = sym_sd_bus_get_property_trivial(bus, SD_DEST, path, SD_SERVICE, "LimitMEMLOCK", e, 't',
					    &u->hard);
	if (r < 0)
		return r;
	r = sym_sd_bus_get_property_trivial(bus, SD_DEST, path, SD_SERVICE, "LimitMEMLOCKSoft", e,
					    't', &u->soft);
	/* A systemd without the *Soft properties has soft = hard. */
	if (r < 0 && sym_sd_bus_error_has_name(e, SD_BUS_ERROR_UNKNOWN_PROPERTY)) {
		sym_sd_bus_error_free(e);
		u->soft = u->hard;
		r = 0;
	}
	if (r < 0)
		return r;
	r = sym_sd_bus_get_property_trivial(bus, SD_DEST, path, SD_SERVICE, "MainPID", e, 'u',
					    &u->main_pid);
	if (r < 0 && sym_sd_bus_error_has_name(e, SD_BUS_ERROR_UNKNOWN_PROPERTY)) {
		sym_sd_bus_error_free(e);
		u->main_pid = 0;
		r = 0;
	}
	return r;
}

/*
 * The running main process's soft limit, which is what its pods inherit: a daemon-reload
 * changes the unit's property at once, the process only at its restart. -errno: not read.
 */
static int process_memlock(const struct run *run, uint32_t pid, uint64_t *ret)
{
	_cleanup_(freep) char *text = NULL;
	int r = sysroot_read_file(run->root, SYSROOT_PROC, 16384, &text, NULL, "%" PRIu32 "/limits",
				  pid);

	return r < 0 ? r : workload_parse_limits_memlock(text, ret);
}

/* "LimitMEMLOCK=8M (active)", or with systemd's own soft:hard form when they differ. */
static void limit_text(const struct unit_seen *u, char *buf, size_t n)
{
	char s[32], h[32];

	workload_format_size(u->soft, s, sizeof(s));
	workload_format_size(u->hard, h, sizeof(h));
	if (u->soft == u->hard)
		snprintf(buf, n, "LimitMEMLOCK=%s (%s)", s, u->active_state);
	else
		snprintf(buf, n, "LimitMEMLOCK=%s:%s (soft:hard, %s)", s, h, u->active_state);
}

/* The unit says enough, its running process has less: the new limit waits for a restart. */
static int not_restarted(struct run *run, const char *unit, const struct unit_seen *u,
			 const char *limit, uint64_t running, uint64_t min, const char *expected)
{
	_cleanup_(freep) char *remedy = NULL;
	char has[32], m[32];

	if (asprintf(&remedy,
		     "systemctl restart %s (its running process keeps the limit it "
		     "started with)",
		     unit) < 0)
		return -ENOMEM;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "workload.memlock",
				    .object = unit,
				    .expected = expected,
				    .remedy = remedy,
				    .action = ACTION_CONFIG,
			    },
			    "%s, but its running process (MainPID %" PRIu32 ") has %s, below "
			    "MinMemlock=%s: not restarted since the limit changed; its pods get %s",
			    limit, u->main_pid, workload_format_size(running, has, sizeof(has)),
			    workload_format_size(min, m, sizeof(m)), has);
}

static int verdict_for(struct run *run, const char *unit, const struct unit_seen *u, uint64_t min,
		       const char *expected)
{
	_cleanup_(freep) char *remedy = NULL;
	char limit[128], m[32], soft[32];
	uint64_t running;

	workload_format_size(u->soft, soft, sizeof(soft));
	if (streq(u->load_state, "not-found"))
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_SKIP,
							  .check = "workload.memlock",
							  .object = unit,
							  .expected = expected,
							  .actual = "not installed",
							  .action = ACTION_NONE,
						  });
	if (streq(u->load_state, "masked"))
		return results_add(&run->results, &(const struct result_spec){
							  .verdict = VERDICT_SKIP,
							  .check = "workload.memlock",
							  .object = unit,
							  .expected = expected,
							  .actual = "masked: it does not run",
							  .action = ACTION_NONE,
						  });
	if (!streq(u->load_state, "loaded")) {
		if (asprintf(&remedy, "fix the unit (systemctl status %s)", unit) < 0)
			return -ENOMEM;
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_UNKNOWN,
					    .check = "workload.memlock",
					    .object = unit,
					    .expected = expected,
					    .remedy = remedy,
					    .action = ACTION_CONFIG,
				    },
				    "systemd cannot load the unit (LoadState=%s)", u->load_state);
	}
	limit_text(u, limit, sizeof(limit));
	if (workload_memlock_enough(u->soft, min) && u->main_pid &&
	    process_memlock(run, u->main_pid, &running) >= 0 &&
	    !workload_memlock_enough(running, min))
		return not_restarted(run, unit, u, limit, running, min, expected);
	if (workload_memlock_enough(u->soft, min))
		return results_addf(&run->results,
				    &(const struct result_spec){
					    .verdict = VERDICT_PASS,
					    .check = "workload.memlock",
					    .object = unit,
					    .expected = expected,
				    },
				    "%s", limit);
	if (asprintf(&remedy,
		     "create /etc/systemd/system/%s.d/50-memlock.conf containing \"[Service]\" and "
		     "\"LimitMEMLOCK=infinity\", then: systemctl daemon-reload && systemctl "
		     "restart %s",
		     unit, unit) < 0)
		return -ENOMEM;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "workload.memlock",
				    .object = unit,
				    .expected = expected,
				    .remedy = remedy,
				    .action = ACTION_CONFIG,
			    },
			    "%s: pods get %s, below MinMemlock=%s; RDMA in them fails with "
			    "\"Couldn't allocate MR\"",
			    limit, soft, workload_format_size(min, m, sizeof(m)));
}

static int check_unit(struct run *run, sd_bus *bus, const char *unit, uint64_t min,
		      const char *expected)
{
	_cleanup_(sd_bus_error_free_dl) sd_bus_error e = SD_BUS_ERROR_NULL;
	struct unit_seen u = {};
	int r;

	r = read_unit(bus, unit, &u, &e);
	if (r == -ENOMEM) {
		unit_seen_done(&u);
		return r;
	}
	if (r < 0)
		r = results_addf(&run->results,
				 &(const struct result_spec){
					 .verdict = VERDICT_UNKNOWN,
					 .check = "workload.memlock",
					 .object = unit,
					 .expected = expected,
					 .remedy = "check that systemd answers on the system bus "
						   "(busctl status)",
					 .action = ACTION_INSPECT,
				 },
				 "cannot read it over D-Bus: %s",
				 sym_sd_bus_error_is_set(&e) ? e.message : strerror(-r));
	else
		r = verdict_for(run, unit, &u, min, expected);
	unit_seen_done(&u);
	return r;
}

int workload_unit_state(const struct run *run, const char *unit, char **load, char **active,
			char **reason)
{
	_cleanup_(sd_bus_flush_close_unrefp_dl) sd_bus *bus = NULL;
	_cleanup_(sd_bus_error_free_dl) sd_bus_error e = SD_BUS_ERROR_NULL;
	_cleanup_(freep) char *path = NULL;
	int r = open_bus(run, &bus, reason);

	*load = *active = NULL;
	if (r < 0)
		return r;
	r = unit_path(bus, unit, &path, &e);
	if (r >= 0)
		r = sym_sd_bus_get_property_string(bus, SD_DEST, path, SD_UNIT, "LoadState", &e,
						   load);
	if (r >= 0)
		r = sym_sd_bus_get_property_string(bus, SD_DEST, path, SD_UNIT, "ActiveState", &e,
						   active);
	if (r >= 0 || r == -ENOMEM)
		return r;
	free(*load);
	*load = NULL;
	if (asprintf(reason, "cannot read %s over D-Bus: %s", unit,
		     sym_sd_bus_error_is_set(&e) ? e.message : strerror(-r)) < 0)
		return -ENOMEM;
	return r;
}

static const char *no_bus_remedy(const struct run *run)
{
	if (!sysroot_is_host(run->root))
		return "run hostprep on that host itself, where systemd answers on the system bus";
	return "check that dbus runs (systemctl status dbus.service) and that hostprep may "
	       "connect (root, or a bus policy that allows it)";
}

int workload_memlock_verify(struct run *run)
{
	const struct workload_config *wc = workload_config_get(run->cfg);
	_cleanup_(sd_bus_flush_close_unrefp_dl) sd_bus *bus = NULL;
	_cleanup_(freep) char *reason = NULL;
	char expected[64], m[32];
	size_t skipped = 0;
	int r;

	if (!wc->min_set || wc->n_units == 0)
		return 0;
	snprintf(expected, sizeof(expected), "LimitMEMLOCK >= %s",
		 workload_format_size(wc->min_memlock, m, sizeof(m)));
	r = open_bus(run, &bus, &reason);
	if (r == -ENOMEM)
		return r;
	for (size_t i = 0; i < wc->n_units; i++) {
		const char *unit = wc->units[i].name;

		if (bus)
			r = check_unit(run, bus, unit, wc->min_memlock, expected);
		else
			r = results_add(&run->results, &(const struct result_spec){
							       .verdict = VERDICT_UNKNOWN,
							       .check = "workload.memlock",
							       .object = unit,
							       .expected = expected,
							       .actual = reason,
							       .remedy = no_bus_remedy(run),
							       .action = ACTION_INSPECT,
						       });
		if (r < 0)
			return r;
		skipped += run->results.items[run->results.n - 1].verdict == VERDICT_SKIP;
	}
	/* Declared means checked: MinMemlock= with no listed unit installed checks nothing. */
	if (skipped == wc->n_units)
		return results_add(
			&run->results,
			&(const struct result_spec){
				.verdict = VERDICT_FAIL,
				.check = "workload.memlock",
				.object = "host",
				.expected = expected,
				.actual = "none of MemlockUnits= is installed (or all are masked): "
					  "MinMemlock= checks nothing here",
				.remedy = "name the units that start this host's containers in "
					  "[Workload] MemlockUnits=, or remove MinMemlock=",
				.action = ACTION_CONFIG,
			});
	return 0;
}
