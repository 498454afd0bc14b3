/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "topo/topo.h"

/*
 * p2p.json (docs/p2p-schema.md, schema 1): the peer-to-peer verdict hostprep computed for
 * every GPU/accelerator pair and every GPU/accelerator-NIC pair of the topology: distance
 * class (PIX ... SYS, as nvidia-smi topo -m), direct or redirected by ACS and at which
 * ports. Reading ACS Control needs root (config space beyond 64 bytes); job launchers and
 * NCCL/UCX wrappers read this world-readable file instead.
 */
#define P2P_SCHEMA_VERSION 1
/* p2p.json lists its pairs up to this many (pairs_omitted past it; docs/p2p-schema.md) */
#define P2P_PAIRS_MAX 4096

/* The document; NULL on ENOMEM. */
struct json_object *p2p_map_json(const struct topo_view *v);
/* The file's text (the document and a newline), malloc'd; -ENOMEM. */
int p2p_map_text(const struct topo_view *v, char **ret);

/*
 * p2p.env: the same verdict for job scripts (sh `. p2p.env`, systemd EnvironmentFile=,
 * docker --env-file): the GPU/accelerator pairs that meet below a PCIe switch and that ACS
 * redirects (HOSTPREP_P2P_REDIRECTED) or whose ports could not be read
 * (HOSTPREP_P2P_UNKNOWN), "ADDR-ADDR" comma-separated, empty when none. Never
 * NCCL_IGNORE_DISABLED_P2P. Malloc'd; -ENOMEM.
 */
int p2p_map_env(const struct topo_view *v, char **ret);
