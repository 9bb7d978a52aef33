// SPDX-License-Identifier: GPL-2.0
/*
 * The settings that change performance (the report's fourth step: they
 * explain figures that topology and software do not), from
 * NVML's readings (gpu_settings.c, gpu_activity.c) and the kernel's ASPM
 * policy (through the system root): for each, its value, what it does to
 * copies and P2P, and the nvidia-smi (or kernel) command that changes it.
 * Settings against performance also become findings with that command as
 * the fix.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/judge_settings.h"
#include "judge/results.h"
#include "topology/pciaddr.h"

#define NVML_REASON_APP_CLOCKS	0x2ull	/* application or locked clocks */

const char *judge_setting_state_name(enum judge_setting_state s)
{
	switch (s) {
	case SETTING_FINE:	return "fine";
	case SETTING_NOTE:	return "note";
	case SETTING_AGAINST:	return "against";
	default:		return "unknown";
	}
}

static const char *on_off(int v)
{
	return v < 0 ? "unknown" : v ? "on" : "off";
}

static struct judge_setting *next(struct judge_setting *out, unsigned int *n,
				  const char *key, enum finding_code finding,
				  const char *name, const char *effect)
{
	struct judge_setting *s = &out[(*n)++];

	memset(s, 0, sizeof(*s));
	s->key = key;
	s->finding = finding;
	s->name = name;
	s->effect = effect;
	s->state = SETTING_UNKNOWN;
	snprintf(s->value, sizeof(s->value), "unknown");
	return s;
}

static const char *compute_mode_name(int m)
{
	switch (m) {
	case 0: return "default";
	case 1: return "exclusive thread";
	case 2: return "prohibited";
	case 3: return "exclusive process";
	default: return "unknown";
	}
}

unsigned int judge_gpu_settings(const struct check_run *r, unsigned int g,
				struct judge_setting *out)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	const struct gpu_settings *v = &d->settings;
	const struct gpu_activity *a = &d->activity;
	struct judge_setting *s;
	unsigned int n = 0;
	char id[P2PD_ADDR_STRLEN];
	bool held;

	pciaddr_format(id, d->pci_addr);

	s = next(out, &n, "ecc", FC_SETTING_ECC, "ECC",
		 "HBM keeps its bandwidth with ECC on (the check bits live in the stacks); on GDDR GPUs ECC costs memory bandwidth; a change applies only after a GPU reset");
	snprintf(s->change, sizeof(s->change), "nvidia-smi -i %s -e 1 (or -e 0), then a GPU reset", id);
	if (v->valid && v->ecc >= 0) {
		snprintf(s->value, sizeof(s->value), "%s%s%s", on_off(v->ecc),
			 v->ecc_pending >= 0 && v->ecc_pending != v->ecc ?
			 ", pending " : "",
			 v->ecc_pending >= 0 && v->ecc_pending != v->ecc ?
			 on_off(v->ecc_pending) : "");
		s->state = v->ecc_pending >= 0 && v->ecc_pending != v->ecc ?
			   SETTING_AGAINST : SETTING_FINE;
	}

	s = next(out, &n, "persistence", FC_SETTING_PERSISTENCE, "persistence mode",
		 "off: the driver tears the GPU down when its last process exits, so every start pays seconds of initialisation and the first copies run on a link that trained down");
	snprintf(s->change, sizeof(s->change), "nvidia-smi -i %s -pm 1 (or run nvidia-persistenced)", id);
	if (v->valid && v->persistence >= 0) {
		snprintf(s->value, sizeof(s->value), "%s", on_off(v->persistence));
		s->state = v->persistence ? SETTING_FINE : SETTING_NOTE;
	}

	s = next(out, &n, "compute_mode", FC_SETTING_COMPUTE_MODE, "compute mode",
		 "exclusive process: one process may hold a context, so a second rank or this check cannot measure; prohibited: none may");
	snprintf(s->change, sizeof(s->change), "nvidia-smi -i %s -c DEFAULT", id);
	if (v->valid && v->compute_mode >= 0) {
		snprintf(s->value, sizeof(s->value), "%s", compute_mode_name(v->compute_mode));
		s->state = v->compute_mode ? SETTING_AGAINST : SETTING_FINE;
	}

	s = next(out, &n, "mig", FC_SETTING_MIG, "MIG mode",
		 "on: the GPU is split into instances; CUDA P2P between GPUs is not available and each instance gets a share of the copy engines");
	snprintf(s->change, sizeof(s->change), "nvidia-smi -i %s -mig 0, then a GPU reset", id);
	if (v->valid && v->mig >= 0) {
		snprintf(s->value, sizeof(s->value), "%s%s%s", on_off(v->mig),
			 v->mig_pending >= 0 && v->mig_pending != v->mig ? ", pending " : "",
			 v->mig_pending >= 0 && v->mig_pending != v->mig ?
			 on_off(v->mig_pending) : "");
		s->state = v->mig > 0 || v->mig_pending > 0 ? SETTING_AGAINST :
							      SETTING_FINE;
	}

	s = next(out, &n, "clocks", FC_SETTING_CLOCKS, "application and locked clocks",
		 "clocks held below their defaults slow copies and kernels alike; NVML names them among the reasons clocks were held during the copies");
	snprintf(s->change, sizeof(s->change),
		 "nvidia-smi -i %s -rac (application clocks), -rgc (locked GPU clocks), -rmc (locked memory clocks)", id);
	held = a->throttle_valid && (a->throttle & NVML_REASON_APP_CLOCKS);
	if (v->valid && (v->app_sm_default || held)) {
		snprintf(s->value, sizeof(s->value),
			 "application SM %u of %u MHz, memory %u of %u MHz%s",
			 v->app_sm, v->app_sm_default, v->app_mem,
			 v->app_mem_default,
			 held ? "; held by them during the copies" : "");
		s->state = held || (v->app_sm && v->app_sm < v->app_sm_default) ||
				   (v->app_mem && v->app_mem < v->app_mem_default) ?
			   SETTING_AGAINST : SETTING_FINE;
	}

	s = next(out, &n, "pstate", FC_COUNT, "performance state under load",
		 "a GPU copying data should be in P0; a higher P-state under load means a power or clock limit held it");
	snprintf(s->change, sizeof(s->change),
		 "nvidia-smi -i %s -q -d PERFORMANCE (names the limit)", id);
	if (a->throttle_valid && a->pstate_load >= 0) {
		snprintf(s->value, sizeof(s->value), "P%d (SM %u MHz)",
			 a->pstate_load, a->sm_clock_load);
		s->state = a->pstate_load ? SETTING_NOTE : SETTING_FINE;
	}
	return n;
}

void judge_host_aspm(const char *policy, struct judge_setting *out)
{
	char text[sizeof(((struct run_inputs *)0)->host_aspm_policy)];
	char *open, *close;
	unsigned int n = 0;
	struct judge_setting *s;

	s = next(out, &n, "aspm_policy", FC_SETTING_ASPM_POLICY, "PCIe ASPM policy",
		 "powersave and powersupersave let idle links enter L0s/L1: the first copies after idle wait for the link to wake, and small-copy latency rises");
	snprintf(s->change, sizeof(s->change),
		 "boot with pcie_aspm.policy=performance, or: echo performance > /sys/module/pcie_aspm/parameters/policy");
	snprintf(text, sizeof(text), "%s", policy);
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close)
		return;
	*close = '\0';
	snprintf(s->value, sizeof(s->value), "%s", open + 1);
	s->state = strstr(open + 1, "powersave") ? SETTING_NOTE : SETTING_FINE;
}

void judge_settings(struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	const struct judge_setting *set;
	unsigned int g, i;
	char id[P2PD_ADDR_STRLEN];

	for (g = 0; st && g < st->nr_dev; g++) {
		const struct judged_gpu *jg = &r->judged.results->gpu[g];

		if (!jg->selected)
			continue;
		pciaddr_format(id, st->dev[g].pci_addr);
		set = jg->setting;
		for (i = 0; i < jg->nr_settings; i++) {
			bool info = set[i].state == SETTING_NOTE;

			if (set[i].state != SETTING_AGAINST && !info)
				continue;
			if (set[i].finding == FC_COUNT)
				continue;	/* P-states are told by gpu-throttled */
			findings_add(&r->judged.findings, info ? SEV_INFO : SEV_WARNING,
				     set[i].finding, st->dev[g].pci_addr, FINDING_NO_ADDR,
				     set[i].change, "GPU %s %s: %s; %s", id,
				     set[i].name, set[i].value, set[i].effect);
		}
	}
	set = &r->judged.results->host_aspm;
	if (set->state == SETTING_NOTE)
		findings_add(&r->judged.findings, SEV_INFO, FC_SETTING_ASPM_POLICY,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, set->change,
			     "%s: %s; %s", set->name, set->value, set->effect);
}
