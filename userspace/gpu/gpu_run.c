// SPDX-License-Identifier: GPL-2.0
/*
 * How a measuring run records its outcome: the first failing CUDA call
 * (later failures are consequences of it and would hide it), the calls
 * that failed in the teardown after the last figure, each once (apart:
 * the figures stand), the deadline that ends a copy that never
 * completes, and the step in progress, named for the watchdog and for
 * --progress.  Every measuring file reports through these, so a finding
 * always names the first cause.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu_measuring.h"
#include "topology/pciaddr.h"

bool meas_ok(struct meas *m, CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return true;
	if (m->st->measure == GPU_OK) {
		snprintf(m->st->error, sizeof(m->st->error), "%s: %s", what,
			 gpu_cuda_error(m->cu, r));
		m->st->measure = GPU_FAILED;
	}
	return false;
}

void meas_teardown_ok(struct meas *m, CUresult r, const char *what)
{
	char *e = m->st->teardown_error;
	size_t len = strlen(e), n = strlen(what);
	const char *p;

	if (r == CUDA_SUCCESS || m->st->measure != GPU_OK)
		return;
	/* one GPU's failing free is every GPU's: each call is said once */
	for (p = e; (p = strstr(p, what)); p += n)
		if ((p == e || p[-1] == ' ') && p[n] == ':')
			return;
	if (len + 2 < sizeof(m->st->teardown_error))
		snprintf(e + len, sizeof(m->st->teardown_error) - len, "%s%s: %s",
			 len ? "; " : "", what, gpu_cuda_error(m->cu, r));
}

static void pause_briefly(void)
{
	struct timespec ts = { 0, 20000 };

	nanosleep(&ts, NULL);
}

static bool past_deadline(struct meas *m)
{
	if (gpu_now() < m->par.deadline)
		return false;
	m->st->measure = GPU_TIMEOUT;
	snprintf(m->st->error, sizeof(m->st->error),
		 "no completion within the %.0f s deadline: %s",
		 m->opt->timeout_s, m->st->stuck_step);
	return true;
}

/*
 * What one answer of a CUDA query that is waited on means: the work is
 * done; not yet, so ask again (after a short pause); or give up, on an
 * error (recorded) or when the run's deadline has passed.
 */
enum meas_wait meas_wait(struct meas *m, CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return WAIT_DONE;
	if (r != CUDA_ERROR_NOT_READY) {
		meas_ok(m, r, what);
		return WAIT_FAILED;
	}
	if (past_deadline(m))
		return WAIT_FAILED;
	pause_briefly();
	return WAIT_AGAIN;
}

/* Name what starts now: "@what ADDR(a)" or "@what ADDR(a) -> ADDR(b)". */
void meas_step(struct meas *m, const char *what, int a, int b)
{
	char name[96], sa[P2PD_ADDR_STRLEN], sb[P2PD_ADDR_STRLEN];
	int pair = -1;

	pciaddr_format(sa, m->st->dev[a].pci_addr);
	if (b >= 0) {
		pciaddr_format(sb, m->st->dev[b].pci_addr);
		snprintf(name, sizeof(name), "%s %s -> %s", what, sa, sb);
		pair = (int)gpu_pair_index(m->st->nr_dev, a, b);
	} else {
		snprintf(name, sizeof(name), "%s %s", what, sa);
	}
	gpu_record_step(m->st, name, pair, a);
	if (m->opt->progress)
		m->opt->progress(name);
}
