// SPDX-License-Identifier: GPL-2.0-or-later
#include <json-c/json.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/log.h"
#include "pci/pci.h"
#include "report/sinks.h"

void cli_set_privilege(struct options *o)
{
	o->euid = geteuid();
	o->privileged = o->euid == 0;
	pci_set_privileged(o->privileged);
}

bool use_color(const struct options *o)
{
	return !o->no_color && !o->json && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

/* A --root that is not a directory is a usage error (exit 2), never an empty host. */
int open_root(const struct options *o, struct sysroot *root)
{
	int r = sysroot_init(root, o->root);

	if (r == -ENOMEM)
		return log_oom();
	if (r < 0) {
		log_error_errno(r, "Invalid --root '%s': %m", o->root);
		return -EINVAL;
	}
	return 0;
}

int load_config(const struct options *o, const struct sysroot *root, unsigned flags,
		struct config *c)
{
	int r = o->vendor_config ? config_load_vendor(c, root, o->vendor_config, flags)
				 : config_load(c, root, o->n_configs ? o->configs : NULL, flags);

	if (r == -EINVAL || r == -EPERM)
		return -EINVAL; /* already logged as file:line: reason */
	if (r < 0)
		return log_error_errno(r, "Failed to load the configuration: %m");
	return 0;
}

int render(const struct options *o, const struct report *rep)
{
	int r = o->json ? render_json(rep, stdout)
			: render_text(rep, stdout, use_color(o),
				      o->verbose ? 0 : render_width(STDOUT_FILENO));

	fflush(stdout);
	return r;
}

void print_json(struct json_object *j)
{
	printf("%s\n",
	       json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							 JSON_C_TO_STRING_NOSLASHESCAPE));
}
