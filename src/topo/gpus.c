// SPDX-License-Identifier: GPL-2.0-or-later
/* The GPU map without NVML (see gpus.h): driver entries, map, text, JSON, gpus.json. */
#include <ctype.h>
#include <json-c/json.h>

#include "core/emit.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/result.h"
#include "topo/gpus.h"

#define NVIDIA_VENDOR 0x10de

/* "  value \t" -> "value" into buf (truncated to size). */
static void copy_trimmed(const char *s, size_t n, char *buf, size_t size)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

static int parse_minor(const char *v)
{
	char *end;
	long n;

	if (!isdigit((unsigned char)v[0]))
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || *end || n > 255 ? -1 : (int)n;
}

/* One "Key: value" line; the key ends at the first ':' (values hold colons). */
static void info_line(const char *line, size_t n, struct nv_info *ret)
{
	const char *colon = memchr(line, ':', n);
	char key[32], value[GPU_MODEL_MAX + 1];

	if (!colon)
		return;
	copy_trimmed(line, colon - line, key, sizeof(key));
	copy_trimmed(colon + 1, n - (colon + 1 - line), value, sizeof(value));
	/* copy_trimmed() bounds each field to its own size: longer values are cut */
	if (streq(key, "Model"))
		copy_trimmed(value, strlen(value), ret->model, sizeof(ret->model));
	else if (streq(key, "GPU UUID"))
		copy_trimmed(value, strlen(value), ret->uuid, sizeof(ret->uuid));
	else if (streq(key, "Device Minor"))
		ret->minor = parse_minor(value);
	else if (streq(key, "Video BIOS"))
		copy_trimmed(value, strlen(value), ret->vbios, sizeof(ret->vbios));
	else if (streq(key, "Bus Location"))
		copy_trimmed(value, strlen(value), ret->addr, sizeof(ret->addr));
	else if (streq(key, "GPU Excluded"))
		ret->excluded = streq(value, "Yes");
}

int nv_info_parse(const char *text, struct nv_info *ret)
{
	uint32_t domain;
	uint8_t bus, dev, fn;

	*ret = (struct nv_info){ .minor = -1 };
	while (*text) {
		size_t n = strcspn(text, "\n");

		info_line(text, n, ret);
		text += n + (text[n] == '\n');
	}
	if (!ret->addr[0] || pci_address_parse(ret->addr, &domain, &bus, &dev, &fn) < 0)
		return -EINVAL;
	snprintf(ret->addr, sizeof(ret->addr), "%04x:%02x:%02x.%x", domain, bus, dev, fn);
	return 0;
}

/* <dfd>/<name>/information; path names it in messages. */
static int info_read(const struct sysroot *root, int dfd, const char *dir, const char *name,
		     struct nv_info *ret)
{
	_cleanup_(freep) char *path = NULL, *rel = NULL, *text = NULL;
	int r;

	if (asprintf(&path, "%s/%s/information", dir, name) < 0 ||
	    asprintf(&rel, "%s/information", name) < 0)
		return -ENOMEM;
	r = read_full_file_at(root, dfd, rel, GPU_INFO_MAX, &text, NULL);
	if (r < 0) {
		log_debug_errno(r, "Failed to read %s, ignoring: %m", path);
		return r == -ENOMEM ? r : 0;
	}
	if (nv_info_parse(text, ret) < 0) {
		log_debug("%s: no valid Bus Location, ignoring", path);
		return 0;
	}
	return 1;
}

static int cmp_info(const void *a, const void *b)
{
	return strcmp(((const struct nv_info *)a)->addr, ((const struct nv_info *)b)->addr);
}

static int infos_read(struct gpu_map *m, const struct sysroot *root)
{
	_cleanup_(freep) char *dir = sysroot_path(root, SYSROOT_PROC, "driver/nvidia/gpus");
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;

	if (!dir)
		return -ENOMEM;
	if (sysroot_opendir(root, SYSROOT_PROC, &d, "driver/nvidia/gpus") < 0)
		return 0; /* the nvidia module is not loaded (or not this driver) */
	m->driver_loaded = true;
	while ((de = readdir(d))) {
		struct nv_info info, *grown;
		int r;

		if (de->d_name[0] == '.')
			continue;
		r = info_read(root, dirfd(d), dir, de->d_name, &info);
		if (r <= 0) {
			if (r < 0)
				return r;
			continue;
		}
		grown = reallocarray(m->infos, m->n_infos + 1, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		m->infos = grown;
		m->infos[m->n_infos++] = info;
	}
	qsort(m->infos, m->n_infos, sizeof(*m->infos), cmp_info);
	return 0;
}

static const struct nv_info *info_find(const struct gpu_map *m, const char *addr)
{
	struct nv_info key = {};

	snprintf(key.addr, sizeof(key.addr), "%s", addr);
	return m->n_infos ? bsearch(&key, m->infos, m->n_infos, sizeof(key), cmp_info) : NULL;
}

/* Every NIC at the smallest distance class from GPU g (all of them: a tie is a choice). */
static void nearest_nics(const struct topo_view *v, struct gpu_entry *g)
{
	const struct topology *t = &v->topo;
	enum topo_dist best = _TOPO_DIST_MAX;

	for (size_t j = 0; j < t->n; j++)
		if (topo_nearest_candidate(t, j)) {
			enum topo_dist d = topo_ep_distance(t, &v->inv, g->ep, j);

			if (d < best)
				best = d;
		}
	for (size_t j = 0; j < t->n && g->n_nics < GPU_NICS_MAX; j++)
		if (topo_nearest_candidate(t, j) && topo_ep_distance(t, &v->inv, g->ep, j) == best)
			g->nics[g->n_nics++] = (struct gpu_nic){ .ep = j, .dist = best };
}

/*
 * Whether nvidia-smi and CUDA count the GPU: with the driver loaded, the GPUs it took and
 * did not exclude; without it, every NVIDIA GPU (the indexes it will give them).
 */
static bool counted(const struct gpu_map *m, const struct gpu_entry *g)
{
	if (!g->nvidia)
		return false;
	if (!m->driver_loaded)
		return true;
	return g->info && !g->info->excluded;
}

int gpu_map_build(struct gpu_map *m, const struct sysroot *root, const struct topo_view *v)
{
	const struct topology *t = &v->topo;
	int r;

	*m = (struct gpu_map){};
	r = infos_read(m, root);
	if (r < 0)
		return r;
	m->gpus = calloc(t->n_kind[TOPO_GPU] + 1, sizeof(*m->gpus));
	if (!m->gpus)
		return -ENOMEM;
	for (size_t i = 0, nv = 0; i < t->n; i++) {
		const struct pci_dev_info *d = &v->inv.devs[t->eps[i].dev];
		struct gpu_entry *g;

		if (t->eps[i].kind != TOPO_GPU)
			continue;
		g = &m->gpus[m->n_gpus];
		g->ep = i;
		m->n_gpus++;
		g->nvidia = d->id.vendor == NVIDIA_VENDOR;
		g->info = info_find(m, d->addr);
		g->index = counted(m, g) ? (int)nv++ : -1;
		nearest_nics(v, g);
	}
	return 0;
}

void gpu_map_done(struct gpu_map *m)
{
	free(m->infos);
	free(m->gpus);
	*m = (struct gpu_map){};
}

bool gpu_map_info_orphan(const struct gpu_map *m, const struct topo_view *v, size_t i)
{
	for (size_t k = 0; k < m->n_gpus; k++)
		if (m->gpus[k].info == &m->infos[i])
			return false;
	return true;
}

/* ---- what a GPU lacks, in words (text and JSON say the same) ---- */

static const char *gpu_problem(const struct gpu_map *m, const struct gpu_entry *g)
{
	if (g->info && g->info->excluded)
		return "excluded by the driver (NVreg_ExcludedGpus): nvidia-smi and CUDA do not "
		       "see it";
	if (g->info || !g->nvidia)
		return NULL;
	if (!m->driver_loaded)
		return "no NVIDIA driver entry: the nvidia module is not loaded";
	return "no NVIDIA driver entry: the driver did not take this GPU (dmesg: NVRM)";
}

/* ---- text and JSON (docs/gpus-schema.md), one call per field (core/emit.h) ---- */

/* An empty string is no value: "-" in the text, null in JSON. */
static const char *nonempty(const char *s)
{
	return s && s[0] ? s : NULL;
}

/* Text "mlx5_0,mlx5_1 (PIX)": the names, then the class they share (or "-"). */
static void nics_emit(struct emit *e, const struct topo_view *v, const struct gpu_entry *g)
{
	emit_open_array(e, "nearest_nics");
	for (size_t k = 0; k < g->n_nics; k++) {
		const struct topo_endpoint *n = &v->topo.eps[g->nics[k].ep];

		emit_open_object(e, NULL);
		emit_string(e, EMIT_ANY, "name", k ? ",%s" : "%s", nonempty(n->name));
		emit_string(e, EMIT_JSON, "pci", NULL, nonempty(v->inv.devs[n->dev].addr));
		emit_string(e, EMIT_JSON, "distance", NULL, topo_dist_to_string(g->nics[k].dist));
		emit_close_object(e);
	}
	emit_close_array(e);
	if (g->n_nics)
		emit_textf(e, " (%s)\n", topo_dist_to_string(g->nics[0].dist));
	else
		emit_textf(e, "-\n");
}

static void gpu_emit(struct emit *e, const struct gpu_map *m, const struct topo_view *v,
		     const struct gpu_entry *g)
{
	const struct topo_endpoint *ep = &v->topo.eps[g->ep];
	const struct pci_dev_info *d = &v->inv.devs[ep->dev];
	const char *model = g->info ? nonempty(g->info->model) : NULL;
	const char *problem = gpu_problem(m, g);
	char id[16];

	snprintf(id, sizeof(id), "%04x:%04x", d->id.vendor, d->id.device);
	emit_open_object(e, NULL);
	/* null for the GPUs nvidia-smi does not count (other vendors) */
	if (g->index >= 0)
		emit_int(e, EMIT_ANY, "index", "  %-5d ", g->index);
	else
		emit_null(e, EMIT_ANY, "index", "  %-5s ", "-");
	emit_string(e, EMIT_ANY, "pci", "%-12s ", nonempty(d->addr));
	emit_string(e, EMIT_JSON, "id", NULL, id);
	emit_string(e, EMIT_JSON, "model", NULL, model); /* the text's is on a line below */
	emit_string(e, EMIT_ANY, "uuid", "%-40s ", g->info ? nonempty(g->info->uuid) : NULL);
	if (g->info && g->info->minor >= 0)
		emit_int(e, EMIT_ANY, "minor", "%-5d ", g->info->minor);
	else
		emit_null(e, EMIT_ANY, "minor", "%-5s ", "-");
	if (ep->numa_node >= 0)
		emit_int(e, EMIT_JSON, "numa_node", NULL, ep->numa_node);
	else
		emit_null(e, EMIT_JSON, "numa_node", NULL, NULL);
	emit_int(e, EMIT_TEXT, NULL, "%-4d ", ep->numa_node); /* -1 as the kernel says it */
	emit_string(e, EMIT_JSON, "cpulist", NULL, nonempty(ep->cpulist));
	nics_emit(e, v, g);
	if (model)
		emit_string(e, EMIT_TEXT, NULL, "        %s\n", model);
	if (problem)
		emit_string(e, EMIT_ANY, "problem", "        %s\n", problem);
	else
		emit_null(e, EMIT_JSON, "problem", NULL, NULL);
	emit_close_object(e);
}

static void orphan_emit(struct emit *e, const struct nv_info *info)
{
	emit_open_object(e, NULL);
	emit_string(e, EMIT_ANY, "pci", "  driver entry %s ", nonempty(info->addr));
	if (info->uuid[0])
		emit_string(e, EMIT_ANY, "uuid", "(%s) ", info->uuid);
	else
		emit_null(e, EMIT_ANY, "uuid", "(%s) ", "no UUID");
	emit_textf(e, "has no PCI GPU: fallen off the bus?\n");
	if (info->minor >= 0)
		emit_int(e, EMIT_JSON, "minor", NULL, info->minor);
	else
		emit_null(e, EMIT_JSON, "minor", NULL, NULL);
	emit_close_object(e);
}

void gpu_map_emit(const struct gpu_map *m, const struct topo_view *v, struct emit *e)
{
	emit_textf(e,
		   "GPUs (index: PCI address order = nvidia-smi, CUDA_DEVICE_ORDER=PCI_BUS_ID)\n");
	emit_int(e, EMIT_JSON, "schema", NULL, 1);
	emit_bool(e, EMIT_JSON, "nvidia_driver", NULL, m->driver_loaded);
	if (m->n_gpus == 0)
		emit_textf(e, "  none\n");
	else
		emit_textf(e, "  %-5s %-12s %-40s %-5s %-4s %s\n", "INDEX", "PCI", "UUID", "MINOR",
			   "NUMA", "NEAREST NIC");
	emit_open_array(e, "gpus");
	for (size_t k = 0; k < m->n_gpus; k++)
		gpu_emit(e, m, v, &m->gpus[k]);
	emit_close_array(e);
	emit_open_array(e, "driver_entries_without_pci");
	for (size_t i = 0; i < m->n_infos; i++)
		if (gpu_map_info_orphan(m, v, i))
			orphan_emit(e, &m->infos[i]);
	emit_close_array(e);
}

int gpu_map_text(const struct gpu_map *m, const struct topo_view *v, char **ret)
{
	struct json_object *doc;
	struct emit e;
	int r;

	if (emit_init_json(&e) < 0)
		return emit_done(&e);
	gpu_map_emit(m, v, &e);
	doc = emit_take_json(&e);
	r = emit_done(&e);
	if (r < 0)
		return r;
	r = asprintf(ret, "%s\n",
		     json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_SPACED |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	return r < 0 ? -ENOMEM : 0;
}
