/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's fourth step, after topology, software and measurements:
 * the settings that change what copies and P2P
 * achieve, each with its value, what it does and the command that changes
 * it, for the reports to list; and the findings for those set against
 * performance.
 */
#ifndef P2PDIAG_JUDGE_SETTINGS_H
#define P2PDIAG_JUDGE_SETTINGS_H

#include "judge/judgement.h"

enum judge_setting_state {
	SETTING_UNKNOWN,	/* NVML or the kernel did not say */
	SETTING_FINE,		/* as a performance check wants it */
	SETTING_NOTE,		/* worth knowing */
	SETTING_AGAINST,	/* costs performance or P2P */
};

struct judge_setting {
	const char *key;	/* "ecc": JSON's key */
	/* what it is reported as when against or noted; FC_COUNT: never */
	enum finding_code finding;
	const char *name;	/* "ECC" */
	char value[96];		/* "on", "on, off after the next reset" */
	const char *effect;	/* what it does to copies and P2P */
	char change[160];	/* the command that changes it */
	enum judge_setting_state state;
};

#define JUDGE_SETTINGS_MAX 8

/*
 * judge_gpu_settings() - GPU @g's settings, into @out (JUDGE_SETTINGS_MAX).
 * Return: how many.
 */
unsigned int judge_gpu_settings(const struct check_run *r, unsigned int g,
				struct judge_setting *out);
/*
 * judge_host_aspm() - the PCIe ASPM policy as its module parameter's file
 * gives it (@policy, "" when not read: unknown), as a setting.
 */
void judge_host_aspm(const char *policy, struct judge_setting *out);
const char *judge_setting_state_name(enum judge_setting_state s);

/* The findings: ecc-pending, mig-enabled, compute-mode, app-clocks-low,
 * persistence-off, aspm-powersave. */
void judge_settings(struct check_run *r);

#endif /* P2PDIAG_JUDGE_SETTINGS_H */
