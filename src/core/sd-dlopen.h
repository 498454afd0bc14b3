/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>

#include "core/dlopen-lib.h"

/*
 * libsystemd (and the libgcrypt, liblzma, libzstd, liblz4 and libcap it links)
 * is loaded with dlopen() the first time a run talks to systemd: the journal
 * sink on the live host (sink-journal.c), [Xid]'s read of the kernel records of
 * this boot where the root has journal files of this boot (src/xid/journal.c), sd_notify
 * under a service manager ($NOTIFY_SOCKET), the system bus ([Workload] LimitMEMLOCK,
 * workload-memlock.c) and the boot wait's event loop (linkwait.c). A health probe's `check --root`,
 * `status` and `config` never map it: linked, its relocations and constructors
 * cost 1.6 ms of every exec on the 2-core machine, 11 % of a 512-function
 * check (issue 11). The package still depends on it (packaging/ names it:
 * dh_shlibdeps cannot see a dlopen'd library). Every call goes through these
 * pointers, including the cleanup helpers below, which sd-bus.h would otherwise
 * define as inlines calling the linked symbols.
 */
#define SYSTEMD_SONAME "libsystemd.so.0"

#define SYSTEMD_SYMS(X)                   \
	X(sd_booted)                      \
	X(sd_notify)                      \
	X(sd_journal_sendv)               \
	X(sd_journal_open_files_fd)       \
	X(sd_journal_add_match)           \
	X(sd_journal_next)                \
	X(sd_journal_get_data)            \
	X(sd_journal_get_monotonic_usec)  \
	X(sd_journal_close)               \
	X(sd_bus_open_system)             \
	X(sd_bus_set_method_call_timeout) \
	X(sd_bus_flush_close_unref)       \
	X(sd_bus_call_method)             \
	X(sd_bus_message_read)            \
	X(sd_bus_message_unref)           \
	X(sd_bus_get_property_string)     \
	X(sd_bus_get_property_trivial)    \
	X(sd_bus_error_free)              \
	X(sd_bus_error_has_name)          \
	X(sd_bus_error_is_set)            \
	X(sd_event_new)                   \
	X(sd_event_unref)                 \
	X(sd_event_loop)                  \
	X(sd_event_exit)                  \
	X(sd_event_add_io)                \
	X(sd_event_add_time)              \
	X(sd_event_add_time_relative)     \
	X(sd_event_source_unref)          \
	X(sd_event_source_set_floating)   \
	X(sd_event_source_set_enabled)    \
	X(sd_event_source_set_priority)   \
	X(sd_event_source_set_io_fd_own)  \
	X(sd_event_source_set_time)

SYSTEMD_SYMS(DLOPEN_DECLARE)

/*
 * Load it once per process and resolve every symbol above: 0, or -EOPNOTSUPP,
 * logged once at the given level (LOG_DEBUG where a fallback exists, e.g. the
 * journal sink's stderr line).
 */
int dlopen_libsystemd(int level);

static inline void sd_bus_flush_close_unrefp_dl(sd_bus **b)
{
	if (*b)
		sym_sd_bus_flush_close_unref(*b);
}

static inline void sd_bus_message_unrefp_dl(sd_bus_message **m)
{
	if (*m)
		sym_sd_bus_message_unref(*m);
}

static inline void sd_bus_error_free_dl(sd_bus_error *e)
{
	sym_sd_bus_error_free(e);
}
