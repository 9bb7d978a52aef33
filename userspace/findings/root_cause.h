/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Root causes: the one vocabulary every cause is put in, live runs and
 * --evidence runs alike, so that a report, a script and a corpus of
 * published cases can compare what the tool concluded with what a
 * maintainer concluded.  Each finding code has a default root cause in
 * its entry of finding_codes.h; a rule that knows better (GeForce cards that
 * CUDA refuses are consumer-gpu, not just "refused") sets the finding's
 * own with findings_set_root_cause().
 */
#ifndef P2PDIAG_ROOT_CAUSE_H
#define P2PDIAG_ROOT_CAUSE_H

#include <stdbool.h>

enum root_cause {
	RC_UNDECIDED,		/* the facts do not decide: also every default */
	RC_ACS_REDIRECT,
	RC_IOMMU_TRANSLATION,
	RC_HOST_BRIDGE,
	RC_CONSUMER_GPU,
	RC_CROSS_SOCKET,
	RC_LINK_DEGRADED,
	RC_NVLINK,
	RC_BAR_SIZE,
	RC_DRIVER,
	RC_BIOS_SETTING,
	RC_VIRTUALIZATION,
	RC_HEALTHY,
	RC_COUNT,
};

/* "acs-redirect", ...; "undecided" for anything out of range. */
const char *root_cause_name(enum root_cause rc);

#endif /* P2PDIAG_ROOT_CAUSE_H */
