/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/sysroot.h"

/*
 * A reload must never cut the node off (issue 18). Unloading a module takes down every
 * netdev it drives (<root>/sys/class/net/IF/device/driver/module), and with it every
 * device stacked on one (upper_* links: a bond it is a slave of, a VLAN). The unload is
 * refused when one of those interfaces
 *   - carries a default route (<root>/proc/net/route, <root>/proc/net/ipv6_route; not
 *     lo, not a reject route), or
 *   - is the interface the kernel routes an established inbound ssh session through:
 *     a TCP connection to local port 22 in <root>/proc/net/tcp or tcp6 whose peer's
 *     longest-prefix route names it (IPv4, IPv4-mapped and IPv6 peers).
 * What cannot be read is not a pass: an unreadable route table or interface list refuses too.
 */

/* "" when unloading module cuts no management path, else the reason (malloc'd each). */
int kmod_net_guard(const struct sysroot *root, const char *module, char **ret);
