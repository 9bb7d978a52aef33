// SPDX-License-Identifier: GPL-2.0
/*
 * The run's model handed from its source to the inputs: its host-bridge
 * index and, for another machine's topology, its CPU as its host bridges
 * tell it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "run/model_input.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/verdict.h"

int run_inputs_take_model(struct run_inputs *in, struct p2pd_model *m,
			  char *err, size_t errlen)
{
	int *index = calloc(m->nr_fn ? m->nr_fn : 1, sizeof(*index));

	if (!index) {
		snprintf(err, errlen, "out of memory for the host-bridge index");
		return -1;
	}
	p2pd_host_index_fill(m, index);
	free(in->host_index);
	in->host_index = index;
	m->host_index = index;
	in->model = m;
	return 0;
}

void run_inputs_infer_cpu(struct run_inputs *in, struct p2pd_model *m)
{
	struct cpu_inference *c = &in->cpu_inferred;
	int ev;

	c->guess = p2pd_cpu_guess(m, &ev);
	c->made = true;
	c->addr = 0;
	c->vendor = c->device = 0;
	if (c->guess != P2PD_CPU_GUESS_NONE) {
		c->addr = m->fn[ev].addr;
		c->vendor = m->fn[ev].vendor;
		c->device = m->fn[ev].device;
	}
	m->cpu_flags = p2pd_cpu_guess_flags(c->guess);
}

void run_inputs_release(struct run_inputs *in)
{
	free(in->host_index);
	in->host_index = NULL;
}
