/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read the module's topology file (ABI version 1) back into a snapshot
 * model: the live /sys/kernel/p2pdiag/topology, or a copy saved on another
 * machine and judged here with --topology-file.
 *
 *   # p2pdiag abi=1 generation=<n> functions=<m> [cpu=amd_zen|amd|other]
 *     [kernel=<release>] [root_bus_first=<addr>,...|none]
 *   addr=<dddd:bb:dd.f> role=<...> parent=<addr|none> ... p2p_endpoint=<0|1>
 *
 * Strict, because a verdict built on a misread line is worse than none:
 * every ABI field must be present and well formed, addresses unique, the
 * header's functions= equal to the lines, and the tree consistent (a
 * parent sits on a lower bus of the same domain, so the parent chains
 * cannot loop).  Keys this version does not know are skipped, so a newer
 * module's file still reads.
 */
#ifndef P2PDIAG_TOPOLOGY_PARSE_H
#define P2PDIAG_TOPOLOGY_PARSE_H

#include <stddef.h>

#include "p2pdiag/model.h"

/* Longest line accepted, without its newline (a v1 line is ~450 bytes). */
#define TOPO_MAX_LINE		4096
/* Most functions accepted: one full PCI domain. */
#define TOPO_MAX_FUNCTIONS	65536

/* Most root buses a header's root_bus_first= may name. */
#define TOPO_MAX_ROOT_BUSES	256

/* What the header said besides the functions themselves. */
struct topo_header {
	unsigned int abi;
	unsigned long generation;
	unsigned int functions;
	int cpu_known;		/* header carried cpu=; else cpu_flags is 0 */
	unsigned int kernel_release;	/* kernel=, P2PD_RELEASE(); 0: absent */
	/* root_bus_first=: the functions heading their root buses' lists */
	unsigned int nr_root_heads;
	unsigned long long root_head[TOPO_MAX_ROOT_BUSES];
};

/*
 * topo_parse() - fill @m from the topology text @text of @len bytes (no
 * NUL terminator needed).  fn[] comes out sorted by address, cpu_flags from
 * the header's cpu= (0, the kernel's non-AMD rule, when it is absent).
 * Return: 0, or -1 with "line N: what is wrong" in @err; @m is then empty.
 */
int topo_parse(const char *text, size_t len, struct p2pd_model *m,
	       char *err, size_t errlen);

/* The same, also reporting the header in @hdr (may be NULL). */
int topo_parse_ex(const char *text, size_t len, struct p2pd_model *m,
		  struct topo_header *hdr, char *err, size_t errlen);

/*
 * Free a model's functions and empty @m (NULL is a no-op), whichever
 * source filled it: topo_parse(), pci_source_read(), pci_source_walk()
 * or a sysfs snapshot.
 */
void p2pd_model_free(struct p2pd_model *m);

#endif /* P2PDIAG_TOPOLOGY_PARSE_H */
