// SPDX-License-Identifier: GPL-2.0-or-later
#include <sys/stat.h>

#include "kmod/kmod-check.h"
#include "kmod/kmod-stack.h"
#include "run/run.h"

#define STACK_SEE "see module.stack: the whole RDMA stack must be swapped, not this module"

/* A module file built by MLNX_OFED: it needs mlx_compat. */
static bool file_is_ofed(const struct kmod_seen *s)
{
	return s->file_err == 0 && s->file.depends && kmod_list_has(s->file.depends, "mlx_compat");
}

/* Live, OFED's file on disk, and what runs is not it: not OFED's, not out-of-tree. */
static bool runs_inbox(const struct kmod_seen *s)
{
	bool same = s->srcversion && s->file.srcversion && streq(s->srcversion, s->file.srcversion);

	return s->state == KS_LIVE && file_is_ofed(s) && !same && !s->ofed_dep &&
	       !strchr(s->taint, 'O');
}

static bool root_has(const struct run *run, enum sysroot_top top, const char *rel)
{
	return sysroot_exists(run->root, top, "%s", rel) > 0;
}

static int ofed_scan(struct kmod_run *k, bool *ret_installed)
{
	struct kmod_file_info f = {};
	int r;

	*ret_installed = false;
	if (!k->backend)
		return 0;
	r = k->backend->ops->lookup(k->backend, "mlx_compat", &f);
	if (r == -ENOMEM)
		return r;
	*ret_installed = r >= 0;
	kmod_file_info_done(&f);
	if (r < 0)
		return 0;
	r = k->backend->ops->lookup(k->backend, "mlx5_core", &f);
	if (r == -ENOMEM)
		return r;
	if (r >= 0 && f.version && kmod_list_has(f.depends, "mlx_compat"))
		k->stack.ofed_version = TAKE_PTR(f.version);
	kmod_file_info_done(&f);
	return 0;
}

int kmod_stack_scan(struct kmod_run *k, const struct run *run)
{
	char *out = NULL;
	size_t size = 0;
	bool installed;
	FILE *f;
	int r;

	kmod_stack_done(&k->stack);
	r = ofed_scan(k, &installed);
	if (r < 0 || !installed || root_has(run, SYSROOT_SYS, "module/mlx_compat"))
		return r;
	f = open_memstream(&out, &size);
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < k->n_seen; i++)
		if (runs_inbox(&k->seen[i]))
			fprintf(f, "%s%s", size ? ", " : "", k->seen[i].rule->name), fflush(f);
	if (fclose(f) != 0 || !out)
		return -ENOMEM;
	k->stack.inbox_running = *out;
	k->stack.running = out;
	return 0;
}

void kmod_stack_done(struct kmod_stack *st)
{
	free(st->ofed_version);
	free(st->running);
	*st = (struct kmod_stack){};
}

bool kmod_stack_has(const struct kmod_run *k, const struct kmod_seen *s)
{
	return k->stack.inbox_running && runs_inbox(s);
}

/* openibd swaps the whole stack where OFED ships it; else the initramfs and a reboot. */
static const char *stack_remedy(const struct run *run)
{
	if (root_has(run, SYSROOT_ETC, "init.d/openibd") ||
	    root_has(run, SYSROOT_USR_LIB, "systemd/system/openibd.service") ||
	    root_has(run, SYSROOT_ETC, "systemd/system/openibd.service"))
		return "/etc/init.d/openibd restart (OFED's script unloads the kernel's RDMA "
		       "modules and loads OFED's, all together; RDMA traffic stops meanwhile), "
		       "then update the initramfs so that boot loads OFED's stack too";
	if (root_has(run, SYSROOT_ETC, "debian_version"))
		return "update-initramfs -u, then reboot: boot loads OFED's stack (reloading one "
		       "module would mix the two stacks)";
	if (root_has(run, SYSROOT_ETC, "redhat-release") ||
	    root_has(run, SYSROOT_ETC, "dracut.conf"))
		return "dracut -f, then reboot: boot loads OFED's stack (reloading one module "
		       "would "
		       "mix the two stacks)";
	return "update the initramfs (update-initramfs -u, or dracut -f), then reboot: boot "
	       "loads OFED's stack (reloading one module would mix the two stacks)";
}

int kmod_stack_verify(struct kmod_run *k, struct run *run)
{
	if (!k->stack.inbox_running)
		return 0;
	return results_addf(&run->results,
			    &(const struct result_spec){
				    .verdict = VERDICT_FAIL,
				    .check = "module.stack",
				    .object = "rdma",
				    .expected = "the RDMA stack on disk is the one running",
				    .remedy = stack_remedy(run),
				    .action = ACTION_DRIVER,
			    },
			    "the running RDMA stack is the kernel's own; OFED %s is installed but "
			    "not loaded (running: %s, the kernel's builds: not the files on disk, "
			    "not out-of-tree; mlx_compat not loaded)",
			    k->stack.ofed_version ? k->stack.ofed_version : "(version unknown)",
			    k->stack.running);
}

const char *kmod_stack_see(void)
{
	return STACK_SEE;
}
