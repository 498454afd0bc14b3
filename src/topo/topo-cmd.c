// SPDX-License-Identifier: GPL-2.0-or-later
/* `hostprep topology`: GPUs/NICs, distance classes and the ACS verdict of each P2P path. */
#include <json-c/json.h>

#include "cli/cli.h"
#include "core/log.h"
#include "nvml/nvml-run.h"
#include "topo/topo.h"

static char topo_stdout_buf[256 * 1024];

/* No PCI tree to read (an empty --root, a container without sysfs): say which, exit 1. */
static int topology_missing(const struct sysroot *root)
{
	_cleanup_(freep) char *path = sysroot_path(root, SYSROOT_SYS, "bus/pci/devices");

	log_error("No PCI topology to show: %s does not exist or is not a directory%s.",
		  path ? path : "bus/pci/devices",
		  sysroot_is_host(root) ? "" : " (--root must hold a sysfs-shaped tree)");
	return EXIT_NOT_READY;
}

/* NV# as nvidia-smi topo -m prints it: NVML is asked only when there is an NVIDIA GPU. */
static int topology_nvlink(const struct sysroot *root, struct topo_view *v)
{
	struct nvml_view nv;
	int r;

	if (!topo_view_has_nvidia(v))
		return 0;
	r = nvml_view_load(root, &nv);
	if (r < 0)
		return r;
	r = topo_view_set_nvlink(v, &nv.facts);
	nvml_view_done(&nv);
	return r;
}

static int cmd_topology(const struct options *o)
{
	_cleanup_(config_done) struct config cfg = {};
	_cleanup_(sysroot_done) struct sysroot root = {};
	struct topo_view v;
	int r;

	r = open_root(o, &root);
	if (r < 0)
		return r;
	r = load_config(o, &root, 0, &cfg);
	if (r < 0)
		return r;
	r = topo_view_open(&v, &root, topo_config_get(&cfg));
	if (r == -ENOENT || r == -ENOTDIR)
		return topology_missing(&root);
	if (r < 0)
		return log_error_errno(r, "Failed to read the PCI topology: %m");
	r = topology_nvlink(&root, &v);
	if (r < 0) {
		topo_view_done(&v);
		return log_error_errno(r, "Failed to read NVLink: %m");
	}
	/* The matrix grows with the square of the endpoints: write it in large blocks. */
	setvbuf(stdout, topo_stdout_buf, _IOFBF, sizeof(topo_stdout_buf));
	if (o->json) {
		struct json_object *j = topo_show_json(&v);

		if (j)
			print_json(j);
		r = j ? 0 : -ENOMEM;
		json_object_put(j);
	} else {
		r = topo_show_text(&v, stdout);
	}
	topo_view_done(&v);
	return r < 0 ? log_error_errno(r, "Failed to print the topology: %m") : 0;
}

const struct command topology_command = {
	.name = "topology",
	.run = cmd_topology,
	.help = "topology [--json]   GPU/NIC distance matrix and the ACS verdict of each P2P path",
};
