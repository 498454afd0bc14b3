/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "run/config.h"
#include "rdma/rdma-counters.h"
#include "rdma/rdma-parse.h"
#include "rdma/rdma-scan.h"
#include "pci/selector.h"

/*
 * [Port:NAME] rules (NAME [A-Za-z0-9_.-]{1,48}); see conf/hostprep.conf.
 *   Select=/Exclude=  list: RDMA device glob, pci:DDDD:BB:DD.F or pci:VVVV:DDDD
 *   Ports=            list of port numbers (default every port)
 *   AllowDown=yes|no  LinkLayer=any|InfiniBand|Ethernet  MinRate=Gb/s (1..3200)
 *   MinWidth=1X|2X|4X|8X|12X  MinMTU=256|512|1024|2048|4096  RoCEv2=yes|no  MinActive=N
 *   Env=yes|no        the rule's passing ports feed rdma.env (default yes)
 *   SocketInterface=  IFNAME[,IFNAME...]: rdma.env's NCCL_SOCKET_IFNAME, as the admin says
 *   HCOLL=yes|no      no: rdma.env turns Open MPI's HCOLL off (default yes: on where it can)
 *   MinFirmware=      dotted version the selected devices' fw_ver must reach
 *   Firmware=         list of fw_ver values accepted (exact)
 *   CounterLimit=     list of NAME=N[:warn|:fail] or NAME=off: the error counters' allowed
 *                     rise since the previous run (rdma-counters.h has the defaults)
 * Lists accumulate, an empty assignment resets; a scalar's empty assignment restores its
 * default. The same section twice in one file is an error; a later file extends the rule.
 */

#define PORT_PREFIX	   "Port:"
#define PORT_NAME_MAX	   48
#define PORT_MAX_RULES	   64
#define PORT_MAX_SELECTORS 64
#define PORT_GLOB_MAX	   64 /* IB_DEVICE_NAME_MAX */
#define RDMA_FW_MAX	   64
#define PORT_MAX_FW	   16
#define PORT_SOCKET_IF_MAX 255

enum port_sel_kind {
	PORT_SEL_GLOB,
	PORT_SEL_PCI_ADDR,
	PORT_SEL_PCI_ID,
};

struct port_sel {
	enum port_sel_kind kind;
	char *text; /* as written (pci: included) */
	struct selector pci;
	struct origin at;
};

struct port_num {
	unsigned num;
	struct origin at;
};

struct port_rule {
	char name[PORT_NAME_MAX + 1];
	struct origin at;
	struct origin select_reset_at; /* an empty Select= that left the list empty */
	struct config_header header;   /* for duplicates within one file */
	bool had_error; /* an error inside the rule was reported: no "needs Select=" too */
	struct port_sel *select, *exclude;
	size_t n_select, n_exclude;
	struct port_num *ports;
	size_t n_ports;
	bool allow_down, roce_v2;
	struct origin allow_down_at, roce_v2_at;
	bool env; /* Env=: default yes; no keeps the rule's ports out of rdma.env */
	struct origin env_at;
	/* SocketInterface=: "" none (rdma.env derives NCCL_SOCKET_IFNAME from the ports) */
	char socket_if[PORT_SOCKET_IF_MAX + 1];
	struct origin socket_if_at;
	bool hcoll; /* HCOLL=: default yes; no turns HCOLL off in rdma.env */
	struct origin hcoll_at;
	enum rdma_link_layer link_layer; /* RDMA_LL_UNKNOWN = any */
	struct origin link_layer_at;
	/* SelectLinkLayer=: only ports of this layer are selected; RDMA_LL_UNKNOWN = any */
	enum rdma_link_layer select_layer;
	struct origin select_layer_at;
	uint32_t min_rate_mbps; /* 0 = no minimum */
	struct origin min_rate_at;
	unsigned min_width, min_mtu, min_active; /* 0 = no minimum */
	struct origin min_width_at, min_mtu_at, min_active_at;
	/* MinFirmware= (dotted numbers, "" none) and Firmware= (the versions accepted) */
	char min_fw[RDMA_FW_MAX];
	struct origin min_fw_at;
	char **fw;
	struct origin *fw_at;
	size_t n_fw;
	/* CounterLimit=: each counter's limit, the default unless limit_at[c] has a line */
	struct rdma_counter_limit limits[_RDMA_CTR_MAX];
	struct origin limit_at[_RDMA_CTR_MAX];
};

struct port_config {
	struct port_rule *rules;
	size_t n_rules;
	size_t cur;
};

extern const struct config_part port_config_part;
/* c's [Port:*] state; NULL when no file gives such a section. */
static inline const struct port_config *port_config_get(const struct config *c)
{
	return config_part_state(c, &port_config_part);
}

bool port_config_is_section(const char *name);
int port_config_section(struct port_config **pc, const char *name, const struct origin *at,
			unsigned file_no);
int port_config_assign(struct port_config *pc, const char *key, const char *value,
		       const struct origin *at);
int port_config_finish(const struct port_config *pc);
void port_config_free(struct port_config *pc);

/* Does the rule select this device (Select matches, no Exclude matches)? */
bool port_rule_selects_device(const struct port_rule *r, const struct rdma_device *d);
bool port_rule_selects_port(const struct port_rule *r, const struct rdma_port *p);
/* "28.39.1002": numbers joined by single dots. */
bool rdma_fw_valid(const char *s);
/* Compare two dotted versions numerically (a shorter one is padded with 0); -EINVAL if one is not.
 */
int rdma_fw_compare(const char *a, const char *b, int *ret);
