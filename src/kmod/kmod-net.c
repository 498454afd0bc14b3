// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <dirent.h>
#include <limits.h>
#include <unistd.h>

#include "core/fileio.h"
#include "kmod/kmod-net.h"
#include "kmod/kmod-parse.h"

#define NET_MAX_CHAIN 16
#define NET_MAX_FILE  (4 * 1024 * 1024)
#define SSH_PORT      22
#define NET_IFNAMSIZ  16 /* IFNAMSIZ: "%15s" below */

/* The interfaces an unload takes down: the module's netdevs, then what is stacked on them. */
struct chain {
	char name[NET_MAX_CHAIN][NET_IFNAMSIZ];
	char via[NET_MAX_CHAIN][NET_IFNAMSIZ]; /* the driven netdev below it ("" itself) */
	size_t n;
};

static bool chain_has(const struct chain *c, const char *name, size_t *at)
{
	for (size_t i = 0; i < c->n; i++)
		if (streq(c->name[i], name)) {
			if (at)
				*at = i;
			return true;
		}
	return false;
}

static void chain_add(struct chain *c, const char *name, const char *via)
{
	if (c->n >= NET_MAX_CHAIN || chain_has(c, name, NULL) || strlen(name) >= NET_IFNAMSIZ)
		return;
	snprintf(c->name[c->n], NET_IFNAMSIZ, "%s", name);
	snprintf(c->via[c->n], NET_IFNAMSIZ, "%s", via);
	c->n++;
}

static int not_dot(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/* The module behind class/net/IF/device/driver/module, "" for a virtual device. */
static void netdev_module(const struct sysroot *root, const char *ifname, char *ret, size_t size)
{
	char target[PATH_MAX];
	int n = sysroot_readlink(root, SYSROOT_SYS, target, sizeof(target),
				 "class/net/%s/device/driver/module", ifname);
	const char *base;

	ret[0] = '\0';
	if (n <= 0)
		return;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) < size)
		memcpy(ret, base, strlen(base) + 1);
}

/*
 * Every upper_X of the chain's members, until nothing new appears. A member whose
 * directory cannot be listed (but exists) may have a bond above it: an error, which the
 * guard turns into a refusal.
 */
static int chain_uppers(const struct sysroot *root, struct chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct dirent **list = NULL;
		int n = sysroot_scandir(root, SYSROOT_SYS, &list, not_dot, alphasort,
					"class/net/%s", c->name[i]);

		if (n < 0 && n != -ENOENT) /* ENOENT: gone meanwhile, nothing above it */
			return n;
		for (int j = 0; j < n; j++) {
			if (strneq(list[j]->d_name, "upper_", 6))
				chain_add(c, list[j]->d_name + 6,
					  c->via[i][0] ? c->via[i] : c->name[i]);
			free(list[j]);
		}
		free(list);
	}
	return 0;
}

static int chain_build(const struct sysroot *root, const char *module, struct chain *c)
{
	struct dirent **list = NULL;
	char norm[KMOD_NAME_MAX + 1];
	int n;

	*c = (struct chain){};
	n = sysroot_scandir(root, SYSROOT_SYS, &list, not_dot, alphasort, "class/net");
	if (n == -ENOENT)
		return 0; /* no network class: nothing to take down */
	if (n < 0)
		return n; /* unlisted is not "none": the caller refuses */
	for (int i = 0; i < n; i++) {
		char mod[KMOD_NAME_MAX + 8];

		netdev_module(root, list[i]->d_name, mod, sizeof(mod));
		if (kmod_name_normalize(mod, norm) == 0 && streq(norm, module))
			chain_add(c, list[i]->d_name, "");
		free(list[i]);
	}
	free(list);
	return chain_uppers(root, c);
}

/* ---- routes ------------------------------------------------------------ */

struct route4 {
	char ifname[NET_IFNAMSIZ];
	uint32_t dest, mask; /* as /proc prints them: the raw network-order word */
};

struct route6 {
	char ifname[NET_IFNAMSIZ];
	uint8_t dest[16];
	unsigned plen;
};

struct routes {
	struct route4 *v4;
	size_t n4;
	struct route6 *v6;
	size_t n6;
	int err; /* a table that could not be read */
};

static void routes_done(struct routes *r)
{
	free(r->v4);
	free(r->v6);
}

static int hex_bytes(const char *s, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -EINVAL;
		out[i] = v;
	}
	return 0;
}

static int routes4_read(const struct sysroot *root, struct routes *rt)
{
	_cleanup_(freep) char *text = NULL;
	char *save = NULL;
	int r;

	r = sysroot_read_file(root, SYSROOT_PROC, NET_MAX_FILE, &text, NULL, "net/route");
	if (r < 0)
		return r;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct route4 e = {};
		unsigned flags;
		struct route4 *grown;

		if (sscanf(l, "%15s %x %*x %x %*d %*d %*d %x", e.ifname, &e.dest, &flags,
			   &e.mask) != 4 ||
		    !(flags & 0x1) || (flags & 0x200)) /* RTF_UP, not RTF_REJECT */
			continue;
		grown = reallocarray(rt->v4, rt->n4 + 1, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		rt->v4 = grown;
		rt->v4[rt->n4++] = e;
	}
	return 0;
}

static int routes6_read(const struct sysroot *root, struct routes *rt)
{
	_cleanup_(freep) char *text = NULL;
	char *save = NULL;
	int r;

	r = sysroot_read_file(root, SYSROOT_PROC, NET_MAX_FILE, &text, NULL, "net/ipv6_route");
	if (r == -ENOENT)
		return 0; /* no IPv6 in this kernel */
	if (r < 0)
		return r;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char dest[33];
		unsigned plen, flags;
		struct route6 e = {}, *grown;

		if (sscanf(l, "%32s %x %*s %*x %*s %*x %*x %*x %x %15s", dest, &plen, &flags,
			   e.ifname) != 4 ||
		    hex_bytes(dest, e.dest, 16) < 0 || plen > 128 || !(flags & 0x1) ||
		    (flags & 0x200) || streq(e.ifname, "lo"))
			continue;
		e.plen = plen;
		grown = reallocarray(rt->v6, rt->n6 + 1, sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		rt->v6 = grown;
		rt->v6[rt->n6++] = e;
	}
	return 0;
}

static bool prefix6_match(const uint8_t *a, const uint8_t *b, unsigned plen)
{
	unsigned full = plen / 8, rest = plen % 8;

	if (memcmp(a, b, full) != 0)
		return false;
	return !rest || ((a[full] ^ b[full]) & (0xff << (8 - rest))) == 0;
}

/* The interface of the longest matching route; NULL when none. */
static const char *route4_lookup(const struct routes *rt, uint32_t addr)
{
	const struct route4 *best = NULL;

	for (size_t i = 0; i < rt->n4; i++)
		if ((addr & rt->v4[i].mask) == rt->v4[i].dest &&
		    (!best || __builtin_popcount(rt->v4[i].mask) > __builtin_popcount(best->mask)))
			best = &rt->v4[i];
	return best ? best->ifname : NULL;
}

static const char *route6_lookup(const struct routes *rt, const uint8_t *addr)
{
	const struct route6 *best = NULL;

	for (size_t i = 0; i < rt->n6; i++)
		if (prefix6_match(addr, rt->v6[i].dest, rt->v6[i].plen) &&
		    (!best || rt->v6[i].plen > best->plen))
			best = &rt->v6[i];
	return best ? best->ifname : NULL;
}

/* ---- ssh sessions ------------------------------------------------------ */

/*
 * /proc/net/tcp{,6} print each 32-bit word of an address as the host holds it (%08X of
 * the raw word): the word back in memory is the address's bytes. words: 1 or 4.
 */
static int tcp_addr(const char *s, size_t words, uint8_t out[16])
{
	if (strlen(s) != 8 * words)
		return -EINVAL;
	for (size_t w = 0; w < words; w++) {
		unsigned v;
		uint32_t word;

		if (sscanf(s + 8 * w, "%8x", &v) != 1)
			return -EINVAL;
		word = v;
		memcpy(out + 4 * w, &word, 4);
	}
	return 0;
}

static uint32_t word_at(const uint8_t *a)
{
	uint32_t w;

	memcpy(&w, a, 4);
	return w;
}

/* "eth0 carries the ssh session from 10.0.0.1": the first session routed through chain. */
static int ssh_in_file(const struct sysroot *root, const char *file, bool v6,
		       const struct routes *rt, const struct chain *c, char **ret)
{
	_cleanup_(freep) char *text = NULL;
	char *save = NULL;
	int r;

	r = sysroot_read_file(root, SYSROOT_PROC, NET_MAX_FILE, &text, NULL, "net/%s", file);
	if (r < 0)
		return r == -ENOENT && v6 ? 0 : r;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char local[33], remote[33], shown[INET6_ADDRSTRLEN];
		unsigned lport, rport, st;
		uint8_t a[16];
		const char *ifname = NULL;
		size_t at;

		if (sscanf(l, " %*d: %32[0-9A-Fa-f]:%x %32[0-9A-Fa-f]:%x %x", local, &lport, remote,
			   &rport, &st) != 5 ||
		    st != 1 || lport != SSH_PORT) /* TCP_ESTABLISHED to our port 22 */
			continue;
		if (!v6 && tcp_addr(remote, 1, a) == 0) {
			ifname = route4_lookup(rt, word_at(a));
			inet_ntop(AF_INET, a, shown, sizeof(shown));
		} else if (v6 && tcp_addr(remote, 4, a) == 0) {
			static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
			bool v4 = memcmp(a, mapped, 12) == 0;

			ifname = v4 ? route4_lookup(rt, word_at(a + 12)) : route6_lookup(rt, a);
			inet_ntop(v4 ? AF_INET : AF_INET6, v4 ? a + 12 : a, shown, sizeof(shown));
		}
		if (!ifname || !chain_has(c, ifname, &at))
			continue;
		return asprintf(ret, "%s%s%s%s carries the ssh session from %s", ifname,
				c->via[at][0] ? " (" : "", c->via[at],
				c->via[at][0] ? " is stacked below it)" : "", shown) < 0
			       ? -ENOMEM
			       : 1;
	}
	return 0;
}

/* ---- the verdict ------------------------------------------------------- */

static int default_route(const struct routes *rt, const struct chain *c, char **ret)
{
	static const uint8_t zero[16];
	const char *ifname = NULL;
	size_t at;

	for (size_t i = 0; !ifname && i < rt->n4; i++)
		if (rt->v4[i].dest == 0 && rt->v4[i].mask == 0 &&
		    chain_has(c, rt->v4[i].ifname, &at))
			ifname = rt->v4[i].ifname;
	for (size_t i = 0; !ifname && i < rt->n6; i++)
		if (rt->v6[i].plen == 0 && !memcmp(rt->v6[i].dest, zero, 16) &&
		    chain_has(c, rt->v6[i].ifname, &at))
			ifname = rt->v6[i].ifname;
	if (!ifname)
		return 0;
	return asprintf(ret, "%s%s%s%s carries the default route", ifname,
			c->via[at][0] ? " (" : "", c->via[at],
			c->via[at][0] ? " is stacked below it)" : "") < 0
		       ? -ENOMEM
		       : 1;
}

static int chain_describe(const struct chain *c, const char *module, char **ret)
{
	return asprintf(ret, "unloading %s takes down %s%s", module, c->name[0],
			c->n > 1 ? " and what is stacked on it" : "") < 0
		       ? -ENOMEM
		       : 0;
}

int kmod_net_guard(const struct sysroot *root, const char *module, char **ret)
{
	_cleanup_(freep) char *why = NULL, *what = NULL;
	struct routes rt = {};
	struct chain c;
	int r;

	*ret = NULL;
	r = chain_build(root, module, &c);
	if (r < 0 && r != -ENOMEM)
		return asprintf(ret,
				"unloading %s may take down an interface: class/net cannot be "
				"listed (%s)",
				module, strerror(-r)) < 0
			       ? -ENOMEM
			       : 0;
	if (r < 0)
		return r;
	if (c.n == 0)
		return (*ret = strdup("")) ? 0 : -ENOMEM;
	r = routes4_read(root, &rt);
	if (r >= 0)
		r = routes6_read(root, &rt);
	if (r == -ENOMEM)
		goto out;
	if (r < 0) {
		r = asprintf(&why, "the route table cannot be read (%s)", strerror(-r)) < 0
			    ? -ENOMEM
			    : 1;
	} else {
		r = default_route(&rt, &c, &why);
		if (r == 0)
			r = ssh_in_file(root, "tcp", false, &rt, &c, &why);
		if (r == 0)
			r = ssh_in_file(root, "tcp6", true, &rt, &c, &why);
	}
	if (r > 0 && chain_describe(&c, module, &what) >= 0)
		r = asprintf(ret, "%s: %s", what, why) < 0 ? -ENOMEM : 0;
	else if (r == 0)
		r = (*ret = strdup("")) ? 0 : -ENOMEM;
	else if (r > 0)
		r = -ENOMEM;
out:
	routes_done(&rt);
	return r;
}
