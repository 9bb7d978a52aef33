// SPDX-License-Identifier: GPL-2.0
/*
 * The one median of the tool: of a figure's samples, of identical GPUs'
 * figures, of the exchange's samples.  The middle value; for an even
 * count the mean of the two middle values, so that two samples give
 * their mean and neither alone.  And the figure made of samples: that
 * median with the spread around it.  Built with and without CUDA.
 */
#include <stdlib.h>

#include "gpu/gpu.h"

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

double gpu_median(double *v, unsigned int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void gpu_figure_set(struct gpu_figure *f, double *v, unsigned int n,
		    enum gpu_verify verify)
{
	f->median = gpu_median(v, n);	/* sorts v */
	f->valid = n > 0;
	f->samples = n;
	f->min = n ? v[0] : 0;
	f->max = n ? v[n - 1] : 0;
	f->verify = verify;
}
