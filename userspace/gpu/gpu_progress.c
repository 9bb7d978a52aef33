// SPDX-License-Identifier: GPL-2.0
/*
 * Where a measurement stands: the clock its deadlines are read against,
 * and the step it is in, kept in the shared gpu_state so that the
 * worker's parent can name the step when it has to kill a stuck worker.
 * The measuring code (gpu_measure.c, gpu_activity.c) writes here and the
 * worker (gpu_worker.c) reads it; neither calls the other for it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "gpu/gpu_priv.h"

double gpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void gpu_record_step(struct gpu_state *st, const char *what, int pair,
		     int dev)
{
	snprintf(st->stuck_step, sizeof(st->stuck_step), "%s", what);
	st->stuck_pair = pair;
	st->stuck_dev = dev;
}
