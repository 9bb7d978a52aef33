/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the small-message curve says: the fixed cost of one copy, the peak
 * bandwidth, the size at which half the peak is reached and the size from
 * which the link (or the memory) is the limit rather than the per-copy cost.
 */
#ifndef P2PDIAG_CURVE_FIT_H
#define P2PDIAG_CURVE_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu/gpu.h"

/* From this share of the peak on, the copy is bandwidth-bound. */
#define CURVE_BOUND_SHARE 0.90

struct curve_fit {
	bool valid;
	double fixed_us;		/* time of the smallest copy */
	double peak_gbs;		/* highest bandwidth on the curve */
	size_t peak_bytes;
	double half_peak_bytes;		/* interpolated; 0 when not reached */
	size_t bound_bytes;		/* every size from here on >= 90% of peak */
};

/* curve_fit() - fit @c (sizes ascending) into @f; invalid below 2 points. */
void curve_fit(const struct gpu_curve *c, struct curve_fit *f);

#endif /* P2PDIAG_CURVE_FIT_H */
