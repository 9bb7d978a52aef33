// SPDX-License-Identifier: GPL-2.0
/*
 * The order of the system reads: the facts before the copies, then the
 * others after them; the judge (judge/system_checks.c) joins them to the
 * judged pairs.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform/fsroot.h"
#include "p2pdiag/decode.h"
#include "run/inputs.h"
#include "system/system.h"
#include "system/kernel_log.h"

static bool has_nvme(const struct p2pd_model *m)
{
	unsigned int i;

	for (i = 0; m && i < m->nr_fn; i++)
		if (p2pd_device_kind(m->fn[i].class_code) == P2PD_KIND_NVME)
			return true;
	return false;
}

int system_begin(struct run_inputs *in, struct system_report *s, bool offline,
		 char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	/* another machine's topology with this machine's files would lie */
	s->read = !(offline && fsroot_is_live(in->root));
	/* facts whose files are bad input stop the run before any copy */
	if (s->read && (kernel_facts_read(&s->kernel, in->root, err, errlen) ||
			virt_facts_read(&s->virt, in->root, &s->refused, err,
					errlen)))
		return -1;
	in->system = s;
	in->root_is_models = s->read;
	return 0;
}

void system_inspect(struct run_inputs *in, struct system_report *s)
{
	in->system = s;
	in->root_is_models = s->read;
	if (!s->read)
		return;
	gpudirect_facts_read(&s->gd.facts, &s->kernel, in->root, &s->refused,
			     has_nvme(in->model));
	fleet_facts_read(&s->fleet, in->root, &s->refused);
	identity_read(&s->identity, in->root, &s->refused, time(NULL));
	s->kernel_log = kernel_log_read(in->root, &s->refused);
}

void system_report_free(struct system_report *s)
{
	gpudirect_free(&s->gd);
	aer_free(&s->aer);
	free(s->kernel_log);
}
