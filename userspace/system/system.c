// SPDX-License-Identifier: GPL-2.0
/*
 * The order of the system checks: facts first (each reader keeps its
 * own), then the judgements that join them to the judged pairs.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/judgement.h"
#include "platform/fsroot.h"
#include "p2pdiag/decode.h"
#include "judge/system_checks.h"
#include "system/environ.h"
#include "system/system.h"
#include "system/atomics.h"
#include "system/kernel_log.h"

static bool has_nvme(const struct p2pd_model *m)
{
	unsigned int i;

	for (i = 0; m && i < m->nr_fn; i++)
		if (p2pd_device_kind(m->fn[i].class_code) == P2PD_KIND_NVME)
			return true;
	return false;
}

int system_begin(struct check_run *r, struct system_report *s, bool offline,
		 char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	/* another machine's topology with this machine's files would lie */
	s->read = !(offline && fsroot_is_live(r->in.root));
	/* facts whose files are bad input stop the run before any copy */
	if (s->read && (kernel_facts_read(&s->kernel, r->in.root, err, errlen) ||
			virt_facts_read(&s->virt, r->in.root, err, errlen)))
		return -1;
	r->in.system = s;
	r->in.root_is_models = s->read;
	if (s->read)
		aer_before(r, &s->aer);
	return 0;
}

void system_inspect(struct check_run *r, struct system_report *s)
{
	r->in.system = s;
	r->in.root_is_models = s->read;
	/* the model alone: valid for a saved topology too */
	iommu_groups_judge(r);
	if (!s->read)
		return;
	gpudirect_facts_read(&s->gd.facts, &s->kernel, r->in.root,
			     has_nvme(r->in.model));
	fleet_facts_read(&s->fleet, r->in.root);
	identity_read(&s->identity, r->in.root, time(NULL));
	s->kernel_log = kernel_log_read(r->in.root);
	if (r->in.model)
		gpudirect_judge(r, &s->gd);
	if (s->kernel.have_cmdline)
		bootline_judge(r, s->kernel.cmdline);
	virt_judge(r, &s->virt);
	environ_judge(r);
	aer_judge(r, &s->aer);
	bars_judge(r);
	bar_reach_judge(r);
	kernel_verdicts_judge(r, s->kernel_log);
	atomics_judge(r);
}

void system_report_free(struct system_report *s)
{
	gpudirect_free(&s->gd);
	aer_free(&s->aer);
	free(s->kernel_log);
}
