// SPDX-License-Identifier: GPL-2.0
/*
 * The small-message curve read as a person would: the smallest copy's
 * time is the fixed cost every copy pays (launch, descriptor fetch, the
 * completion's round trip); bandwidth rises with size until that cost is
 * small against the transfer; half the peak is reached where the two are
 * equal (interpolated between the measured sizes on a log scale), and
 * from the size where the curve stays within 10% of the peak the link or
 * the memory, not the per-copy cost, is the limit.
 */
#include <math.h>
#include <string.h>

#include "judge/curve_fit.h"

static double gbs(const struct gpu_curve *c, unsigned int i)
{
	return c->us[i] > 0 ? (double)c->bytes[i] / (c->us[i] * 1e3) : 0;
}

void curve_fit(const struct gpu_curve *c, struct curve_fit *f)
{
	unsigned int i, n = c->n < GPU_CURVE_MAX ? c->n : GPU_CURVE_MAX;
	double half;

	memset(f, 0, sizeof(*f));
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		if (gbs(c, i) > f->peak_gbs) {
			f->peak_gbs = gbs(c, i);
			f->peak_bytes = c->bytes[i];
		}
	if (f->peak_gbs <= 0)
		return;
	f->valid = true;
	f->fixed_us = c->us[0];
	half = f->peak_gbs / 2;
	for (i = 0; i < n; i++) {
		double lo, hi, x;

		if (gbs(c, i) < half)
			continue;
		if (!i) {
			f->half_peak_bytes = (double)c->bytes[0];
			break;
		}
		lo = gbs(c, i - 1);
		hi = gbs(c, i);
		x = hi > lo ? (half - lo) / (hi - lo) : 1;
		f->half_peak_bytes =
			exp2(log2((double)c->bytes[i - 1]) +
			     x * (log2((double)c->bytes[i]) -
				  log2((double)c->bytes[i - 1])));
		break;
	}
	f->bound_bytes = c->bytes[n - 1];
	for (i = n; i-- > 0;) {
		if (gbs(c, i) < CURVE_BOUND_SHARE * f->peak_gbs)
			break;
		f->bound_bytes = c->bytes[i];
	}
}
