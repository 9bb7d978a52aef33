// SPDX-License-Identifier: GPL-2.0
/*
 * Where the host side of a measurement ran: the CPU and NUMA node of the
 * worker after it was bound next to the GPU, and the node that holds the
 * pinned buffers' pages.  Copies to or from a buffer on the far socket
 * cross the CPUs' interconnect and read low without any fault on the path.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gpu/gpu_priv.h"

#define MPOL_F_NODE	(1 << 0)	/* linux/mempolicy.h */
#define MPOL_F_ADDR	(1 << 1)

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
