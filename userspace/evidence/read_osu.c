// SPDX-License-Identifier: GPL-2.0
/*
 * OSU micro-benchmarks' osu_bw and osu_bibw: "# OSU MPI-CUDA Bandwidth
 * Test v7.2" (Bi-Directional for osu_bibw; MPI-ROCM, MPI without a GPU),
 * "# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)", "# Size
 * Bandwidth (MB/s)", then a row per message size.  Its figure at the
 * largest size is a copy between the two ranks' GPUs only where both
 * buffers are on the device: the buffers line says so, else the command
 * pasted above the title ("osu_bw -d cuda D D").  Which GPUs the ranks
 * used, and whether MPI copied peer to peer or through the host, the
 * output does not say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"

/* Whether the command line @s ends its arguments with "D D". */
static bool device_args(const char *s)
{
	char w[64], prev[64] = "";
	bool dd = false;

	while (ev_word(&s, w, sizeof(w))) {
		dd = !strcmp(w, "D") && !strcmp(prev, "D");
		if (dd)
			return true;
		snprintf(prev, sizeof(prev), "%s", w);
	}
	return dd;
}

/* The buffers as the lines above the title at @i say: 1 both on the device, 0 not, -1 not said. */
static int command_buffers(const struct ev_file *f, unsigned int i)
{
	unsigned int k;

	for (k = i; k > 0 && k + 4 > i; k--) {
		const char *s = f->line[k - 1];

		if (strstr(s, "osu_bw") || strstr(s, "osu_bibw"))
			return device_args(s);
	}
	return -1;
}

/*
 * @s without OSU's comment mark: a paste outside a code block shows
 * "# OSU MPI ..." as a heading, and a copy of the page drops the "#".
 */
static const char *uncommented(const char *s, bool *comment)
{
	*comment = *s == '#';
	return *comment ? ev_skip_blank(s + 1) : s;
}

/* A row "SIZE FIGURE": 1 read into @size and @mbs, 0 not one. */
static int row(const char *s, unsigned long *size, double *mbs)
{
	char w[32], *end;
	double v;

	if (!ev_word(&s, w, sizeof(w)) || *w < '0' || *w > '9')
		return 0;
	*size = strtoul(w, &end, 10);
	if (*end || !ev_word(&s, w, sizeof(w)))
		return 0;
	v = ev_number(w);
	if (!(v >= 0 && v < 1e9))
		return 0;
	*mbs = v;
	return 1;
}

void read_osu(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_osu *o = &ev->osu;
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]);
		int device = -1;
		bool bidir, header = false;
		unsigned long size, best_size = 0;
		double mbs, best = -1;
		struct ev_ref best_ref = { 0 };
		unsigned int k;
		bool comment;

		s = uncommented(s, &comment);
		if (!ev_starts(s, "OSU MPI") || !strstr(s, "Bandwidth Test"))
			continue;
		f->formats |= EV_FMT_OSU;
		bidir = strstr(s, "Bi-Directional") != NULL;
		device = command_buffers(f, i);
		for (k = i + 1; k < f->nr_lines; k++) {
			const char *t = uncommented(ev_skip_blank(f->line[k]), &comment);

			if (ev_starts(t, "OSU MPI"))
				break;	/* the next test's output */
			if (ev_starts(t, "Send Buffer on ")) {
				device = strstr(t, "Send Buffer on DEVICE") &&
					 strstr(t, "Receive Buffer on DEVICE");
				continue;
			}
			if (ev_starts(t, "Size") && strstr(t, "Bandwidth")) {
				header = true;
				continue;
			}
			if (comment || !*t || ev_starts(t, "Datatype:"))
				continue;
			if (!header || !row(t, &size, &mbs))
				break;
			if (size >= best_size) {
				best_size = size;
				best = mbs;
				best_ref.file = fi;
				best_ref.line = k + 1;
			}
		}
		i = k ? k - 1 : k;
		if (best < 0 || o->ref.line)
			continue;	/* no row, or a table kept already: the first one counts */
		o->device_buffers = device == 1;
		o->bidir = bidir;
		o->size = best_size;
		o->mbs = best;
		o->ref = best_ref;
	}
}
