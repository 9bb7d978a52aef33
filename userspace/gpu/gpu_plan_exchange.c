// SPDX-License-Identifier: GPL-2.0
/*
 * The gradient exchange: every selected GPU sends a shard to every other
 * at once, at each size from 4 KiB doubling up to the copy size; the time
 * is the slowest lane's, the median of the samples.  It is what an
 * all-to-all step of training sees, and the one figure in which every
 * link and switch of the machine is loaded together.  Each receiver keeps
 * one slot per sender (xrecv) and each sender one per receiver (xsend),
 * so no two lanes share a buffer.
 */
#include <stdio.h>

#include "gpu/gpu_measuring.h"

static bool exchange_once(struct meas *m, size_t bytes, bool direct,
			  double *us)
{
	unsigned int i, n = 0, nr = m->st->nr_dev;
	double v[GPU_MAX_SAMPLES];
	unsigned int s;

	for (i = 0; i < m->st->nr_pairs; i++) {
		struct gpu_pair *p = &m->st->pair[i];
		struct lane *l = &m->lane[n];
		/* Sender's slot at the receiver and receiver's at the
		 * sender: each lane has buffers of its own. */
		CUdeviceptr rslot = (CUdeviceptr)(p->src < p->dst ? p->src :
								    p->src - 1);
		CUdeviceptr sslot = (CUdeviceptr)(p->dst < p->src ? p->dst :
								    p->dst - 1);

		if (!ctx_pair_ready(m, p) || (direct && !p->can_access))
			continue;
		l->dev = p->src;
		if (!lane_events(m, l))
			return false;
		lane_init(m, l, &(struct lane_spec){
			.dev = p->src,
			.stream = (unsigned int)p->dst,
			.dst = { m->g[p->dst].xrecv + rslot * m->par.size,
				 p->dst },
			.src = { m->g[p->src].xsend + sslot * m->par.size,
				 p->src },
			.bytes = bytes,
			.count = 1,
			.peer = true,
		});
		n++;
	}
	if (n < 2)
		return true;
	for (s = 0; s < m->par.samples; s++) {
		double slowest = 0;

		if (!sample_run(m, m->lane, n))
			return false;
		for (i = 0; i < n; i++) {
			if (m->lane[i].verify != VERIFY_OK) {
				struct gpu_pair *p = &m->st->pair[gpu_pair_index(
					nr, m->lane[i].src_dev,
					m->lane[i].dst_dev)];
				struct gpu_figure *f = direct ? &p->p2p :
								&p->staged;

				f->verify = verify_worse(f->verify,
							 m->lane[i].verify);
			}
			if (m->lane[i].ms > slowest)
				slowest = m->lane[i].ms;
		}
		v[s] = slowest * 1e3;
	}
	*us = gpu_median(v, m->par.samples);
	return true;
}

/* Both exchange buffers of every context, once for the run. */
static bool exchange_buffers(struct meas *m)
{
	size_t bytes = m->par.size * (m->st->nr_dev - 1);
	unsigned int d;

	for (d = 0; d < m->st->nr_dev; d++)
		if (m->g[d].ready && !m->g[d].xrecv &&
		    (!ctx_current(m, (int)d) ||
		     !meas_ok(m, m->cu->cuMemAlloc(&m->g[d].xrecv, bytes),
			      "cuMemAlloc") ||
		     !meas_ok(m, m->cu->cuMemAlloc(&m->g[d].xsend, bytes),
			      "cuMemAlloc")))
			return false;
	return true;
}

bool plan_exchange(struct meas *m, bool direct)
{
	struct gpu_exchange *x = &m->st->exchange;
	unsigned int k, d, senders = 0;
	char what[64];

	for (d = 0; d < m->st->nr_dev; d++)
		senders += m->g[d].ready;
	if (senders < 2)
		return true;
	if (!exchange_buffers(m))
		return false;
	for (k = 0; k < GPU_EXCHANGE_SIZES; k++) {
		size_t bytes = (size_t)4096 << k;
		double us = 0;

		if (bytes > m->par.size)
			break;
		snprintf(what, sizeof(what), "gradient exchange %s %zu KiB",
			 direct ? "p2p" : "staged", bytes >> 10);
		gpu_record_step(m->st, what, -1, -1);
		if (m->opt->progress)
			m->opt->progress(what);
		if (!exchange_once(m, bytes, direct, &us))
			return false;
		x->size[k] = bytes;
		if (direct)
			x->p2p_us[k] = us;
		else
			x->staged_us[k] = us;
	}
	x->valid = true;
	return true;
}
