// SPDX-License-Identifier: GPL-2.0
/*
 * CUDA's and the frameworks' errors as pasted from a traceback or a log:
 * the runtime's "peer access is not supported between these two devices"
 * (cudaErrorPeerAccessUnsupported), the driver API's
 * CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "system not yet initialized"
 * (cudaErrorSystemNotReady, CUDA_ERROR_SYSTEM_NOT_READY: CUDA waits on a
 * system daemon, on NVSwitch machines the fabric manager), and any other
 * cudaError* or CUDA_ERROR_* name, which says a call failed for another
 * reason.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "evidence/evidence.h"

/* The error name starting at @p ("CUDA_ERROR_..." or "cudaError..."). */
static void error_name(const char *p, char *out, size_t len)
{
	size_t n = 0;

	while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '_') && n + 1 < len)
		n++;
	memcpy(out, p, n);
	out[n] = '\0';
}

/*
 * A line that shows an NVSwitch fabric: its manager's service or log, or
 * an NVSwitch named; not one saying there is none.
 */
static bool fabric_line(const char *s)
{
	if (!strcasestr(s, "fabric manager") && !strcasestr(s, "fabricmanager") &&
	    !strcasestr(s, "nvswitch"))
		return false;
	return !strcasestr(s, "no nvswitch") && !strcasestr(s, "not found") &&
	       !strcasestr(s, "could not find");
}

void read_cuda_errors(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_cuda_errors *c = &ev->cuda;
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = f->line[i], *p;

		if (fabric_line(s) && !c->nr_fabric++)
			ev_note(&c->fabric_ref, fi, i + 1);

		if (strstr(s, "peer access is not supported between these two device") ||
		    strstr(s, "cudaErrorPeerAccessUnsupported") ||
		    strstr(s, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED")) {
			c->nr_peer_unsupported++;
			ev_note(&c->peer_ref, fi, i + 1);
			f->formats |= EV_FMT_CUDA_ERROR;
		} else if (strstr(s, "system not yet initialized") ||
			   strstr(s, "cudaErrorSystemNotReady") ||
			   strstr(s, "CUDA_ERROR_SYSTEM_NOT_READY")) {
			c->nr_not_ready++;
			ev_note(&c->not_ready_ref, fi, i + 1);
			f->formats |= EV_FMT_CUDA_ERROR;
		} else if ((p = strstr(s, "CUDA_ERROR_")) || (p = strstr(s, "cudaError"))) {
			if (!c->nr_other++)
				error_name(p, c->other, sizeof(c->other));
			ev_note(&c->other_ref, fi, i + 1);
			f->formats |= EV_FMT_CUDA_ERROR;
		}
	}
}
