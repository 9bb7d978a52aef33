// SPDX-License-Identifier: GPL-2.0
/*
 * One GPU across the outputs.  CUDA's tools (p2pBandwidthLatencyTest,
 * nvbandwidth, nccl-tests, NCCL) number the GPUs in CUDA's order, which
 * is fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID; nvidia-smi numbers
 * them by PCI bus; lspci names them by address.  So a GPU is matched by
 * its bus, never by its number: CUDA's GPU with the k-th lowest bus is
 * nvidia-smi's GPUk when both list the same GPUs, and lspci's function on
 * that bus.  What they say of its place (nvidia-smi's NUMA Affinity or CPU
 * Affinity, topo -m's SYS, lspci's NUMA node) then belongs to it.
 */
#include <ctype.h>
#include <string.h>

#include "evidence/evidence.h"

/* Whether every GPU CUDA's tools name has its bus, and the buses differ. */
static bool buses_known(const struct evidence *ev)
{
	unsigned int g, h;

	if (!ev->nr_gpus)
		return false;
	for (g = 0; g < ev->nr_gpus; g++) {
		if (ev->gpu_bus[g] < 0)
			return false;
		for (h = 0; h < g; h++)
			if (ev->gpu_bus[h] == ev->gpu_bus[g])
				return false;
	}
	return true;
}

/* nvidia-smi's rows in PCI bus order: CUDA's GPU @g is row @rank. */
static void match_topo_rows(struct evidence *ev)
{
	unsigned int g, h, rank;

	if (!ev->topo_gpus || ev->topo_gpus != ev->nr_gpus || !buses_known(ev))
		return;
	for (g = 0; g < ev->nr_gpus; g++) {
		for (rank = 0, h = 0; h < ev->nr_gpus; h++)
			rank += ev->gpu_bus[h] < ev->gpu_bus[g];
		ev->gpu_topo_row[g] = (int)rank;
	}
}

static void numa_from_topo(struct evidence *ev)
{
	unsigned int g;

	for (g = 0; g < ev->nr_gpus; g++) {
		int row = ev->gpu_topo_row[g];

		if (row < 0 || ev->gpu_numa[g] >= 0 || ev->topo_numa[row] < 0)
			continue;
		ev->gpu_numa[g] = ev->topo_numa[row];
		ev->gpu_numa_ref[g] = ev->topo_ref[row];
	}
}

static void numa_from_lspci(struct evidence *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *d = &ev->pci[i];
		int g;

		if (!d->gpu || !d->nvidia || d->numa_node < 0 ||
		    (g = ev_gpu_by_bus(ev, d->bus)) < 0 || ev->gpu_numa[g] >= 0)
			continue;
		ev->gpu_numa[g] = d->numa_node;
		ev->gpu_numa_ref[g] = d->numa_ref;
	}
}

void ev_match_gpus(struct evidence *ev)
{
	match_topo_rows(ev);
	numa_from_lspci(ev);
	numa_from_topo(ev);
}

/* topo -m's CPU Affinity of two rows: 1 different, 0 the same, -1 unknown. */
static int cpus_differ(const struct evidence *ev, int ra, int rb)
{
	const char *x = ev->topo_cpus[ra], *y = ev->topo_cpus[rb];

	if (!x[0] || !y[0] || !strcmp(x, "N/A") || !strcmp(y, "N/A"))
		return -1;
	return strcmp(x, y) != 0;
}

int ev_pair_numa(const struct evidence *ev, unsigned int a, unsigned int b,
		 struct ev_ref *ref)
{
	int ra, rb, cpus;

	if (a >= EV_GPU_MAX || b >= EV_GPU_MAX || a == b)
		return -1;
	if (ev->gpu_numa[a] >= 0 && ev->gpu_numa[b] >= 0) {
		*ref = ev->gpu_numa_ref[ev->gpu_numa[a] != ev->gpu_numa[b] ? b : a];
		return ev->gpu_numa[a] != ev->gpu_numa[b];
	}
	ra = ev->gpu_topo_row[a];
	rb = ev->gpu_topo_row[b];
	if (ra < 0 || rb < 0)
		return -1;
	*ref = ev->topo_ref[ra];
	switch (ev->topo_link[ra][rb]) {
	case EV_LINK_SYS:
		return 1;
	case EV_LINK_PIX: case EV_LINK_PXB: case EV_LINK_PSB:
	case EV_LINK_PHB: case EV_LINK_NODE:
		return 0;
	default:
		break;
	}
	cpus = cpus_differ(ev, ra, rb);
	if (cpus >= 0)
		return cpus;
	return -1;
}

/*
 * A name that drops "GeForce" ("RTX 4090", as people write it) still
 * says its model: a GeForce RTX number is 20x0 to 50x0 with x from 5 to
 * 9 (2060, 3090, 4070, 5080); the workstation parts' numbers end in 00
 * or are not of that form (2000, 4000, 4500, 5880, 6000, 8000).
 */
static bool geforce_rtx_number(const char *name)
{
	const char *s = name;

	while ((s = strstr(s, "RTX ")) != NULL) {
		s += 4;
		if (s[0] >= '2' && s[0] <= '5' && s[1] == '0' && s[2] >= '5' && s[2] <= '9' &&
		    s[3] == '0' && !isdigit((unsigned char)s[4]))
			return true;
	}
	return false;
}

bool ev_consumer_gpu(const char *name)
{
	return strstr(name, "GeForce") || strstr(name, "TITAN") || geforce_rtx_number(name);
}

int ev_first_consumer_gpu(const struct evidence *ev)
{
	unsigned int g;

	for (g = 0; g < ev->nr_gpus; g++)
		if (ev_consumer_gpu(ev->gpu_name[g]))
			return (int)g;
	return -1;
}
