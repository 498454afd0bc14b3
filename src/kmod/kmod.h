/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

/*
 * The kernel-module pipeline module (issue 7): scan → plan → apply →
 * verify for [Module:NAME] and [GPUDirect]. Its state hangs off struct run
 * as one opaque pointer.
 */
struct run;
struct kmod_run;

/* The planned module actions, for apply --dry-run (nothing when no module is configured). */
int kmod_plan_print(const struct run *run, FILE *f);
/* A new JSON array of the module actions (empty without module rules); NULL on ENOMEM. */
struct json_object *kmod_plan_json(const struct run *run);
