// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Node Feature Discovery local source: a features.d file of "name=value" lines that
 * nfd-worker turns into node labels. Each name carries its namespace,
 * feature.node.kubernetes.io/hostprep.<area>: NFD prefixes an unprefixed name with it
 * today but is retiring that (its DisableAutoPrefix feature gate, NFD 0.16+), and this
 * namespace and its sub-namespaces are the ones nfd-master always allows (denyLabelNs
 * cannot deny them), so the labels keep today's names on every NFD version. A name or
 * value outside Kubernetes' label rules makes nfd-worker drop the line, so none is
 * written.
 */
#include <ctype.h>

#include "report/sink-config.h"

#define NFD_NAMESPACE "feature.node.kubernetes.io/"
#define NFD_PREFIX    "hostprep."
#define NFD_MAX_AREAS 32

/* A Kubernetes label name or value: [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, <= 63. */
static bool label_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > NFD_VALUE_MAX || !isalnum((unsigned char)s[0]) ||
	    !isalnum((unsigned char)s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.", s[i]))
			return false;
	return true;
}

struct area {
	char name[NFD_VALUE_MAX + 1]; /* "hostprep.acs" */
	enum verdict worst;
};

/* The area of a check is its name up to the first '.': "acs.write" -> "acs". */
static int area_of(const char *check, char name[static NFD_VALUE_MAX + 1])
{
	size_t n = strcspn(check, ".");

	if (n == 0 || n > NFD_VALUE_MAX - strlen(NFD_PREFIX))
		return -EINVAL;
	snprintf(name, NFD_VALUE_MAX + 1, NFD_PREFIX "%.*s", (int)n, check);
	for (char *c = name; *c; c++)
		if (isupper((unsigned char)*c))
			return -EINVAL; /* one spelling per label: lower case only */
	return label_valid(name) ? 0 : -EINVAL;
}

static size_t collect_areas(const struct results *rs, struct area *areas)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++) {
		char name[NFD_VALUE_MAX + 1];
		size_t j;

		if (area_of(rs->items[i].check, name) < 0)
			continue;
		for (j = 0; j < n && !streq(areas[j].name, name); j++)
			;
		if (j == n && n == NFD_MAX_AREAS)
			continue;
		if (j == n) {
			strcpy(areas[n].name, name);
			areas[n++].worst = rs->items[i].verdict;
		} else if (rs->items[i].verdict > areas[j].worst) {
			areas[j].worst = rs->items[i].verdict;
		}
	}
	return n;
}

bool nfd_label_value(const char *in, char out[static NFD_VALUE_MAX + 1])
{
	size_t n = 0;

	while (*in && !isalnum((unsigned char)*in))
		in++;
	for (; *in && n < NFD_VALUE_MAX; in++)
		out[n++] = isalnum((unsigned char)*in) || strchr("-_.", *in) ? *in : '_';
	while (n > 0 && !isalnum((unsigned char)out[n - 1]))
		n--;
	out[n] = '\0';
	return n > 0;
}

/*
 * What the host is (core/fact.h), one label per fact a node selector or a NodeFeatureRule
 * can use: hostprep.info.<name>. The area labels are hostprep.<area> (no dot after it), so
 * these can never take an area's name.
 */
static const struct {
	const char *name;
	enum fact_kind kind;
	size_t key; /* index into the kind's keys */
} fact_labels[] = {
	{ "nvidia-driver", FACT_NVIDIA_DRIVER, 0 },
	{ "gpu-model", FACT_GPU, 0 },
	{ "gpu-vbios", FACT_GPU, 1 },
	{ "rdma-firmware", FACT_RDMA_DEVICE, 0 },
	{ "rdma-board-id", FACT_RDMA_DEVICE, 1 },
	{ "pcie-topology", FACT_PCIE_TOPOLOGY, 0 },
};

/*
 * The value every fact of kind has for key ("unknown" where one was not read), "mixed"
 * where two differ, NULL where there is no fact of the kind.
 */
static const char *agreed(const struct facts *fs, enum fact_kind kind, size_t key)
{
	const char *v = NULL;

	for (size_t i = 0; i < fs->n; i++) {
		const char *x = fs->items[i].values[key];

		if (fs->items[i].kind != kind)
			continue;
		x = x ? x : FACT_UNKNOWN;
		if (v && !streq(v, x))
			return "mixed";
		v = x;
	}
	return v;
}

static void put_facts(FILE *f, const struct facts *fs)
{
	for (size_t i = 0; i < ARRAY_SIZE(fact_labels); i++) {
		const char *v = agreed(fs, fact_labels[i].kind, fact_labels[i].key);
		char value[NFD_VALUE_MAX + 1];

		if (v && nfd_label_value(v, value))
			fprintf(f, NFD_NAMESPACE NFD_PREFIX "info.%s=%s\n", fact_labels[i].name,
				value);
	}
}

const char nfd_unpublished[] = NFD_NAMESPACE NFD_PREFIX "ready=false\n";

int nfd_render(const struct report *r, char **ret)
{
	_cleanup_(freep) char *buf = NULL;
	struct area areas[NFD_MAX_AREAS];
	struct summary s;
	size_t size, n;
	FILE *f;

	results_summarize(&r->results, &s);
	n = collect_areas(&r->results, areas);
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	fprintf(f, NFD_NAMESPACE NFD_PREFIX "ready=%s\n", s.ready ? "true" : "false");
	for (size_t i = 0; i < n; i++)
		fprintf(f, NFD_NAMESPACE "%s=%s\n", areas[i].name,
			verdict_to_string(areas[i].worst));
	put_facts(f, &r->facts);
	if (fclose(f) != 0)
		return -ENOMEM;
	if (size > NFD_MAX_SIZE)
		return -EFBIG; /* cannot happen with NFD_MAX_AREAS short lines; never truncate */
	*ret = TAKE_PTR(buf);
	return 0;
}
