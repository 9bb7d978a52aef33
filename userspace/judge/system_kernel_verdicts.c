// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own P2PDMA verdicts, as drivers/pci/p2pdma.c logs them:
 * "<client>: cannot be used for peer-to-peer DMA as ... (<provider>)" and
 * "<host bridge device>: Host bridge not in P2PDMA whitelist: vvvv:dddd"
 * (newer kernels print both only when a caller asks for the verbose
 * check), shown beside p2pdiag's verdict for the same pair.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "topology/pciaddr.h"
#include "judge/system_checks.h"
#include "p2pdiag/verdict.h"

#define LINE_MAX_SHOWN	240

#define CANNOT		"cannot be used for peer-to-peer DMA"
#define NOT_LISTED	"Host bridge not in P2PDMA whitelist"

/* The last "dddd:bb:dd.f" that ends right before @end in @line. */
static int addr_before(const char *line, const char *end, unsigned long long *addr)
{
	const char *p;

	for (p = end - 1; p > line && p[-1] != ' ' && p[-1] != '('; p--)
		;
	while (p < end && *p == ' ')
		p++;
	if (end - p < 7 || end - p > 20) {
		return -1;
	} else {
		char tok[24];

		memcpy(tok, p, (size_t)(end - p));
		tok[end - p] = '\0';
		return pciaddr_parse(tok, addr);
	}
}

static void shown(char *out, size_t len, const char *line, size_t n)
{
	if (n > LINE_MAX_SHOWN)
		n = LINE_MAX_SHOWN;
	snprintf(out, len, "%.*s", (int)n, line);
}

/* @agrees: whether p2pdiag's verdict says what the kernel's line says */
static void one_pair(struct check_run *r, int pi, const char *line, bool agrees,
		     const char *differs)
{
	const struct p2pd_pair *p = &r->judged.pair[pi];
	unsigned long long a = r->in.model->fn[p->a].addr, b = r->in.model->fn[p->b].addr;

	findings_add(&r->judged.findings, agrees ? SEV_INFO : SEV_WARNING,
		     FC_KERNEL_P2PDMA_VERDICT, a, b,
		     agrees ? FINDING_NO_FIX : "compare the kernel's release with the \"P2PDMA list:\" line above; run p2pdiag-check --verbose for the path it judged",
		     "the kernel logged \"%s\"; p2pdiag's verdict for the pair: %s%s",
		     line, p2pd_verdict_name(p->verdict),
		     agrees ? "" : differs);
}

static void cannot_line(struct check_run *r, const char *line, size_t n)
{
	const char *hit = strstr(line, CANNOT), *open, *close, *colon;
	unsigned long long client, provider;
	char text[LINE_MAX_SHOWN + 1];
	int fa, fb, pi;

	if (!hit || hit > line + n)
		return;
	colon = hit - 2 >= line && hit[-2] == ':' ? hit - 2 : NULL;
	open = strchr(hit, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!colon || !close || close > line + n ||
	    addr_before(line, colon, &client) ||
	    addr_before(open, close, &provider))
		return;
	fa = p2pd_model_find(r->in.model, client);
	fb = p2pd_model_find(r->in.model, provider);
	if (fa == P2PD_NO_INDEX || fb == P2PD_NO_INDEX)
		return;
	pi = run_pair_index(r, fa, fb);
	if (pi < 0)
		return;
	shown(text, sizeof(text), line, n);
	one_pair(r, pi, text, r->judged.pair[pi].verdict == P2PD_VERDICT_BLOCKED ||
		 r->judged.pair[pi].verdict == P2PD_VERDICT_REDIRECTED ||
		 r->judged.pair[pi].verdict == P2PD_VERDICT_UNKNOWN,
		 ": the kernel refused a pair p2pdiag calls usable");
}

/* The host bridge named by its root device: every pair whose path crosses it. */
static void not_listed_line(struct check_run *r, const char *line, size_t n)
{
	const char *hit = strstr(line, NOT_LISTED), *colon;
	unsigned long long root;
	unsigned long long hb;
	char text[LINE_MAX_SHOWN + 1];
	unsigned int i;

	if (!hit || hit > line + n)
		return;
	colon = hit - 2 >= line && hit[-2] == ':' ? hit - 2 : NULL;
	if (!colon || addr_before(line, colon, &root))
		return;
	hb = P2PD_HOST_BRIDGE(P2PD_ADDR_DOMAIN(root), P2PD_ADDR_BUS(root));
	shown(text, sizeof(text), line, n);
	for (i = 0; i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];

		if ((p->cls >= P2PD_CLASS_PHB || p->host_blocks) &&
		    (r->in.model->fn[p->a].host_bridge == hb ||
		     r->in.model->fn[p->b].host_bridge == hb))
			one_pair(r, (int)i, text, p->host_blocks,
				 ": the kernel's list lacks this host bridge, while the list p2pdiag judged by has it");
	}
}

/* Judge the log @text (NUL-terminated) against @r's pairs. */
static void kernel_verdicts_judge_text(struct check_run *r, const char *text)
{
	const char *line = text;

	if (!r->in.model)
		return;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		if (memmem(line, n, CANNOT, sizeof(CANNOT) - 1))
			cannot_line(r, line, n);
		else if (memmem(line, n, NOT_LISTED, sizeof(NOT_LISTED) - 1))
			not_listed_line(r, line, n);
		line = nl ? nl + 1 : NULL;
	}
}

void kernel_verdicts_judge(struct check_run *r, const char *log)
{
	if (log)
		kernel_verdicts_judge_text(r, log);
}
