/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What two servers of one model must share, and how bad a difference is:
 * the rules of the baseline check (one golden server) and of the fleet
 * comparison (each group's majority), kept once.
 */
#ifndef P2PDIAG_COMPARE_RULES_H
#define P2PDIAG_COMPARE_RULES_H

#include <stdbool.h>

#include "findings/findings.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

/*
 * The per-function fields that do not differ between healthy servers of
 * one model: role, parent, IDs, ACS control, maximum links, IOMMU domain
 * and whether it is a P2P endpoint.  Not the current link (an idle GPU
 * trains its speed down on purpose), nor numbers the kernel hands out
 * (IOMMU groups, NUMA nodes of a different boot order).
 */
extern const enum p2pd_field same_model_fields[];
extern const unsigned int nr_same_model_fields;

/*
 * verdict_change_severity() - how bad it is that a pair's verdict is @now
 * where the reference's is another: blocked is broken (error), ok is
 * better than the reference (info), anything else a warning.
 */
enum finding_severity verdict_change_severity(enum p2pd_verdict now);

/*
 * bw_below_reference() - whether @now is below @reference by more than
 * the share @tolerance (0.10: 10%).  A reference that is not positive
 * (not measured) is never undershot.
 */
bool bw_below_reference(double reference, double now, double tolerance);

#endif /* P2PDIAG_COMPARE_RULES_H */
