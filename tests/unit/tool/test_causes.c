// SPDX-License-Identifier: GPL-2.0
/*
 * Findings grouped by cause: any code groups (also ones judgement does not
 * know yet), causes come worst first with their pairs worst first, a fix
 * all findings share is kept once, pairs' own ACS fixes fold into the one
 * machine-wide parameter, and information adds no port to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "judge/causes.h"
#include "judge/judge.h"

void test_causes(struct ktap *k);

#define GPU(n) P2PD_ADDR(0, 3 + (n), 0, 0)

static int cause_of(const struct causes *c, const char *code)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->cause[i].code, code))
			return (int)i;
	return -1;
}

/* The pair's own ACS fix, as judgement writes it into a finding. */
static void own_fix(const struct check_run *r, unsigned long long a, unsigned long long b,
		    char *buf, size_t len)
{
	int pi = run_pair_index(r, p2pd_model_find(r->in.model, a),
				  p2pd_model_find(r->in.model, b));

	buf[0] = '\0';
	if (pi >= 0)
		judge_pair_fix(r, &r->judged.pair[pi], buf, len);
}

/* a code whose findings carry their pair's ACS fix, and its text */
#define REDIRECTED "contradiction-redirected-but-cuda-ok"

void test_causes(struct ktap *k)
{
	struct p2pd_model m;
	struct options o;
	struct check_run r;
	char fix01[JUDGE_TEXT_MAX], fix12[JUDGE_TEXT_MAX], fix02[JUDGE_TEXT_MAX];
	const struct cause *c;
	int at;

	switch_model(&m, 0x001d, 0x8086);
	options_defaults(&o);
	judge_run(&r, &m, &o);
	own_fix(&r, GPU(0), GPU(1), fix01, sizeof(fix01));
	own_fix(&r, GPU(1), GPU(2), fix12, sizeof(fix12));
	own_fix(&r, GPU(0), GPU(2), fix02, sizeof(fix02));

	/* registered codes, none of which the grouping treats specially */
	findings_add(&r.judged.findings, SEV_WARNING, FC_CONTRADICTION_REDIRECTED_BUT_CUDA_OK,
		     GPU(0), GPU(1), fix01, "w01");
	findings_add(&r.judged.findings, SEV_INFO, FC_LINK_SLOW_IDLE, GPU(0), GPU(2), NULL, "n02");
	findings_add(&r.judged.findings, SEV_ERROR, FC_CONTRADICTION_REDIRECTED_BUT_CUDA_OK,
		     GPU(1), GPU(2), fix12, "e12");
	findings_add(&r.judged.findings, SEV_WARNING, FC_HAIRPIN, GPU(0), GPU(1), "same fix", "s01");
	findings_add(&r.judged.findings, SEV_WARNING, FC_HAIRPIN, GPU(1), GPU(2), "same fix", "s12");
	findings_add(&r.judged.findings, SEV_WARNING, FC_HAIRPIN, FINDING_NO_ADDR, FINDING_NO_ADDR,
		     "same fix", "s-device");
	findings_add(&r.judged.findings, SEV_WARNING, FC_SIBLING_OUTLIER, GPU(0), GPU(1), "one", "o01");
	findings_add(&r.judged.findings, SEV_WARNING, FC_SIBLING_OUTLIER, GPU(1), GPU(2), "two", "o12");

	CHECK(k, !causes_build(&r, &r.judged.causes) && r.judged.causes.nr == 4,
	      "causes: 8 findings of 4 codes are 4 causes");
	CHECK(k, !strcmp(r.judged.causes.cause[0].code, REDIRECTED) &&
		 r.judged.causes.cause[0].severity == SEV_ERROR &&
		 !strcmp(r.judged.causes.cause[3].code, "link-slow-idle"),
	      "causes: worst first (an error among warnings leads), information last");
	at = cause_of(&r.judged.causes, REDIRECTED);
	c = at >= 0 ? &r.judged.causes.cause[at] : NULL;
	CHECK(k, c && c->nr == 2 && c->nr_pairs == 2 &&
		 !strcmp(r.judged.findings.item[c->item[0]].message, "e12") &&
		 !strcmp(r.judged.findings.item[c->item[1]].message, "w01"),
	      "causes: a cause lists its pairs, the worst first");
	CHECK(k, c && c->machine_fix && !c->fix,
	      "causes: pairs' own ACS fixes are held by the machine-wide parameter");
	at = cause_of(&r.judged.causes, "hairpin");
	c = at >= 0 ? &r.judged.causes.cause[at] : NULL;
	CHECK(k, c && c->nr == 3 && c->nr_pairs == 2 && c->fix && !strcmp(c->fix, "same fix") &&
		 !c->machine_fix,
	      "causes: a fix every finding shares is kept once; a finding about no pair counts too");
	at = cause_of(&r.judged.causes, "sibling-outlier");
	c = at >= 0 ? &r.judged.causes.cause[at] : NULL;
	CHECK(k, c && !c->fix && !c->machine_fix,
	      "causes: fixes that differ and are not ACS fixes stay per finding");
	/* warnings on 0-1 and 1-2 name 02:08.0, 02:10.0, 02:18.0; the note on 0-2 adds nothing */
	CHECK(k, r.judged.causes.ports.nr == 3 &&
		 m.fn[r.judged.causes.ports.port[0]].addr == P2PD_ADDR(0, 2, 8, 0) &&
		 m.fn[r.judged.causes.ports.port[1]].addr == P2PD_ADDR(0, 2, 16, 0) &&
		 m.fn[r.judged.causes.ports.port[2]].addr == P2PD_ADDR(0, 2, 24, 0),
	      "causes: the machine-wide fix names each port once, in address order");
	causes_free(&r.judged.causes);
	findings_free(&r.judged.findings);

	/* information only: nothing to clear */
	findings_add(&r.judged.findings, SEV_INFO, FC_LINK_SLOW_IDLE, GPU(0), GPU(2), fix02, "n02");
	CHECK(k, !causes_build(&r, &r.judged.causes) && r.judged.causes.nr == 1 &&
	      !r.judged.causes.ports.nr,
	      "causes: a note's pair adds no port to the machine-wide fix");
	causes_free(&r.judged.causes);
	findings_free(&r.judged.findings);
	CHECK(k, !causes_build(&r, &r.judged.causes) && !r.judged.causes.nr &&
	      !r.judged.causes.ports.nr,
	      "causes: no findings, no causes");
	causes_free(&r.judged.causes);
	judge_release(&r);
	free(m.fn);
}
