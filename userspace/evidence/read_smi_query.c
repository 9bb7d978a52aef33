// SPDX-License-Identifier: GPL-2.0
/*
 * nvidia-smi -q, whole or grepped ("nvidia-smi -q | grep -A3 BAR1"): each
 * GPU's BAR1 and framebuffer sizes and its product name.  A peer that
 * maps a GPU's memory through BAR1 needs BAR1 to span it, so the two
 * sizes side by side are what a maintainer compares.  The n-th section
 * of a kind belongs to the n-th GPU, as nvidia-smi lists them in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"

enum section { SEC_NONE, SEC_FB, SEC_BAR1 };

/* "Total : 32768 MiB": the MiB, or -1. */
static long total_mib(const char *s)
{
	const char *p = ev_skip_blank(s), *colon;
	char *end;
	long v;

	if (!ev_starts(p, "Total") || !(colon = strchr(p, ':')))
		return -1;
	v = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || v < 0 || !strstr(end, "MiB"))
		return -1;
	return v;
}

void read_smi_query(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_smi_query *q = &ev->smi;
	enum section sec = SEC_NONE;
	unsigned int i, nr_fb = 0, nr_bar1 = 0, nr_name = 0;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]), *colon;
		long mib;

		if (ev_starts(s, "FB Memory Usage")) {
			sec = SEC_FB;
			continue;
		}
		if (ev_starts(s, "BAR1 Memory Usage")) {
			sec = SEC_BAR1;
			continue;
		}
		if (ev_starts(s, "Product Name") && (colon = strchr(s, ':')) &&
		    nr_name < EV_GPU_MAX) {
			snprintf(q->name[nr_name], sizeof(q->name[0]), "%s", ev_skip_blank(colon + 1));
			nr_name++;
			f->formats |= EV_FMT_SMI_QUERY;
			continue;
		}
		if (sec == SEC_NONE || (mib = total_mib(s)) < 0)
			continue;
		if (sec == SEC_FB && nr_fb < EV_GPU_MAX) {
			q->fb_mib[nr_fb] = mib;
			nr_fb++;
		} else if (sec == SEC_BAR1 && nr_bar1 < EV_GPU_MAX) {
			q->bar1_mib[nr_bar1] = mib;
			ev_note(&q->bar1_ref[nr_bar1], fi, i + 1);
			nr_bar1++;
		}
		sec = SEC_NONE;
		f->formats |= EV_FMT_SMI_QUERY;
	}
	if (nr_bar1 > q->nr_gpus)
		q->nr_gpus = nr_bar1;
	if (nr_fb > q->nr_gpus)
		q->nr_gpus = nr_fb;
}
