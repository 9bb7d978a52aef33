// SPDX-License-Identifier: GPL-2.0
/*
 * The order of the system checks' judgements: the model's own first
 * (IOMMU groups, valid for a saved topology too), then, where the files
 * under the root are the model's machine's, those that join the system
 * report's facts to the judged pairs.
 */
#include "judge/judgement.h"
#include "judge/system_checks.h"
#include "system/system.h"

void system_judge_before(struct check_run *r, struct system_report *s)
{
	if (s->read)
		aer_choose(r, &s->aer);
}

void system_judge(struct check_run *r, struct system_report *s)
{
	/* the model alone: valid for a saved topology too */
	iommu_groups_judge(r);
	if (!s->read)
		return;
	/*
	 * facts that could not be held (out of memory) leave the checks that
	 * need them silent: said, so that silence is not read as health
	 */
	if (r->in.model && r->in.model->nr_fn && !s->fn)
		r->judged.findings.oom = true;
	if (r->in.model)
		gpudirect_judge(r, &s->gd, s->fn);
	if (s->kernel.have_cmdline)
		bootline_judge(r, s->kernel.cmdline);
	virt_judge(r, &s->virt, s->fn);
	environ_judge(r, &s->env);
	aer_judge(r, &s->aer);
	bars_judge(r, s->fn);
	bar_reach_judge(r, s->fn);
	kernel_verdicts_judge(r, s->kernel_log);
	atomics_judge(r, s->fn);
}
