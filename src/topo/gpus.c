// SPDX-License-Identifier: GPL-2.0-or-later
/* The GPU map without NVML (see gpus.h): driver entries, map, text, JSON, gpus.json. */
#include <ctype.h>
#include <json-c/json.h>

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
		g->index = g->nvidia ? (int)nv++ : -1;
		g->info = info_find(m, d->addr);
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
	if (g->info || !g->nvidia)
		return NULL;
	if (!m->driver_loaded)
		return "no NVIDIA driver entry: the nvidia module is not loaded";
	return "no NVIDIA driver entry: the driver did not take this GPU (dmesg: NVRM)";
}

static const char *nic_name(const struct topo_view *v, const struct gpu_nic *n)
{
	return v->topo.eps[n->ep].name;
}

/* ---- text ---- */

static void nics_text(const struct topo_view *v, const struct gpu_entry *g, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < g->n_nics; k++)
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s", k ? "," : "",
				nic_name(v, &g->nics[k]));
	if (g->n_nics)
		snprintf(buf + len, len < size ? size - len : 0, " (%s)",
			 topo_dist_to_string(g->nics[0].dist));
	else
		snprintf(buf, size, "-");
}

static void gpu_text(const struct gpu_map *m, const struct topo_view *v, const struct gpu_entry *g,
		     FILE *f)
{
	const struct topo_endpoint *e = &v->topo.eps[g->ep];
	const char *problem = gpu_problem(m, g);
	char minor[16] = "-", index[16] = "-", nics[256];

	if (g->index >= 0)
		snprintf(index, sizeof(index), "%d", g->index);
	if (g->info && g->info->minor >= 0)
		snprintf(minor, sizeof(minor), "%d", g->info->minor);
	nics_text(v, g, nics, sizeof(nics));
	fprintf(f, "  %-5s %-12s %-40s %-5s %-4d %s\n", index, v->inv.devs[e->dev].addr,
		g->info && g->info->uuid[0] ? g->info->uuid : "-", minor, e->numa_node, nics);
	if (g->info && g->info->model[0])
		fprintf(f, "        %s\n", g->info->model);
	if (problem)
		fprintf(f, "        %s\n", problem);
}

int gpu_map_show_text(const struct gpu_map *m, const struct topo_view *v, FILE *f)
{
	fprintf(f, "GPUs (index: PCI address order = nvidia-smi, CUDA_DEVICE_ORDER=PCI_BUS_ID)\n");
	if (m->n_gpus == 0)
		fprintf(f, "  none\n");
	else
		fprintf(f, "  %-5s %-12s %-40s %-5s %-4s %s\n", "INDEX", "PCI", "UUID", "MINOR",
			"NUMA", "NEAREST NIC");
	for (size_t k = 0; k < m->n_gpus; k++)
		gpu_text(m, v, &m->gpus[k], f);
	for (size_t i = 0; i < m->n_infos; i++)
		if (gpu_map_info_orphan(m, v, i))
			fprintf(f, "  driver entry %s (%s) has no PCI GPU: fallen off the bus?\n",
				m->infos[i].addr,
				m->infos[i].uuid[0] ? m->infos[i].uuid : "no UUID");
	return ferror(f) ? -EIO : 0;
}

/* ---- JSON (docs/gpus-schema.md) ---- */

static int add(struct json_object *o, const char *key, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_object_add(o, key, val) < 0) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *str_or_null(const char *s)
{
	_cleanup_(freep) char *buf = NULL;
	const char *safe = text_json_safe(s, &buf); /* an RDMA device name may hold any byte */

	return safe && safe[0] ? json_object_new_string(safe) : json_object_new_null();
}

static int add_str(struct json_object *o, const char *key, const char *s)
{
	struct json_object *val = str_or_null(s);

	/* json_object_new_null() is NULL by design: only a string can fail */
	if (!val && s && s[0])
		return -ENOMEM;
	return json_object_object_add(o, key, val) < 0 ? -ENOMEM : 0;
}

static struct json_object *nic_json(const struct topo_view *v, const struct gpu_nic *n)
{
	const struct topo_endpoint *e = &v->topo.eps[n->ep];
	struct json_object *o = json_object_new_object();

	if (!o || add_str(o, "name", e->name) < 0 ||
	    add_str(o, "pci", v->inv.devs[e->dev].addr) < 0 ||
	    add_str(o, "distance", topo_dist_to_string(n->dist)) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int gpu_json_nics(const struct topo_view *v, const struct gpu_entry *g,
			 struct json_object *o)
{
	struct json_object *a = json_object_new_array();

	if (!a)
		return -ENOMEM;
	for (size_t k = 0; k < g->n_nics; k++) {
		struct json_object *n = nic_json(v, &g->nics[k]);

		if (!n || json_object_array_add(a, n) < 0) {
			json_object_put(n);
			json_object_put(a);
			return -ENOMEM;
		}
	}
	return add(o, "nearest_nics", a);
}

static struct json_object *gpu_json(const struct gpu_map *m, const struct topo_view *v,
				    const struct gpu_entry *g)
{
	const struct topo_endpoint *e = &v->topo.eps[g->ep];
	const struct pci_dev_info *d = &v->inv.devs[e->dev];
	struct json_object *o = json_object_new_object();
	char id[16];
	int r;

	if (!o)
		return NULL;
	snprintf(id, sizeof(id), "%04x:%04x", d->id.vendor, d->id.device);
	/* null for the GPUs nvidia-smi does not count (other vendors) */
	r = g->index >= 0 ? add(o, "index", json_object_new_int(g->index))
	    : json_object_object_add(o, "index", NULL) < 0 ? -ENOMEM
							   : 0;
	if (r >= 0)
		r = add_str(o, "pci", d->addr);
	if (r >= 0)
		r = add_str(o, "id", id);
	if (r >= 0)
		r = add_str(o, "model", g->info ? g->info->model : NULL);
	if (r >= 0)
		r = add_str(o, "uuid", g->info ? g->info->uuid : NULL);
	if (r >= 0)
		r = json_object_object_add(o, "minor",
					   g->info && g->info->minor >= 0
						   ? json_object_new_int(g->info->minor)
						   : NULL);
	if (r >= 0)
		r = json_object_object_add(o, "numa_node",
					   e->numa_node >= 0 ? json_object_new_int(e->numa_node)
							     : NULL);
	if (r >= 0)
		r = add_str(o, "cpulist", e->cpulist);
	if (r >= 0)
		r = gpu_json_nics(v, g, o);
	if (r >= 0)
		r = add_str(o, "problem", gpu_problem(m, g));
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *orphans_json(const struct gpu_map *m, const struct topo_view *v)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < m->n_infos; i++) {
		struct json_object *o;

		if (!gpu_map_info_orphan(m, v, i))
			continue;
		o = json_object_new_object();
		if (!o || add_str(o, "pci", m->infos[i].addr) < 0 ||
		    add_str(o, "uuid", m->infos[i].uuid) < 0 ||
		    json_object_object_add(o, "minor",
					   m->infos[i].minor >= 0
						   ? json_object_new_int(m->infos[i].minor)
						   : NULL) < 0 ||
		    json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

struct json_object *gpu_map_json(const struct gpu_map *m, const struct topo_view *v)
{
	struct json_object *doc = json_object_new_object(), *gpus = json_object_new_array();
	int r = doc && gpus ? 0 : -ENOMEM;

	for (size_t k = 0; r >= 0 && k < m->n_gpus; k++) {
		struct json_object *g = gpu_json(m, v, &m->gpus[k]);

		if (!g || json_object_array_add(gpus, g) < 0) {
			json_object_put(g);
			r = -ENOMEM;
		}
	}
	if (r >= 0)
		r = add(doc, "schema", json_object_new_int(1));
	if (r >= 0)
		r = add(doc, "nvidia_driver", json_object_new_boolean(m->driver_loaded));
	if (r >= 0)
		r = add(doc, "gpus", TAKE_PTR(gpus));
	if (r >= 0)
		r = add(doc, "driver_entries_without_pci", orphans_json(m, v));
	if (r < 0) {
		json_object_put(gpus);
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

int gpu_map_text(const struct gpu_map *m, const struct topo_view *v, char **ret)
{
	struct json_object *doc = gpu_map_json(m, v);
	int r;

	if (!doc)
		return -ENOMEM;
	r = asprintf(ret, "%s\n",
		     json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_SPACED |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	return r < 0 ? -ENOMEM : 0;
}
