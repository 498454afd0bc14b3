// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the host is (core/fact.h): the facts set on a run, the PCIe topology's shape text
 * and digest (src/topo/topo-digest.h), and how the Prometheus and NFD sinks publish them
 * (label values, "unknown", "mixed"). Outputs compared byte for byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/sink-config.h"
#include "topo/topo-digest.h"

/* --- the model ------------------------------------------------------------------------ */

static void test_facts_set(void **state)
{
	_cleanup_(facts_done) struct facts fs = {};

	assert_int_equal(facts_set(&fs, FACT_GPU, "0000:18:00.0", (const char *[]){ "H100", "" }),
			 0);
	assert_int_equal(fs.n, 1);
	assert_string_equal(fs.items[0].object, "0000:18:00.0");
	assert_string_equal(fs.items[0].values[0], "H100");
	assert_null(fs.items[0].values[1]); /* "": not read */
	/* the same kind and object again replaces it (a view read again after a write step) */
	assert_int_equal(facts_set(&fs, FACT_GPU, "0000:18:00.0", (const char *[]){ NULL, "96" }),
			 0);
	assert_int_equal(fs.n, 1);
	assert_null(fs.items[0].values[0]);
	assert_string_equal(fs.items[0].values[1], "96");
	/* another kind with the same object is another fact; NULL object: the host */
	assert_int_equal(facts_set(&fs, FACT_RDMA_DEVICE, "0000:18:00.0",
				   (const char *[]){ "28.39.1002", "MT_0000000838" }),
			 0);
	assert_int_equal(facts_set(&fs, FACT_KERNEL, NULL, (const char *[]){ "6.1.0" }), 0);
	assert_int_equal(fs.n, 3);
	assert_string_equal(fs.items[2].object, "host");
	assert_int_equal(facts_set(&fs, _FACT_KIND_MAX, NULL, (const char *[]){ "x" }), -EINVAL);
}

static void test_facts_bounded(void **state)
{
	_cleanup_(facts_done) struct facts fs = {};
	char name[32];

	for (int i = 0; i < FACTS_MAX; i++) {
		snprintf(name, sizeof(name), "mlx5_%d", i);
		assert_int_equal(
			facts_set(&fs, FACT_RDMA_DEVICE, name, (const char *[]){ "1", "2" }), 0);
	}
	assert_int_equal(facts_set(&fs, FACT_RDMA_DEVICE, "one-more", (const char *[]){ "1", "2" }),
			 -E2BIG);
	/* replacing one that is there still works at the bound */
	assert_int_equal(facts_set(&fs, FACT_RDMA_DEVICE, "mlx5_7", (const char *[]){ "3", "4" }),
			 0);
	assert_int_equal(fs.n, FACTS_MAX);
}

/* --- the topology's shape and digest ---------------------------------------------------- */

/*
 *   0000:00:01.0 root port 8086:2030
 *   └ 01:00.0 switch upstream 1000:c030
 *     └ 02:00.0 downstream 1000:c030
 *       └ 03:00.0 GPU0 10de:2330
 *   0000:00:02.0 root port 8086:2031
 *   └ 04:00.0 NIC0 15b3:1021
 */
enum { RP_A, USP, DSP, GPU, RP_B, NIC, N_DEVS };

static struct pci_dev_info devs[N_DEVS];
static struct pci_inventory inv = { .devs = devs, .n = N_DEVS };
static struct link_attrs links[N_DEVS];
static struct topo_endpoint eps[2];
static struct topology topo = { .eps = eps, .n = 2 };

static void dev(int i, uint8_t bus, uint8_t d, int parent, uint16_t vendor, uint16_t device,
		int width, int gen)
{
	devs[i] = (struct pci_dev_info){
		.id = { .bus = bus, .dev = d, .vendor = vendor, .device = device },
		.parent = parent,
	};
	snprintf(devs[i].addr, sizeof(devs[i].addr), "0000:%02x:%02x.0", bus, d);
	links[i] = (struct link_attrs){ .present = true,
					.max_width = width,
					.max_gen = gen,
					.cur_width = width,
					.cur_gen = gen };
}

static int setup(void **state)
{
	dev(RP_A, 0x00, 0x01, -1, 0x8086, 0x2030, 16, 5);
	dev(USP, 0x01, 0x00, RP_A, 0x1000, 0xc030, 16, 5);
	dev(DSP, 0x02, 0x00, USP, 0x1000, 0xc030, 16, 5);
	dev(GPU, 0x03, 0x00, DSP, 0x10de, 0x2330, 16, 5);
	dev(RP_B, 0x00, 0x02, -1, 0x8086, 0x2031, 16, 4);
	dev(NIC, 0x04, 0x00, RP_B, 0x15b3, 0x1021, 16, 5);
	eps[0] = (struct topo_endpoint){ .kind = TOPO_GPU, .dev = GPU, .numa_node = 0 };
	eps[1] = (struct topo_endpoint){ .kind = TOPO_NIC, .dev = NIC, .numa_node = 0 };
	topo.n = 2;
	return 0;
}

static void digest_now(char out[static TOPO_DIGEST_LEN + 1])
{
	_cleanup_(freep) char *text = NULL;

	assert_int_equal(topo_shape_text(&topo, &inv, links, &text), 0);
	topo_shape_digest(text, out);
}

static void test_shape_text(void **state)
{
	_cleanup_(freep) char *text = NULL, *bare = NULL;

	assert_int_equal(topo_shape_text(&topo, &inv, links, &text), 0);
	assert_string_equal(text, "GPU 0000:03:00.0 10de:2330 x16 g5 < 0000:02:00.0 1000:c030 x16 "
				  "g5 < 0000:01:00.0 1000:c030 x16 g5 < 0000:00:01.0 8086:2030 "
				  "x16 g5\n"
				  "NIC 0000:04:00.0 15b3:1021 x16 g5 < 0000:00:02.0 8086:2031 x16 "
				  "g4\n");
	/* links unknown: x0 g0, said as such */
	assert_int_equal(topo_shape_text(&topo, &inv, NULL, &bare), 0);
	assert_string_equal(bare,
			    "GPU 0000:03:00.0 10de:2330 x0 g0 < 0000:02:00.0 1000:c030 x0 g0 "
			    "< 0000:01:00.0 1000:c030 x0 g0 < 0000:00:01.0 8086:2030 x0 g0\n"
			    "NIC 0000:04:00.0 15b3:1021 x0 g0 < 0000:00:02.0 8086:2031 x0 g0\n");
}

static void test_shape_empty(void **state)
{
	_cleanup_(freep) char *text = NULL;
	char d[TOPO_DIGEST_LEN + 1];

	topo.n = 0;
	assert_int_equal(topo_shape_text(&topo, &inv, links, &text), 0);
	assert_string_equal(text, "");
	topo_shape_digest(text, d);
	assert_string_equal(d, "e3b0c44298fc1c14"); /* SHA-256 of nothing, its first 8 bytes */
}

static void test_digest_stable(void **state)
{
	char a[TOPO_DIGEST_LEN + 1], b[TOPO_DIGEST_LEN + 1];

	digest_now(a);
	assert_int_equal(strlen(a), TOPO_DIGEST_LEN);
	/* what differs from boot to boot on one box changes nothing */
	links[GPU].cur_width = 8;
	links[NIC].cur_gen = 1;
	eps[0].numa_node = 1;
	snprintf(eps[1].name, sizeof(eps[1].name), "mlx5_3");
	eps[1].rdma = true;
	devs[DSP].has_acs = true;
	devs[DSP].acs_ctrl = 0x1d;
	devs[GPU].id.class_code = 0x030200;
	digest_now(b);
	assert_string_equal(a, b);
}

static void test_digest_changes(void **state)
{
	char base[TOPO_DIGEST_LEN + 1], d[TOPO_DIGEST_LEN + 1];

	digest_now(base);
	/* the NIC moved below the switch's port: another chain */
	devs[NIC].parent = DSP;
	digest_now(d);
	assert_string_not_equal(base, d);
	devs[NIC].parent = RP_B;
	/* a root port that can do less */
	links[RP_B].max_gen = 3;
	digest_now(d);
	assert_string_not_equal(base, d);
	links[RP_B].max_gen = 4;
	/* a narrower card */
	links[GPU].max_width = 8;
	digest_now(d);
	assert_string_not_equal(base, d);
	links[GPU].max_width = 16;
	/* another part */
	devs[GPU].id.device = 0x2324;
	digest_now(d);
	assert_string_not_equal(base, d);
	devs[GPU].id.device = 0x2330;
	digest_now(d);
	assert_string_equal(base, d);
}

/* --- the sinks -------------------------------------------------------------------------- */

static void test_label_value(void **state)
{
	char out[NFD_VALUE_MAX + 1], long_in[100];

	assert_true(nfd_label_value("NVIDIA H100 80GB HBM3", out));
	assert_string_equal(out, "NVIDIA_H100_80GB_HBM3");
	assert_true(nfd_label_value("550.54.15", out));
	assert_string_equal(out, "550.54.15");
	assert_true(nfd_label_value(" -6.8.0+ ", out));
	assert_string_equal(out, "6.8.0");
	assert_true(nfd_label_value("caf\xc3\xa9/x", out));
	assert_string_equal(out, "caf___x");
	assert_false(nfd_label_value("", out));
	assert_false(nfd_label_value("-_.", out));
	memset(long_in, 'a', 70);
	long_in[70] = '\0';
	assert_true(nfd_label_value(long_in, out));
	assert_int_equal(strlen(out), NFD_VALUE_MAX);
	/* cut at 63 where the 63rd is not alphanumeric: trimmed again */
	memset(long_in, 'b', 62);
	strcpy(long_in + 62, "-tail");
	assert_true(nfd_label_value(long_in, out));
	assert_int_equal(strlen(out), 62);
	memset(long_in, 'c', 63);
	strcpy(long_in + 63, "d");
	assert_true(nfd_label_value(long_in, out));
	assert_int_equal(strlen(out), 63);
	assert_int_equal(out[62], 'c');
}

static void gpu(struct report *r, const char *addr, const char *model, const char *vbios)
{
	assert_int_equal(facts_set(&r->facts, FACT_GPU, addr, (const char *[]){ model, vbios }), 0);
}

static void host_facts(struct report *r)
{
	*r = (struct report){ .schema = 1, .version = strdup("0.1.0") };
	assert_int_equal(
		facts_set(&r->facts, FACT_KERNEL, NULL, (const char *[]){ "6.1.0-27-amd64" }), 0);
	assert_int_equal(facts_set(&r->facts, FACT_PCIE_TOPOLOGY, NULL,
				   (const char *[]){ "0123456789abcdef" }),
			 0);
	assert_int_equal(facts_set(&r->facts, FACT_NVIDIA_DRIVER, NULL, (const char *[]){ NULL }),
			 0);
	gpu(r, "0000:18:00.0", "NVIDIA H100 80GB HBM3", "96.00.74.00.11");
	gpu(r, "0000:19:00.0", "NVIDIA H100 80GB HBM3", NULL);
	assert_int_equal(facts_set(&r->facts, FACT_RDMA_DEVICE, "mlx5_0",
				   (const char *[]){ "28.39.1002", "MT_0000000838" }),
			 0);
	assert_int_equal(facts_set(&r->facts, FACT_RDMA_DEVICE, "mlx5_1",
				   (const char *[]){ "28.39.1002", "MT_0000000838" }),
			 0);
}

static void test_prom_facts(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL;
	const char *want =
		"# HELP hostprep_kernel_info Always 1: the running kernel's release (uname -r).\n"
		"# TYPE hostprep_kernel_info gauge\n"
		"hostprep_kernel_info{release=\"6.1.0-27-amd64\"} 1\n"
		"# HELP hostprep_nvidia_driver_info Always 1: the loaded NVIDIA kernel module's "
		"version.\n"
		"# TYPE hostprep_nvidia_driver_info gauge\n"
		"hostprep_nvidia_driver_info{version=\"unknown\"} 1\n"
		"# HELP hostprep_gpu_info Always 1: each NVIDIA GPU's model and VBIOS, from its "
		"driver entry.\n"
		"# TYPE hostprep_gpu_info gauge\n"
		"hostprep_gpu_info{gpu=\"0000:18:00.0\",model=\"NVIDIA H100 80GB HBM3\",vbios="
		"\"96.00.74.00.11\"} 1\n"
		"hostprep_gpu_info{gpu=\"0000:19:00.0\",model=\"NVIDIA H100 80GB HBM3\",vbios="
		"\"unknown\"} 1\n"
		"# HELP hostprep_rdma_device_info Always 1: each RDMA device's firmware and board "
		"id "
		"(PSID).\n"
		"# TYPE hostprep_rdma_device_info gauge\n"
		"hostprep_rdma_device_info{device=\"mlx5_0\",firmware=\"28.39.1002\",board_id="
		"\"MT_0000000838\"} 1\n"
		"hostprep_rdma_device_info{device=\"mlx5_1\",firmware=\"28.39.1002\",board_id="
		"\"MT_0000000838\"} 1\n"
		"# HELP hostprep_pcie_topology_info Always 1: the digest of the PCIe topology's "
		"shape (docs/report-schema.md says what goes in).\n"
		"# TYPE hostprep_pcie_topology_info gauge\n"
		"hostprep_pcie_topology_info{digest=\"0123456789abcdef\"} 1\n"
		"# HELP hostprep_ready";

	host_facts(&r);
	assert_int_equal(prom_render(&r, 0, &text), 0);
	assert_non_null(strstr(text, want));
}

/* No fact of a kind: no metric of it, not even its header. */
static void test_prom_no_facts(void **state)
{
	_cleanup_(report_done) struct report r = { .schema = 1 };
	_cleanup_(freep) char *text = NULL;

	assert_int_equal(prom_render(&r, 0, &text), 0);
	assert_null(strstr(text, "_info{release"));
	assert_null(strstr(text, "hostprep_gpu_info"));
	assert_null(strstr(text, "hostprep_pcie_topology_info"));
}

static void test_nfd_facts(void **state)
{
	_cleanup_(report_done) struct report r;
	_cleanup_(freep) char *text = NULL, *mixed = NULL;
	const char *ns = "feature.node.kubernetes.io/hostprep.info.";
	char want[1024];

	host_facts(&r);
	assert_int_equal(nfd_render(&r, &text), 0);
	snprintf(want, sizeof(want),
		 "%snvidia-driver=unknown\n%sgpu-model=NVIDIA_H100_80GB_HBM3\n"
		 "%sgpu-vbios=mixed\n%srdma-firmware=28.39.1002\n%srdma-board-id=MT_0000000838\n"
		 "%spcie-topology=0123456789abcdef\n",
		 ns, ns, ns, ns, ns, ns);
	assert_non_null(strstr(text, want));
	assert_null(strstr(text, "kernel")); /* NFD's own kernel source labels it */
	/* all GPUs agree on the VBIOS: that value; a second model: mixed */
	gpu(&r, "0000:19:00.0", "NVIDIA H100 80GB HBM3", "96.00.74.00.11");
	gpu(&r, "0000:1a:00.0", "NVIDIA L40S", "96.00.74.00.11");
	assert_int_equal(nfd_render(&r, &mixed), 0);
	assert_non_null(strstr(mixed, "gpu-model=mixed\n"));
	assert_non_null(strstr(mixed, "gpu-vbios=96.00.74.00.11\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_facts_set),
		cmocka_unit_test(test_facts_bounded),
		cmocka_unit_test_setup(test_shape_text, setup),
		cmocka_unit_test_setup(test_shape_empty, setup),
		cmocka_unit_test_setup(test_digest_stable, setup),
		cmocka_unit_test_setup(test_digest_changes, setup),
		cmocka_unit_test(test_label_value),
		cmocka_unit_test(test_prom_facts),
		cmocka_unit_test(test_prom_no_facts),
		cmocka_unit_test(test_nfd_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
