/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/config.h"
#include "core/run.h"

extern const struct run_module *const run_modules[];
extern const size_t n_run_modules;
