// SPDX-License-Identifier: GPL-2.0
/*
 * Comparison rules shared by the baseline check and the fleet comparison.
 */
#include "judge/compare_rules.h"

const enum p2pd_field same_model_fields[] = {
	P2PD_F_ROLE, P2PD_F_PARENT, P2PD_F_VENDOR, P2PD_F_DEVICE,
	P2PD_F_ACS_CTRL, P2PD_F_LINK_MAX_SPEED, P2PD_F_LINK_MAX_WIDTH,
	P2PD_F_IOMMU_DOMAIN, P2PD_F_P2P_ENDPOINT,
};
const unsigned int nr_same_model_fields =
	sizeof(same_model_fields) / sizeof(same_model_fields[0]);

enum finding_severity verdict_change_severity(enum p2pd_verdict now)
{
	return now == P2PD_VERDICT_BLOCKED ? SEV_ERROR :
	       now == P2PD_VERDICT_OK ? SEV_INFO : SEV_WARNING;
}

bool bw_below_reference(double reference, double now, double tolerance)
{
	return reference > 0 && now < reference * (1 - tolerance);
}
