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
#include "system/gpudirect_routes.h"
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
	return 0;
}

/* The machine's side of the GPUDirect routes of the model's pairs. */
static void gpudirect_routes_read(const struct fsroot *root,
				  struct gpudirect *g)
{
	gds_find_vmd_nvme(root, g);
	g->any_rdma_device = gdr_any_rdma_device(root);
	g->net_class_exists = gdr_net_class_exists(root);
	gdr_net_interfaces(root, g->net_interfaces, sizeof(g->net_interfaces));
}

void system_before_copies(struct run_inputs *in, struct system_report *s)
{
	if (s->read)
		aer_read_before(in->root, &s->refused, &s->aer);
}

void system_inspect(struct run_inputs *in, struct system_report *s)
{
	in->system = s;
	if (!s->read)
		return;
	gpudirect_facts_read(&s->gd.facts, &s->kernel, in->root, &s->refused,
			     has_nvme(in->model));
	if (in->model)
		gpudirect_routes_read(in->root, &s->gd);
	fleet_facts_read(&s->fleet, in->root, &s->refused);
	identity_read(&s->identity, in->root, &s->refused, time(NULL));
	s->kernel_log = kernel_log_read(in->root, &s->refused);
	environ_read(&s->env);
	s->fn = function_facts_read(in->root, &s->refused, in->model,
				    s->virt.guest);
	aer_read_ports_after(in->root, &s->refused, &s->aer);
}

void system_report_free(struct system_report *s)
{
	gpudirect_free(&s->gd);
	aer_free(&s->aer);
	free(s->fn);
	s->fn = NULL;
	free(s->kernel_log);
}
