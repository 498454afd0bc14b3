/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "run/config.h"
#include "pci/pci.h"
#include "pci/selector.h"
#include "core/sysroot.h"

/*
 * PCIe topology from sysfs alone: which functions are GPUs/accelerators and NICs, how far
 * apart two of them are (the classes nvidia-smi and NCCL print), and, for a pair that
 * meets below a PCIe switch, which ports' ACS Control decides whether the pair's
 * peer-to-peer traffic is redirected to the root complex.
 *
 * Everything below except topo_build() and topo_load_caps() is a pure function of the
 * inventory (struct pci_inventory, parents from the sysfs links) and of the endpoint
 * facts topo_build() read, so unit tests run on hand-built inventories.
 *
 *   [Topology]
 *     Accelerators=SELECTOR...  list; replaces the built-in GPU/accelerator classification
 *     NICs=SELECTOR...          list; replaces the built-in NIC classification
 *     ExpectP2P=PAIRS...        list; pairs whose P2P path must not be redirected:
 *                               gpu:nic-nearest  every GPU with its nearest NIC(s)
 *                               gpu:gpu          every GPU pair that meets below a switch
 *                               SELECTOR~SELECTOR every pair of the two device sets
 *   SELECTOR is the [ACS:*] Select= syntax without "upstream:". No [Topology] section:
 *   the built-in classification and no expectation (nothing is checked).
 */

#define TOPO_NAME_MAX	    64
#define TOPO_MAX_SELECTORS  CONFIG_MAX_SELECTORS
#define TOPO_MAX_EXPECT	    32
#define TOPO_PAIR_PORTS_MAX 2

/* ACS Control bits (PCIe r6.0 7.7.8.3). */
#define TOPO_ACS_SV 0x0001
#define TOPO_ACS_TB 0x0002
#define TOPO_ACS_RR 0x0004
#define TOPO_ACS_CR 0x0008
#define TOPO_ACS_UF 0x0010
#define TOPO_ACS_EC 0x0020
#define TOPO_ACS_DT 0x0040
/*
 * The bits that turn a pair's peer-to-peer TLPs away from the direct route at the port
 * where they enter the switch (the set the kernel's pci=disable_acs_redir= clears). UF is
 * not among them: Upstream Forwarding only says what a port does with TLPs that were
 * already redirected from below (send them on up instead of back down the same link);
 * it never turns a direct TLP away, so it cannot make a direct path redirected.
 */
#define TOPO_ACS_REDIRECT (TOPO_ACS_RR | TOPO_ACS_CR | TOPO_ACS_EC)

enum topo_kind {
	TOPO_GPU,
	TOPO_NIC,
	_TOPO_KIND_MAX,
};

/* Ordered nearest first, as nvidia-smi topo -m and NCCL's PATH_* are. */
enum topo_dist {
	TOPO_PIX,  /* the paths meet inside one PCIe switch (upstream + downstream ports) */
	TOPO_PXB,  /* more than one switch, not through a root port or host bridge */
	TOPO_PHB,  /* same root bus (host bridge), through root port(s) */
	TOPO_NODE, /* different host bridges, same NUMA node */
	TOPO_SYS,  /* different NUMA nodes, or a NUMA node unknown on one side only */
	_TOPO_DIST_MAX,
};

struct topo_endpoint {
	enum topo_kind kind;
	size_t dev;		  /* index into pci_inventory.devs */
	unsigned index;		  /* GPU<index> / NIC<index>, by PCI address within the kind */
	char name[TOPO_NAME_MAX]; /* NIC: RDMA device, else netdev, else address; GPU: address */
	int numa_node;		  /* -1: unknown (no file, -1 in it, unreadable) */
	char *cpulist;		  /* local_cpulist as the kernel prints it; NULL if unknown */
	bool rdma;		  /* NIC: infiniband/ lists an RDMA device */
};

struct topo_chain; /* an endpoint's path up to its root bus (topo.c) */

struct topology {
	struct topo_endpoint *eps; /* GPUs first, then NICs, each by PCI address */
	size_t n;
	size_t n_kind[_TOPO_KIND_MAX];
	size_t n_rdma_nics; /* NICs with an RDMA device */
	/* topo_paths_build(): NULL until then (the per-pair functions then walk the tree) */
	struct topo_chain *chains; /* per endpoint */
	uint8_t *dist;		   /* enum topo_dist of every pair i < j, row by row */
};

/* The [Topology] section; NULL in struct config until its first header. */
enum topo_expect_kind {
	TOPO_EXPECT_GPU_NIC_NEAREST,
	TOPO_EXPECT_GPU_GPU,
	TOPO_EXPECT_PAIR,
};

struct topo_expect {
	enum topo_expect_kind kind;
	struct selector a, b; /* TOPO_EXPECT_PAIR */
	char *text;	      /* as written */
	struct origin at;
};

struct topo_config {
	struct config_singleton head; /* must come first */
	struct selector_entry *accel; /* Accelerators=; n_accel 0 and !accel_set: built-in */
	size_t n_accel;
	bool accel_set;
	struct selector_entry *nics;
	size_t n_nics;
	bool nics_set;
	struct topo_expect *expect;
	size_t n_expect;
};

extern const struct config_part topo_config_part;
/* c's [Topology] state; NULL when no file gives such a section. */
static inline const struct topo_config *topo_config_get(const struct config *c)
{
	return config_part_state(c, &topo_config_part);
}

/* ---- classification (pure) ---- */

/*
 * Built-in classification of one function from its identity and place:
 * - accelerator ("GPU"): class 0302 (3D controller) of any vendor; a function the table of
 *   known accelerators lists (pci/accel.h: Gaudi, Instinct MI300, Xeon Phi, NEC Vector
 *   Engine, ...), whatever its class and place; no other co-processor (0b40) or processing
 *   accelerator (1200): Intel QAT is one on every Sapphire Rapids Xeon. 0300/0380 only of
 *   NVIDIA, AMD and Intel, and only on PCIe behind a PCIe bridge: not on a root bus
 *   (integrated or BMC VGA; NVIDIA's may be, as a VM's passed-through GPU is: NVIDIA makes
 *   no onboard graphics), not behind a conventional PCI bridge (class 060401 subtractive
 *   decode, the chipset's legacy bridge; PCIe type 7, a PCIe-to-PCI bridge; a bridge
 *   without the PCI Express capability), not without that capability itself (no
 *   capability list in its header, or its whole chain read without it): onboard graphics
 *   such as the AMD ES1000, whatever its BARs say. Capabilities that could not be read
 *   (64 bytes without root) prove nothing. ASPEED 1a03 and Matrox 102b never (not GPU
 *   vendors). Every module that classifies asks for the candidates' capabilities
 *   (topo_wants_caps()), so that all of them judge alike.
 * - NIC: class 02xx, or 0c06 (InfiniBand filed as a serial bus controller).
 * Unknown ids (all-ones) are neither. topo_classify_evidence() adds what sysfs shows.
 */
bool topo_is_accelerator(const struct pci_inventory *inv, size_t i);
bool topo_is_nic(const struct pci_inventory *inv, size_t i);
/*
 * The kind of devs[i] under cfg (NULL: built-in): -1 if neither. With Accelerators=
 * or NICs= set, that list replaces the built-in test for its kind; a device both lists
 * select is an accelerator.
 */
int topo_classify(const struct topo_config *cfg, const struct pci_inventory *inv, size_t i);

/* A netdev at least this fast (Mb/s, its speed file) is a high-speed link: 10 GbE and up. */
#define TOPO_NIC_SPEED_MIN 10000

/*
 * What sysfs shows of a function beyond its identity (topo_evidence_read(), by topo_build()
 * for the functions topo_needs_evidence() names). Zero: nothing seen.
 */
struct topo_evidence {
	bool rdma;		      /* infiniband/ lists an RDMA device */
	char rdma_dev[TOPO_NAME_MAX]; /* rdma: the first one by name (mlx5_0) */
	char netdev[TOPO_NAME_MAX];   /* the first netdev by name, "" none */
	int net_speed;	  /* Mb/s of the fastest netdev; 0 no netdev; -1 netdev(s), speed unknown */
	int link_gen;	  /* max_link_speed as a generation (links.h); 0 unknown/conventional */
	int link_width;	  /* max_link_width; 0 unknown */
	uint64_t bar_max; /* largest memory BAR (resource lines 0-5), bytes; 0 unknown */
};

/*
 * A high-speed link from the evidence: a netdev whose speed file reads at least
 * TOPO_NIC_SPEED_MIN; when no netdev's speed can be read (a link that is down reads -1
 * or fails), a PCIe link the function can run at 8 GT/s x4 or more (a 1 GbE chip is
 * x1). No netdev: not a high-speed link.
 */
bool topo_evidence_high_speed(const struct topo_evidence *ev);
/*
 * topo_classify() with evidence (NULL: none). The built-in tests then also say:
 * - NIC, whatever the class (unless an accelerator): a function with an RDMA device, or
 *   with a netdev of a high-speed link (topo_evidence_high_speed()).
 * - not a GPU: an AMD or Intel display controller (0300/0380) whose largest memory BAR is
 *   below 256 MiB (onboard graphics: ES1000 128 MiB; their discrete GPUs' aperture is
 *   256 MiB or more). NVIDIA makes no onboard graphics (and Fermi boards have a 128 MiB
 *   BAR1): the BAR decides nothing there, nor where it could not be read.
 */
int topo_classify_evidence(const struct topo_config *cfg, const struct pci_inventory *inv, size_t i,
			   const struct topo_evidence *ev);
/* Whether evidence could change topo_classify()'s answer for devs[i] under cfg. */
bool topo_needs_evidence(const struct topo_config *cfg, const struct pci_inventory *inv, size_t i);
/*
 * Read the evidence of the function whose sysfs directory is dfd: the PCIe link only when
 * there are netdevs of unknown speed, the BARs only when bars (a display controller).
 * Absent or unreadable files leave their field unknown; only -ENOMEM fails.
 */
int topo_evidence_read(const struct sysroot *root, int dfd, bool bars, struct topo_evidence *ret);
/*
 * topo_classify_evidence() of devs[i] with the evidence read below
 * <root>/sys/bus/pci/devices/ADDR when topo_needs_evidence(): the kind, -1 neither, or
 * -ENOMEM. What topo_build() files each function as.
 */
int topo_classify_at(const struct sysroot *root, const struct topo_config *cfg,
		     const struct pci_inventory *inv, size_t i);

/*
 * For pcib_scan_caps() (cfg: the const struct topo_config *, may be NULL): whether the
 * function may be an endpoint, from its identity alone (the parent is not known yet, so
 * a display controller on a root bus is taken too). Only a shortcut: topo_load_caps()
 * still loads any function it skipped.
 */
unsigned topo_wants_caps(const struct pci_dev_info *d, void *cfg);
/*
 * The same, with each candidate's own capabilities: for readers that judge every
 * endpoint's own (links: its PCIe type; AER: whether it is a root port), read while the
 * scan holds its config file open rather than opened again later.
 */
unsigned topo_wants_own_caps(const struct pci_dev_info *d, void *cfg);
/*
 * For the readers that build the whole view (the topology command, gpus.json, p2p.json):
 * topo_wants_caps(), and a GPU's own capabilities where a path may end at them
 * (PCI_WANT_SELF_SHARED), so topo_load_caps() does not open their config files again (a
 * NIC's are needed only beside a GPU, rare enough to be read then).
 */
unsigned topo_wants_view_caps(const struct pci_dev_info *d, void *cfg);

/* ---- reading the endpoints' facts (through the root prefix) ---- */

/* The buffer of one sysfs attribute (read_one_line_buf_at(), core/fileio.h): a page. */
#define TOPO_ATTR_MAX 4096

/*
 * Classify every function of inv and read each endpoint's name, numa_node and
 * local_cpulist below <root>/sys/bus/pci/devices/ADDR. SR-IOV virtual functions (a
 * physfn link) are skipped: hundreds of them would say nothing the PF does not.
 * Missing files leave the fact unknown; only -ENOMEM fails.
 */
int topo_build(struct topology *t, const struct sysroot *root, const struct topo_config *cfg,
	       const struct pci_inventory *inv);
/*
 * Whether the PCI function whose sysfs directory is dfd is an SR-IOV virtual function of a
 * physical function on this host: 1 when it has a physfn link, 0 when not (a VF passed to
 * a VM has none there: the guest's own function), -errno when that cannot be told. The
 * one rule for what a VF is ([Inventory] uses it for the RDMA devices).
 */
int topo_is_virtfn(int dfd);
void topo_done(struct topology *t);
/*
 * pcib_load_caps() for every bridge above an endpoint of t, and for the endpoints whose own
 * ACS a pair with a GPU at one end can end at (another endpoint below the same parent,
 * a GPU unless it is one: two functions of one device, a device beside a bridge), so that
 * the pure functions below may read cfg/pcie_type/has_acs/acs_* of every port such a path
 * names (the view judges no other pair; ExpectP2P= loads its own paths). First error wins, the
 * others are still loaded.
 */
int topo_load_caps(struct pci_backend *b, struct pci_inventory *inv, const struct topology *t);
/* Same for one device and its bridges (for callers with their own endpoint sets). */
int topo_load_path_caps(struct pci_backend *b, struct pci_inventory *inv, size_t i);

/* ---- distance (pure) ---- */

/*
 * The PCI part of the distance: PIX, PXB or PHB when the two functions share a root bus,
 * else TOPO_NODE ("different host bridges"; the caller's NUMA nodes decide NODE/SYS).
 * A switch is an upstream port with its downstream ports; the type comes from the PCIe
 * capability, or without it (unprivileged) from the position below the root port
 * (root port, then upstream/downstream pairs). Two functions of one device are PIX.
 */
enum topo_dist topo_pci_distance(const struct pci_inventory *inv, size_t a, size_t b);
/*
 * topo_pci_distance() refined by NUMA for different host bridges: same node → NODE,
 * different nodes → SYS. numa_node -1 (unknown) on both sides is NODE (a kernel without
 * NUMA information has one node: CONFIG_NUMA off, or firmware without proximity data);
 * unknown on one side only is SYS (nothing proves the two are local to each other).
 */
enum topo_dist topo_distance(const struct pci_inventory *inv, size_t a, int numa_a, size_t b,
			     int numa_b);
enum topo_dist topo_endpoint_distance(const struct pci_inventory *inv,
				      const struct topo_endpoint *a, const struct topo_endpoint *b);
const char *topo_dist_to_string(enum topo_dist d); /* "PIX" ... "SYS" */

/*
 * The same per pair of endpoints (indices into t->eps), for views that ask about every
 * pair: topo_paths_build() walks each endpoint's parents once (caps loaded first: the
 * roles come from the PCIe types) and keeps the distance of every pair (n*(n-1)/2
 * bytes), so a pair costs a lookup instead of two walks up the tree. -ENOMEM.
 * Without it, topo_ep_*() compute as topo_endpoint_distance()/topo_pair_ports().
 */
int topo_paths_build(struct topology *t, const struct pci_inventory *inv);
void topo_paths_done(struct topology *t);
enum topo_dist topo_ep_distance(const struct topology *t, const struct pci_inventory *inv, size_t i,
				size_t j);
const char *topo_kind_to_string(enum topo_kind k); /* "GPU", "NIC" */
/*
 * Whether eps[j] is a NIC a GPU's "nearest NIC" may be: on a host with RDMA NICs only
 * those (GPUDirect RDMA and NCCL's IB/RoCE transport use them; a 1 GbE management port
 * at the same distance is not the GPU's NIC), on a host without any, every NIC.
 */
bool topo_nearest_candidate(const struct topology *t, size_t j);

/* ---- the ports whose ACS decides a pair (pure; caps loaded first) ---- */

enum topo_port_role {
	TOPO_PORT_INGRESS,  /* downstream port just below the lowest common switch */
	TOPO_PORT_FUNCTION, /* a function of a multi-function device (its own ACS) */
};

enum topo_acs_state {
	TOPO_ACS_KNOWN,	     /* ctrl read */
	TOPO_ACS_NONE,	     /* no ACS capability: nothing redirects here */
	TOPO_ACS_NEEDS_ROOT, /* config space beyond 64 bytes unreadable: unknown, not "none" */
	TOPO_ACS_UNREADABLE, /* the port is gone or not responding */
	TOPO_ACS_NO_EXT,     /* a PCIe port without extended config space: unknown */
};
/* A port whose ACS Control could not be read: the pair is unknown, not direct. */
bool topo_acs_unknown(enum topo_acs_state s);

struct topo_port {
	size_t dev;
	enum topo_port_role role;
	enum topo_acs_state state;
	uint16_t ctrl;	   /* ACS Control, TOPO_ACS_KNOWN only */
	uint16_t redirect; /* ctrl & TOPO_ACS_REDIRECT, TOPO_ACS_KNOWN only */
};

enum topo_p2p {
	TOPO_P2P_DIRECT,       /* every deciding port known and none redirects */
	TOPO_P2P_REDIRECTED,   /* at least one port redirects (RR/CR/EC on) */
	TOPO_P2P_UNKNOWN,      /* none known to redirect, some unknown (needs root, dead) */
	TOPO_P2P_ROOT_COMPLEX, /* PHB/NODE/SYS: the root complex decides, not ACS */
};

struct topo_path {
	enum topo_dist dist; /* PCI part, as topo_pci_distance() */
	enum topo_p2p p2p;
	struct topo_port ports[TOPO_PAIR_PORTS_MAX];
	size_t n_ports;
};

/*
 * For a PIX/PXB pair: the ports whose ACS Control decides whether P2P between a and b
 * is redirected. A request is redirected where it enters the switch that would route it
 * to the peer, so these are the two downstream ports of the lowest common switch the
 * paths enter (one per side); switches further down forward it upstream anyway and are
 * not listed. For two functions of one multi-function device, the functions themselves.
 * PHB/NODE/SYS: no ports, p2p TOPO_P2P_ROOT_COMPLEX.
 */
void topo_pair_ports(const struct pci_inventory *inv, size_t a, size_t b, struct topo_path *ret);
void topo_ep_pair_ports(const struct topology *t, const struct pci_inventory *inv, size_t i,
			size_t j, struct topo_path *ret);
/*
 * What the vendor documents going wrong, beyond speed, when the P2P traffic between a and b
 * is redirected (pci/accel.h p2p_risk: both ends listed with one), or NULL.
 * topo_port_p2p_risk(): the same for any such pair whose deciding ports include port.
 */
const char *topo_p2p_risk(const struct pci_inventory *inv, size_t a, size_t b);
/*
 * The functions listed with a p2p_risk, found once per inventory: a verify asks
 * topo_port_p2p_risk() for every port it reports, and on a host with none (nearly all)
 * that is no work at all instead of a pass over every function per port.
 */
struct topo_risky {
	size_t *idx;
	size_t n;
};
int topo_risky_build(const struct pci_inventory *inv, struct topo_risky *ret);
void topo_risky_done(struct topo_risky *rk);
const char *topo_port_p2p_risk(const struct pci_inventory *inv, const struct topo_risky *rk,
			       size_t port);
/* "RR CR" for the redirect bits of mask; "none" when empty. buf >= 16. */
const char *topo_acs_bits(uint16_t mask, char *buf, size_t size);

/* ---- the `hostprep topology` view (topo-show.c) ---- */

/* One read of the host: inventory, endpoints, capabilities of every port on their paths. */
struct topo_view {
	const struct sysroot *root; /* for the sections that read more (links, GPU map) */
	struct pci_backend *pci;
	struct pci_inventory inv;
	struct topology topo;
	bool borrowed; /* pci and inv are the caller's (topo_view_borrow()) */
	/*
	 * NVLink between the GPU endpoints (topo_view_set_nvlink(), topo-nvlink.c): NULL
	 * until it was read; then per GPU pair (GPU endpoints are first in topo.eps) the
	 * links NVML says join them, as nvidia-smi topo -m's NV#: >0 links, 0 none, -1
	 * unknown. nvlink_why: why not read ("" when read, or when no GPU is NVIDIA's).
	 */
	int8_t *nvlink;
	char nvlink_why[192];
};

/* -ENOMEM, or the PCI enumeration's error (logged by the caller). */
int topo_view_open(struct topo_view *v, const struct sysroot *root, const struct topo_config *cfg);
/*
 * The same view over an inventory the caller has read already (a run's, src/run/run.h):
 * it loads the capabilities it needs through b; topo_view_done() leaves b and inv alone.
 * complete false: the endpoints only (topo_build()), topo_view_complete() adds the rest.
 */
int topo_view_borrow(struct topo_view *v, const struct sysroot *root, const struct topo_config *cfg,
		     struct pci_backend *b, const struct pci_inventory *inv, bool complete);
/* The capabilities of the ports on the endpoints' paths, and the paths. */
int topo_view_complete(struct topo_view *v);
void topo_view_done(struct topo_view *v);

struct nvml_facts;
/* Whether the view has an NVIDIA GPU endpoint (the ones NVLink can join). */
bool topo_view_has_nvidia(const struct topo_view *v);
/*
 * Fill v->nvlink from NVML's answers (f->loaded false: v->nvlink stays NULL and
 * nvlink_why says why, from f->why). -ENOMEM.
 */
int topo_view_set_nvlink(struct topo_view *v, const struct nvml_facts *f);
/* The links joining endpoints i and j: >0, 0 none, -1 unknown (or not read, or not GPUs). */
int topo_view_nvlink(const struct topo_view *v, size_t i, size_t j);

struct run;
/*
 * The run's topology (topo-run.c), a per-run service like the PCI inventory: built over
 * the run's inventory on first use and shared by every module that reads it (topology,
 * GPU map, inventory, AER), dropped by the run when its inventory is read again or a
 * write step ran. topo_run_endpoints(): the classification only; topo_run_view(): with
 * the ports' capabilities and the paths, added once. <0: the PCI inventory's error
 * (run->pci_err), or -ENOMEM; tried again on the next call.
 */
int topo_run_endpoints(struct run *run, const struct topology **ret);
int topo_run_view(struct run *run, struct topo_view **ret);
/*
 * topo_run_view() with NVLink (view.nvlink) when the view has NVIDIA GPUs: ask, NVML is
 * asked if no module of the run did (nvml-run.h); else only what the run read already is
 * used, and nvlink_why says that NVML was not read.
 */
int topo_run_nvlink(struct run *run, bool ask, struct topo_view **ret);
/* "GPU0 (0000:03:00.0)", "NIC1 (mlx5_2)". */
void topo_endpoint_label(const struct topo_view *v, const struct topo_endpoint *e, char *buf,
			 size_t size);
/*
 * The verdict of a path as one phrase: "direct", "redirected at 0000:02:08.0 (RR CR on)",
 * "unknown: ACS of 0000:02:08.0 needs root", "through the host bridge: the root complex
 * decides, not ACS". malloc'd.
 */
int topo_path_describe(const struct topo_view *v, const struct topo_path *p, char **ret);
/*
 * The pairs the report covers, in order: every GPU↔GPU and GPU↔NIC pair whose PCI
 * distance is at most PHB. fn returns <0 to stop.
 */
typedef int (*topo_pair_fn)(const struct topo_view *v, const struct topo_endpoint *a,
			    const struct topo_endpoint *b, const struct topo_path *p, void *ud);
int topo_for_each_pair(const struct topo_view *v, topo_pair_fn fn, void *ud);

struct json_object;
/* "direct", "redirected", "unknown", "root-complex" (docs/topology-schema.md). */
const char *topo_p2p_to_string(enum topo_p2p p);
/* A deciding port as docs/topology-schema.md's ports[] (address, role, acs, control, redirect). */
struct json_object *topo_port_json(const struct topo_view *v, const struct topo_port *pt);
int topo_show_text(const struct topo_view *v, FILE *f);
/* The document of docs/topology-schema.md; NULL on ENOMEM. */
struct json_object *topo_show_json(const struct topo_view *v);
