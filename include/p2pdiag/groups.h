/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's IOMMU grouping rule, as far as ACS decides it, over the
 * snapshot model: which function's group a function joins, now or once
 * some ports stop redirecting (the cost of an ACS fix).
 */
#ifndef P2PDIAG_GROUPS_H
#define P2PDIAG_GROUPS_H

#include "p2pdiag/model.h"

/*
 * Ports in the model whose ReqRedir, CmpltRedir and EgressCtrl count as
 * clear, as after pci=disable_acs_redir= names them.
 */
struct p2pd_acs_cleared {
	const int *idx;
	unsigned int nr;
};

/**
 * p2pd_group_anchor() - the function whose IOMMU group @idx joins.
 * @m: the model
 * @idx: index of the function
 * @cleared: ports to treat as not redirecting, or NULL for the model as is
 *
 * pci_device_group() walks up from a function while the bridge above it
 * lacks an ACS path to the root complex (SrcValid, ReqRedir, CmpltRedir
 * and UpstreamFwd at every root and downstream port, and in multifunction
 * devices), and takes the group of the last bridge it reached.  DMA
 * aliases, the functions of one device that share a group without ACS
 * between them, and device-specific ACS quirks are not in the model.
 *
 * Return: @idx itself when it stands alone, else the index of that bridge.
 */
int p2pd_group_anchor(const struct p2pd_model *m, int idx,
		      const struct p2pd_acs_cleared *cleared);

/**
 * p2pd_acs_path_breaker() - the nearest function at or above @idx whose
 * ACS keeps the path to the root complex from isolating (the first that
 * pci_acs_path_enabled() fails on).
 * @m: the model
 * @idx: index of the function to start at
 * @cleared: ports to treat as not redirecting, or NULL for the model as is
 *
 * Return: its index, or P2PD_NO_INDEX when the whole path isolates.
 */
int p2pd_acs_path_breaker(const struct p2pd_model *m, int idx,
			  const struct p2pd_acs_cleared *cleared);

#endif /* P2PDIAG_GROUPS_H */
