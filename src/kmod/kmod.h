/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

/*
 * The kernel-module pipeline module (issue 7): scan → plan → apply →
 * verify for [Module:NAME] and [GPUDirect]. Its state is the run's state of
 * run_module_kmod (src/kmod/mod-kmod.c); its dry-run output is that module's
 * print_plan hook.
 */
struct run;
struct kmod_run;
