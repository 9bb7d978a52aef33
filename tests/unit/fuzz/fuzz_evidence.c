// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for --evidence (evidence_read(), judge_evidence(): every reader, the
 * lspci -xxxx path and the judging, then the causes and both reports):
 * any input is either refused with a message or judged, and every line a
 * finding cites lies inside the file.  Anything else aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "evidence/evidence.h"
#include "fuzz_file.h"
#include "judge/causes.h"
#include "judge/judge.h"
#include "judge/results.h"
#include "report/report.h"
#include "run/model_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each "file:line" of @refs names a line of the one file read. */
static void check_refs(const struct evidence *ev, const char *refs)
{
	const char *p = refs;

	while (p && *p) {
		const char *end = strstr(p, "; ");
		const char *colon = NULL, *q;
		unsigned long line;

		for (q = p; *q && (!end || q < end); q++)
			if (*q == ':')
				colon = q;
		if (!colon)
			abort();
		line = strtoul(colon + 1, NULL, 10);
		if (!line || line > ev->file[0].nr_lines) {
			fprintf(stderr, "a finding cites line %lu of %u\n", line,
				ev->file[0].nr_lines);
			abort();
		}
		p = end ? end + 2 : NULL;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *paths[1] = { (char *)fuzz_file(data, size) };
	struct check_run r = { 0 };
	struct evidence *ev = malloc(sizeof(*ev));
	char err[1024];
	FILE *null;
	size_t i;

	if (!ev)
		abort();
	evidence_init(ev);
	r.in.source = "none";
	if (!evidence_read(&r.in, ev, paths, 1, err, sizeof(err)) &&
	    !judge_evidence(&r, ev, err, sizeof(err))) {
		for (i = 0; i < r.judged.findings.nr; i++)
			if (r.judged.findings.item[i].evidence)
				check_refs(ev, r.judged.findings.item[i].evidence);
		if (causes_build(&r, &r.judged.causes))
			abort();
		null = fopen("/dev/null", "w");
		if (!null)
			abort();
		report_text(null, &r, false, true);
		if (report_json_write(null, &r, 0))
			abort();
		fclose(null);
	} else if (!err[0]) {
		fprintf(stderr, "refused without a reason\n");
		abort();
	}
	judge_release(&r);
	run_inputs_release(&r.in);
	causes_free(&r.judged.causes);
	findings_free(&r.judged.findings);
	evidence_free(ev);
	free(ev);
	return 0;
}
