/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PCIe figure NCCL's topology gives a GPU's own link, by NCCL's
 * release: what its ring and tree bandwidth estimates start from.
 */
#ifndef P2PDIAG_JUDGE_NCCL_LINK_H
#define P2PDIAG_JUDGE_NCCL_LINK_H

#include <stdbool.h>

#include "judge/judgement.h"

/* NCCL_VERSION_CODE of the first release that reads the link from NVML. */
#define NCCL_LINK_FROM_NVML_SINCE	23007

struct nccl_link_view {
	unsigned int speed_tenths;	/* per lane, 0.1 GT/s */
	unsigned int width;
	double gbs;			/* NCCL's bandwidth: width x lane rate */
	bool from_nvml;			/* NVML's current link, else sysfs maximum */
};

/*
 * nccl_gpu_link() - the link NCCL @version (NCCL_VERSION_CODE) gives
 * CUDA GPU @g of @r.  Return: true when it can be said (the GPU's NVML
 * reading, or its link in the snapshot, as that release wants).
 */
bool nccl_gpu_link(const struct check_run *r, unsigned int g, int version,
		   struct nccl_link_view *out);

/* nccl-link-current for each GPU whose NCCL figure is its idle link. */
void judge_nccl_links(struct check_run *r);

#endif /* P2PDIAG_JUDGE_NCCL_LINK_H */
