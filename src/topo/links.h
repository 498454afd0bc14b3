/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "pci/pci.h"
#include "core/sysroot.h"

/*
 * PCIe links, read from the kernel's world-readable sysfs attributes of each function:
 * current_link_speed ("16.0 GT/s PCIe", "8 GT/s" before 4.19-ish kernels, "Unknown" while
 * the link is down), current_link_width ("8", "0" while down), max_link_speed and
 * max_link_width (what that end can do). Conventional PCI functions have none of them.
 *
 * A hop is the physical link between a downstream-facing port (root port, switch
 * downstream port) and the function below it. It is degraded only when it runs below
 * min(port capability, device capability): a x16 card in a x8 slot is fine, a x16 card in
 * a x16 slot trained at x8 is not. Speeds are compared per generation (2.5/5/8/16/32/64
 * GT/s = Gen1..Gen6).
 */

#define LINK_GEN_MAX 6

struct link_attrs {
	bool present; /* any of the four attributes exists: a PCIe function */
	int cur_gen;  /* 1..LINK_GEN_MAX, 0 unknown (link down, unreadable, absent) */
	int max_gen;
	int cur_width; /* lanes, 0 unknown or down */
	int max_width;
};

enum hop_state {
	HOP_OK,
	HOP_DEGRADED, /* narrower than both ends can do (maybe slower too) */
	HOP_SLOW,     /* full width, lower generation than both ends can do */
	HOP_UNKNOWN,  /* the current state or a capability could not be read */
};

struct link_hop {
	char port[PCI_ADDR_LEN]; /* the downstream-facing port above */
	char dev[PCI_ADDR_LEN];	 /* the function below it */
	struct link_attrs port_link, dev_link;
	int cur_gen, cur_width; /* what the link runs at now */
	int cap_gen, cap_width; /* min of both ends' capabilities */
	enum hop_state state;
	/* Absent from bus/pci/devices, read through the device tree (sys/devices/...) */
	bool port_unlisted, dev_unlisted;
};

/* "16.0 GT/s PCIe", "16 GT/s", "2.5 GT/s" -> generation 1..6; "Unknown" -> 0; else -EINVAL. */
int link_parse_speed(const char *s);
/* "16" -> 16; "0" -> 0; else -EINVAL. */
int link_parse_width(const char *s);
/* "16.0 GT/s" for 4; "unknown speed" for 0. */
const char *link_gen_to_string(int gen);

/*
 * The four attributes of inv->devs[i], through its directory (pci_dev_dir()). Missing files
 * leave fields 0; never fails on the device.
 */
int link_read(const struct sysroot *root, const struct pci_inventory *inv, size_t i,
	      struct link_attrs *ret);
/* The same for the function whose directory is dfd (or the error opening it gave). */
int link_read_at(const struct sysroot *root, int dfd, const char *addr, struct link_attrs *ret);

/* Fill cur/cap/state from port_link and dev_link (both already read). */
void link_hop_judge(struct link_hop *h);
/*
 * The hop's one-line description: "16.0 GT/s x8, link can do 16.0 GT/s x16 (port
 * 0000:40:01.1: 16.0 GT/s x16, device: 16.0 GT/s x16)". buf: at least 160 bytes.
 */
const char *link_hop_describe(const struct link_hop *h, char *buf, size_t n);

/*
 * Whether devs[i] faces downstream (a root port or a switch downstream port), i.e. the
 * link below it is a physical hop. From the PCIe Device/Port type when config space told
 * it (load it first: topo_load_path_caps()), else from the tree: a bridge on a root bus is
 * a root port, and below it upstream and downstream ports alternate as in every switch.
 */
bool link_port_faces_down(const struct pci_inventory *inv, size_t i);

/*
 * The hops from devs[ep] up to its root port, nearest first, appended to *hops (grown with
 * realloc) unless already there: two GPUs under one switch share the hop above it, the
 * functions of one card share the hop above them (the first function found names it).
 * The path is the device tree's (the bus/pci/devices link, sys/devices/pciDDDD:BB/...), so
 * a bridge missing from bus/pci/devices (and from the inventory) does not cut it: its
 * hops are read through the tree, its role comes from its place (as for an unprivileged
 * read), and a hop whose end cannot be read there is HOP_UNKNOWN, never left out. Without
 * such a link (a tree of plain directories) the inventory's parents are walked.
 */
int link_hops_collect(const struct sysroot *root, const struct pci_inventory *inv, size_t ep,
		      struct link_hop **hops, size_t *n);

/*
 * The same for many endpoints: the hops collected (hops[0..n)), each port's once, with
 * bus/pci/devices opened once and each listed port's "collected" flag in the inventory's
 * order. link_collect_init(), link_collect_add() per endpoint, link_collect_done() (frees
 * hops too: take them with TAKE_PTR first).
 */
struct link_collect {
	const struct sysroot *root;
	const struct pci_inventory *inv;
	int devices_dfd; /* -EBADF until first used; then an fd or -errno */
	bool *port_done; /* inv->n: a hop below this listed port is collected */
	struct link_hop *hops;
	size_t n, cap;
};

int link_collect_init(struct link_collect *c, const struct sysroot *root,
		      const struct pci_inventory *inv);
int link_collect_add(struct link_collect *c, size_t ep);
void link_collect_done(struct link_collect *c);

/* Order hops by the address of the function below them (report and display order). */
void link_hops_sort(struct link_hop *hops, size_t n);

/* The "PCIe links" section of `hostprep topology` (src/topo/links-show.c). */
struct topo_view;
struct emit;
int links_show(const struct topo_view *v, struct emit *e);
