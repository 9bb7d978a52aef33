// SPDX-License-Identifier: GPL-2.0
/*
 * The order of the system checks: facts first (each reader keeps its
 * own), then the judgements that join them to the judged pairs.
 */
#include <string.h>

#include "check.h"
#include "system/bootline.h"
#include "system/environ.h"
#include "system/fsroot.h"
#include "system/iommu_groups.h"
#include "system/system.h"

void system_begin(struct check_run *r, struct system_report *s, bool offline)
{
	memset(s, 0, sizeof(*s));
	r->system = s;
	/* another machine's topology with this machine's files would lie */
	s->read = !(offline && fsroot_is_live());
	if (s->read)
		aer_before(r, &s->aer);
}

void system_inspect(struct check_run *r, struct system_report *s)
{
	r->system = s;
	/* the model alone: valid for a saved topology too */
	iommu_groups_judge(r);
	if (!s->read)
		return;
	kernel_facts_read(&s->kernel);
	gpudirect_facts_read(&s->gd.facts, &s->kernel);
	virt_facts_read(&s->virt);
	fleet_facts_read(&s->fleet);
	if (r->model)
		gpudirect_judge(r, &s->gd);
	if (s->kernel.have_cmdline)
		bootline_judge(r, s->kernel.cmdline);
	virt_judge(r, &s->virt);
	environ_judge(r);
	aer_judge(r, &s->aer);
}

void system_report_free(struct system_report *s)
{
	gpudirect_free(&s->gd);
	aer_free(&s->aer);
}
