// SPDX-License-Identifier: GPL-2.0
/*
 * --evidence's reading: each file read and handed to every reader (a
 * paste often holds several outputs), the GPUs matched across outputs,
 * and the run told where its facts came from.  judge/evidence_findings.c
 * judges them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/inputs.h"
#include "run/model_input.h"
#include "evidence/evidence.h"

static void describe_sources(struct run_inputs *in, const struct evidence *ev)
{
	size_t used = 0;
	unsigned int i;

	used += (size_t)snprintf(in->source_detail, sizeof(in->source_detail),
				 "%u pasted file%s:", ev->nr_files, ev->nr_files == 1 ? "" : "s");
	for (i = 0; i < ev->nr_files && used < sizeof(in->source_detail); i++) {
		const struct ev_file *f = &ev->file[i];
		unsigned int b;
		bool first = true;

		used += (size_t)snprintf(in->source_detail + used, sizeof(in->source_detail) - used,
					 "%s %s (", i ? "," : "", ev_file_name(ev, i));
		for (b = 0; b < EV_FMT_COUNT && used < sizeof(in->source_detail); b++)
			if (f->formats & (1u << b)) {
				used += (size_t)snprintf(in->source_detail + used,
							 sizeof(in->source_detail) - used, "%s%s",
							 first ? "" : " ", ev_format_name(1u << b));
				first = false;
			}
		if (used < sizeof(in->source_detail))
			used += (size_t)snprintf(in->source_detail + used,
						 sizeof(in->source_detail) - used, "%s)",
						 first ? "not read" : "");
	}
}

bool evidence_none_read(const struct evidence *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nr_files; i++)
		if (ev->file[i].formats)
			return false;
	return true;
}

/* Every reader, in evidence_formats.h's order. */
static const struct {
	void (*read)(struct evidence *ev, unsigned int fi);
	int (*refuse)(struct evidence *ev, unsigned int fi, char *err, size_t errlen);
} readers[] = {
#define EV_READER(fn) { .read = fn },
#define EV_REFUSING_READER(fn) { .refuse = fn },
	EV_READERS(EV_READER, EV_REFUSING_READER)
#undef EV_READER
#undef EV_REFUSING_READER
};

int evidence_read(struct run_inputs *in, struct evidence *ev,
		   char *const *paths, unsigned int nr, char *err, size_t errlen)
{
	unsigned int i;
	size_t k;

	if (!nr) {
		snprintf(err, errlen, "--evidence needs at least one FILE (- for stdin)");
		return -1;
	}
	for (i = 0; i < nr; i++) {
		struct ev_file *f;

		if (evidence_load(ev, paths[i], err, errlen))
			return -1;
		f = &ev->file[ev->nr_files - 1];
		if (f->binary || f->unreadable)
			continue;
		for (k = 0; k < sizeof(readers) / sizeof(readers[0]); k++) {
			if (readers[k].read)
				readers[k].read(ev, i);
			else if (readers[k].refuse(ev, i, err, errlen))
				return -1;
		}
	}
	ev_smi_links(ev);
	ev_match_gpus(ev);
	ev_lspci_model(ev);
	for (i = 0; i < ev->nr_files; i++) {
		const struct ev_file *f = &ev->file[i];

		if (f->formats)
			continue;
		fprintf(stderr, "p2pdiag-check: --evidence: %s: %s: not read\n",
			ev_file_name(ev, i), ev_file_why(f));
	}
	in->source = "evidence";
	in->evidence = ev;
	describe_sources(in, ev);
	/* the pasted lspci's tree, judged as any other source's model */
	if (!evidence_none_read(ev) && ev->have_dump) {
		if (ev->cpu_known)
			ev->dump.cpu_flags = ev->cpu_flags;
		else
			run_inputs_infer_cpu(in, &ev->dump);
		if (run_inputs_take_model(in, &ev->dump, err, errlen))
			return -1;
	}
	return 0;
}
