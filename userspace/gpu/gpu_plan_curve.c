// SPDX-License-Identifier: GPL-2.0
/*
 * The small-message curve (--curve): the time per copy of one lane from
 * 4 bytes, doubling, up to the copy size.  Judgement fits a fixed cost
 * and a bandwidth to it; small copies are what a collective's latency is
 * made of, and a path that is fine for 64 MiB can be slow per message.
 */
#include <string.h>

#include "gpu/gpu_measuring.h"

/* Each sample copies about this much, in CURVE_MIN_COPIES to
 * LATENCY_COPIES copies. */
#define CURVE_SAMPLE_BYTES	(16ul << 20)
#define CURVE_MIN_COPIES	4u
#define CURVE_MIN_BYTES		4ul

static unsigned int curve_copies(size_t bytes)
{
	size_t n = CURVE_SAMPLE_BYTES / bytes;

	return n < CURVE_MIN_COPIES ? CURVE_MIN_COPIES :
	       n > LATENCY_COPIES ? LATENCY_COPIES : (unsigned int)n;
}

/* The curve of lane 0 copying as @spec says, at every size (its bytes and
 * count are the curve's own). */
bool plan_curve(struct meas *m, struct gpu_curve *c,
		const struct lane_spec *spec)
{
	struct lane *l = &m->lane[0];
	struct gpu_figure f, *one[1] = { &f };
	struct lane_spec at = *spec;

	c->n = 0;
	c->verified = true;
	for (at.bytes = CURVE_MIN_BYTES;
	     at.bytes <= m->par.size && c->n < GPU_CURVE_MAX; at.bytes <<= 1) {
		at.count = curve_copies(at.bytes);
		lane_init(m, l, &at);
		memset(&f, 0, sizeof(f));
		if (!sample_lanes(m, l, 1, one, true))
			return false;
		c->bytes[c->n] = at.bytes;
		c->us[c->n++] = f.median;
		c->verified &= f.verify == VERIFY_OK;
	}
	return true;
}

/* Host to device, device to host and device-local, for GPU @d. */
bool plan_device_curves(struct meas *m, int d, CUdeviceptr host)
{
	struct gpu_device *dev = &m->st->dev[d];
	struct gpu_ctx *g = &m->g[d];

	meas_step(m, "small-message curve, host to device", d, -1);
	if (!plan_curve(m, &dev->curve[CURVE_H2D], &(struct lane_spec){
				.dev = d,
				.dst = { g->a, d },
				.src = { host, d },
			}))
		return false;
	meas_step(m, "small-message curve, device to host", d, -1);
	if (!plan_curve(m, &dev->curve[CURVE_D2H], &(struct lane_spec){
				.dev = d,
				.dst = { host, d },
				.src = { g->a, d },
			}))
		return false;
	meas_step(m, "small-message curve, device-local", d, -1);
	return plan_curve(m, &dev->curve[CURVE_LOCAL], &(struct lane_spec){
				  .dev = d,
				  .dst = { g->b, d },
				  .src = { g->a, d },
			  });
}
