/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <json-c/json.h>

/*
 * The _cleanup_ helpers of json-c's types, for every file that builds or parses JSON
 * (report, plan, topology). Both are NULL-safe: a variable still NULL when its scope ends
 * (a failed constructor, a TAKE_PTR()) is left alone.
 */
static inline void json_object_putp(struct json_object **o)
{
	json_object_put(*o); /* NULL-safe */
}

static inline void json_tokener_freep(struct json_tokener **t)
{
	if (*t)
		json_tokener_free(*t);
}
