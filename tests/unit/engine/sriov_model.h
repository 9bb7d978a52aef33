/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic SR-IOV servers: root ports, PCIe switches, NICs with one
 * physical function and its virtual functions.  The engine's grouping
 * tests and the scale benchmark (tests/bench) build their trees here.
 */
#ifndef P2PD_TEST_SRIOV_MODEL_H
#define P2PD_TEST_SRIOV_MODEL_H

#include "p2pdiag/model.h"

/* The device IDs of a NIC's physical and virtual functions. */
#define SRIOV_MODEL_PF_DEVICE	0x101d
#define SRIOV_MODEL_VF_DEVICE	0x101e

struct sriov_spec {
	unsigned int switches;		/* root ports with a switch below */
	unsigned int nics;		/* NICs per switch, one downstream port each */
	unsigned int vfs;		/* VFs per PF, at PF + 1 + i (ARI numbering past 8) */
	unsigned int direct_nics;	/* NICs on root ports of their own */
	unsigned int root_bus_nics;	/* NICs on the root bus itself (no bridge) */
	unsigned int gpus;		/* GPUs per switch, after the NICs */
	int switch_redirect;		/* downstream ports have ReqRedir+ CmpltRedir+ */
	int root_redirect;		/* root ports too */
	int vf_link;			/* VFs report their PF's link (as QEMU's do), not none */
	int vf_variety;			/* VFs differ: every 3rd ATS off, every VF with ACS, every 5th redirecting */
	unsigned int cpu_flags;		/* P2PD_CPU_* */
};

/*
 * Build @s into @m (fn[] sorted, generation 1).  Return: 0, or -1 when it
 * does not fit (more than 25 switches, 8 NICs a switch or 255 VFs) or
 * memory runs out.  Free with free(m->fn).
 */
int sriov_model(const struct sriov_spec *s, struct p2pd_model *m);

#endif /* P2PD_TEST_SRIOV_MODEL_H */
