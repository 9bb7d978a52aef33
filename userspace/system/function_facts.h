/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of the model's functions that the judgement compares, read
 * once after the copies for every function the model has, so that the
 * judge picks those its pairs need from here instead of reading them:
 * a function's BARs and their Resizable sizes, a bridge's memory
 * windows, its driver's DMA mask, its AtomicOp registers, what caps the
 * link above it, in a guest an NVIDIA GPU's GPUDirect clique, and what
 * the GPUDirect routes ask of a NIC, an NVMe drive or an NVIDIA GPU.
 */
#ifndef P2PDIAG_SYSTEM_FUNCTION_FACTS_H
#define P2PDIAG_SYSTEM_FUNCTION_FACTS_H

#include <stdbool.h>

#include "system/bars.h"
#include "topology/link_caps.h"

struct fsroot;
struct fsroot_refusal;
struct p2pd_model;

/* One function's facts, by the readers named; each "have" false: not read. */
struct function_facts {
	int nr_bars;				/* bars_read(): <= 0 none */
	struct bar bar[BARS_MAX];
	unsigned long long resize[BARS_MAX];	/* bar_resize_sizes(): 0 none */
	/* a parent's prefetchable and non-prefetchable windows */
	bool windows_read;
	bool have_window, have_mem_window;
	struct bridge_window window, mem_window;
	unsigned int dma_mask_bits;		/* dma_mask_bits_read(): 0 none */
	bool have_devcap2;			/* atomics_devcap2_read() */
	unsigned int devcap2;
	/* both words read: Device Capabilities 2 above, Device Control 2 */
	bool have_atomics_regs;
	unsigned int atomics_ctl;
	/* link_cap_read() of a link above running below its maximum speed */
	bool link_capped;
	struct link_cap link_cap;
	/* a guest's NVIDIA GPU: virt_gpu_clique(); else -1 */
	int clique;
	/* a NIC or NVMe drive: gd_read_driver(), gd_device_present() */
	char driver[32];
	bool present;
	char rdma[32];				/* a NIC: gdr_find_rdma() */
	/* an NVIDIA GPU or NVMe drive: gds_iommu_translated() */
	bool iommu_translated;
	char iommu_mode[64];
};

/*
 * function_facts_read() - the facts of every function of @m under @root,
 * by model index, with the first file refused there in @refused; @guest: the machine is a VM, whose NVIDIA GPUs' cliques
 * are read.
 * Return: a malloc'd array of m->nr_fn entries, or NULL (no model, no
 * function, or out of memory: then nothing is read).
 */
struct function_facts *function_facts_read(const struct fsroot *root,
					   struct fsroot_refusal *refused,
					   const struct p2pd_model *m, bool guest);

#endif /* P2PDIAG_SYSTEM_FUNCTION_FACTS_H */
