/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>

#include "core/macro.h"

/*
 * PCI device selectors used by [ACS:*] rules.
 *
 *   0000:3a:00.0 / 3a:00.0       exact address (domain defaults to 0000)
 *   10b5:8796  10b5:*  *:1234    vendor:device, '*' is a wildcard per half
 *   class:06 class:0604 class:060400
 *                                class code prefix (base, +sub, +prog-if)
 *   accel                        a part the table of known accelerators lists
 *                                (pci/accel.h: by vendor:device, not by class)
 *   upstream:<one of the above>  the ACS-capable ports on the path from each
 *                                matching endpoint up to its root port
 *   p2p:<A>~<B>  p2p:<A>         the ports whose ACS decides peer-to-peer between
 *                                an endpoint matching A and one matching B (or
 *                                two matching A), for pairs that meet below a PCIe
 *                                switch (PIX/PXB): topo_pair_ports(). [ACS:*] only.
 */
enum selector_kind {
	SELECTOR_ADDRESS,
	SELECTOR_ID,
	SELECTOR_CLASS,
	SELECTOR_ACCEL,
};

#define SELECTOR_ANY (-1)

struct pci_ident {
	uint32_t domain;
	uint8_t bus, dev, func;
	uint16_t vendor, device;
	uint32_t class_code; /* 24 bit: base << 16 | sub << 8 | prog-if */
};

/* B of p2p:A~B: the device part of a selector. */
struct selector_peer {
	enum selector_kind kind;
	uint32_t domain;
	uint8_t bus, dev, func;
	int32_t vendor, device;
	uint32_t class_value;
	uint32_t class_mask;
};

struct selector {
	enum selector_kind kind;
	bool upstream;
	bool p2p;      /* p2p:A~B or p2p:A; the fields below are A */
	bool has_peer; /* p2p:A~B: peer is B; p2p:A: pairs within A */
	struct selector_peer peer;
	uint32_t domain;
	uint8_t bus, dev, func;
	int32_t vendor, device; /* SELECTOR_ANY or the 16-bit id */
	uint32_t class_value;	/* left-aligned in 24 bits */
	uint32_t class_mask;
};

#define SELECTOR_TEXT_MAX 64

/* Parse one selector; -EINVAL with *reason set to a static description. p2p: is refused. */
int selector_parse(const char *text, struct selector *ret, const char **reason);
/* The same with the p2p: form, which only [ACS:*] Select=/Exclude= take. */
int selector_parse_acs(const char *text, struct selector *ret, const char **reason);
/* Does the device itself match (the upstream flag is ignored here; p2p: A). */
bool selector_match_ident(const struct selector *s, const struct pci_ident *id);
/* p2p: does the device match B (A again for p2p:A). */
bool selector_match_peer(const struct selector *s, const struct pci_ident *id);
/* Canonical text of a selector into buf (SELECTOR_TEXT_MAX). */
void selector_format(const struct selector *s, char *buf, size_t size);

/* Parse "[dddd:]bb:dd.f". */
int pci_address_parse(const char *s, uint32_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *func);
/*
 * Is s a function's name exactly as the kernel prints it ("%04x:%02x:%02x.%d": lower-case,
 * the domain in at least four digits; Intel VMD's are 10000 and up, five)?
 */
bool pci_address_is_kernel(const char *s);
