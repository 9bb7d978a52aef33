// SPDX-License-Identifier: GPL-2.0
/*
 * rocm-smi --showtopo (and --showtopotype, --showtopoweight, --showtoponuma
 * alone): under "Weight between two GPUs", "Hops between two GPUs" and
 * "Link Type between two GPUs" a header of GPU columns (GPU0 GPU1 ...)
 * and a row per GPU, 0 on the diagonal; then "Numa Nodes", one line a GPU
 * ("GPU[0]\t\t: (Topology) Numa Node: 0", older "GPU 0 : ...").
 *
 * Into the facts nvidia-smi topo -m fills, by rocm-smi's GPU numbers:
 * - the link type: XGMI is AMD's GPU-to-GPU fabric, peer copies that do
 *   not cross PCIe, which is what NVLink (EV_LINK_NV) stands for; its
 *   link count is not shown, so topo_nvlinks stays 0.  PCIE says only
 *   that the pair talks over PCIe: whether through a switch, a root
 *   complex or across sockets (PIX/PXB, PHB/NODE, SYS) is not shown, so
 *   it is EV_LINK_PCIE, which no switch or socket rule takes for either;
 * - the NUMA node of each GPU (topo_numa), from "Numa Node";
 * - the weight table is read as rocm-smi's own but not mapped: the
 *   driver's weight adds a cost per PCIe segment and the NUMA distance
 *   between the CPUs crossed, so equal weights can be a switch or a root
 *   complex, and a larger one two NUMA nodes of one socket or two sockets;
 * - the hops table is not used: it is known to count 1 between XGMI GPUs
 *   that are not directly connected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"

enum smi_table { SMI_NONE, SMI_WEIGHT, SMI_HOPS, SMI_TYPE };

/* The table a rocm-smi section title opens, or SMI_NONE. */
static enum smi_table table_title(const char *s)
{
	if (!strstr(s, " between two GPUs"))
		return SMI_NONE;
	if (strstr(s, "Weight between"))
		return SMI_WEIGHT;
	if (strstr(s, "Hops between"))
		return SMI_HOPS;
	if (strstr(s, "Link Type between"))
		return SMI_TYPE;
	return SMI_NONE;
}

/* "GPU3" as 3, or -1. */
static int gpu_word(const char *w)
{
	char *end;
	unsigned long v;

	if (strncmp(w, "GPU", 3) || w[3] < '0' || w[3] > '9')
		return -1;
	v = strtoul(w + 3, &end, 10);
	if (*end || v >= EV_GPU_MAX)
		return -1;
	return (int)v;
}

/* A header of GPU columns: their numbers into @col, how many. */
static unsigned int header(const char *s, int col[EV_GPU_MAX])
{
	unsigned int n = 0;
	char w[32];

	while (ev_word(&s, w, sizeof(w))) {
		int g = gpu_word(w);

		if (g < 0 || n >= EV_GPU_MAX)
			return 0;
		col[n++] = g;
	}
	return n;
}

static enum ev_link type_word(const char *w, bool self)
{
	if (self && !strcmp(w, "0"))
		return EV_LINK_SELF;
	if (!strcmp(w, "XGMI"))
		return EV_LINK_NV;
	if (!strcmp(w, "PCIE"))
		return EV_LINK_PCIE;
	return EV_LINK_UNKNOWN;
}

/*
 * The table titled at line @i: its rows read, the index of the line after
 * it returned; *@read set when a header and a row were there.
 */
static unsigned int read_table(struct evidence *ev, unsigned int fi, unsigned int i,
			       enum smi_table t, bool *read)
{
	const struct ev_file *f = &ev->file[fi];
	int col[EV_GPU_MAX];
	unsigned int at = i + 1, n;

	while (at < f->nr_lines && !*ev_skip_blank(f->line[at]))
		at++;
	if (at >= f->nr_lines || !(n = header(f->line[at], col)))
		return at;
	for (at++; at < f->nr_lines; at++) {
		const char *s = f->line[at];
		unsigned int c;
		char w[32];
		int row;

		if (!ev_word(&s, w, sizeof(w)) || (row = gpu_word(w)) < 0)
			break;
		*read = true;
		for (c = 0; c < n && ev_word(&s, w, sizeof(w)); c++) {
			if (t != SMI_TYPE)
				continue;
			ev->topo_link[row][col[c]] = type_word(w, row == col[c]);
			ev->topo_nvlinks[row][col[c]] = 0;
		}
		if (t != SMI_TYPE && ev->topo_ref[row].line)
			continue;
		ev->topo_ref[row].file = fi;
		ev->topo_ref[row].line = at + 1;
		if ((unsigned int)row + 1 > ev->topo_gpus)
			ev->topo_gpus = (unsigned int)row + 1;
	}
	return at;
}

/* "GPU[0]\t\t: (Topology) Numa Node: 0" or "GPU 0 : ...": 1 read, 0 not. */
static int numa_line(struct evidence *ev, const char *s)
{
	unsigned int g;
	int node, n = 0;
	const char *p = strstr(s, "(Topology) Numa Node:");

	if (!p || (sscanf(s, "GPU[%u]%n", &g, &n) != 1 && sscanf(s, "GPU %u%n", &g, &n) != 1) ||
	    !n || g >= EV_GPU_MAX || sscanf(p + 21, "%d", &node) != 1 || node < 0 || node >= 4096)
		return 0;
	ev->topo_numa[g] = node;
	return 1;
}

void read_rocm_smi_topo(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i = 0;

	while (i < f->nr_lines) {
		enum smi_table t = table_title(f->line[i]);
		bool read = false;

		if (numa_line(ev, ev_skip_blank(f->line[i]))) {
			f->formats |= EV_FMT_ROCM_SMI_TOPO;
			i++;
			continue;
		}
		if (t == SMI_NONE) {
			i++;
			continue;
		}
		i = read_table(ev, fi, i, t, &read);
		if (read)
			f->formats |= EV_FMT_ROCM_SMI_TOPO;
	}
}
