/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A disaggregated PCIe fabric whose endpoints share no endpoint group:
 * every endpoint hangs below a downstream port of its own, so no two have
 * the same upstream bridge.  The scale benchmark (tests/bench) writes it
 * as a topology file; the tool's tests judge it in memory.
 */
#ifndef P2PD_TEST_FABRIC_MODEL_H
#define P2PD_TEST_FABRIC_MODEL_H

#include "p2pdiag/model.h"

/* downstream ports, and so endpoints, per switch */
#define FABRIC_PORTS_PER_SWITCH	32
#define FABRIC_ENDPOINTS_MAX	65000u

/*
 * fabric_model() - @endpoints NVMe drives into @m (fn[] sorted, IOMMU
 * groups as the kernel forms them): per PCI domain an AMD Zen host bridge
 * and root ports with a switch of FABRIC_PORTS_PER_SWITCH downstream ports
 * each, a drive below each port, no IOMMU translation, no ATS.  Pairs
 * below one switch judge ok, the others through the host, which the CPU
 * routes.  @redirect: ReqRedir+ CmpltRedir+ on the first switch's
 * downstream ports, whose pairs (at most 32 x 31 / 2 = 496) are then
 * redirected.  Return: 0, or -1 (too many endpoints, no memory).  Free
 * with free(m->fn).
 */
int fabric_model(struct p2pd_model *m, unsigned int endpoints, int redirect);

#endif /* P2PD_TEST_FABRIC_MODEL_H */
