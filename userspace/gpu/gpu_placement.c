// SPDX-License-Identifier: GPL-2.0
/*
 * Where the host side of a measurement runs: the pinned buffers are asked
 * for on the GPU's NUMA node, and afterwards the CPU and node of the
 * worker (bound next to the GPU through NVML) and the node that holds the
 * buffers' pages are read back.  Copies to or from a buffer on the far
 * socket cross the CPUs' interconnect and read low without any fault on
 * the path, so the report says where they really ran.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gpu/gpu_priv.h"

/* linux/mempolicy.h */
#define MPOL_DEFAULT	0
#define MPOL_PREFERRED	1
#define MPOL_F_NODE	(1 << 0)
#define MPOL_F_ADDR	(1 << 1)

void gpu_placement_prefer_node(int node)
{
	unsigned long mask[16] = { 0 };

	if (node < 0 || node >= (int)(sizeof(mask) * 8)) {
		syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
		return;
	}
	mask[node / (8 * sizeof(long))] = 1ul << (node % (8 * sizeof(long)));
	syscall(SYS_set_mempolicy, MPOL_PREFERRED, mask, sizeof(mask) * 8);
}

void gpu_placement_read(struct gpu_placement *p, const void *buf)
{
	unsigned int cpu = 0, node = 0;
	int buf_node = -1;

	p->cpu = p->cpu_node = p->buf_node = -1;
	if (syscall(SYS_getcpu, &cpu, &node, NULL) == 0) {
		p->cpu = (int)cpu;
		p->cpu_node = (int)node;
	}
	if (buf && syscall(SYS_get_mempolicy, &buf_node, NULL, 0, buf,
			   MPOL_F_NODE | MPOL_F_ADDR) == 0)
		p->buf_node = buf_node;
	p->valid = p->cpu >= 0 || p->buf_node >= 0;
}
