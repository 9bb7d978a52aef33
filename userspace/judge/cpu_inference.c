// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU of another machine's topology (a dump, a saved file, pasted
 * evidence) when nobody named it: what its host bridges told, said as a
 * finding, since the host bridges are judged by it.
 */
#include <stdio.h>

#include "judge/judgement.h"
#include "judge/cpu_inference.h"
#include "findings/findings.h"
#include "topology/pciaddr.h"
#include "p2pdiag/decode.h"

static const char *const cpu_guess_words[] = {
	[P2PD_CPU_GUESS_INTEL] = "an Intel CPU",
	[P2PD_CPU_GUESS_AMD_ZEN] = "an AMD CPU of family 0x17 (Zen) or later",
	[P2PD_CPU_GUESS_AMD_OLDER] = "an AMD CPU before Zen",
	[P2PD_CPU_GUESS_AMD] = "an AMD CPU of a family p2pdiag cannot tell from it (not taken for Zen)",
	[P2PD_CPU_GUESS_HYGON] = "a Hygon CPU",
};

/*
 * Another machine's topology whose CPU nobody named: what its host
 * bridges told (run_inputs_infer_cpu() set the model's cpu_flags from
 * it), or that it is unknown.
 */
void judge_cpu_inference(struct check_run *r)
{
	const struct cpu_inference *c = &r->in.cpu_inferred;
	char a[P2PD_ADDR_STRLEN];

	if (!c->made)
		return;
	if (c->guess == P2PD_CPU_GUESS_NONE) {
		findings_add(&r->judged.findings, SEV_INFO, FC_CPU_UNKNOWN,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     NULL,
			     "the input does not say which CPU it came from, this machine's is not its, and its host bridges do not tell: host bridges judged as on a CPU that is not AMD Zen (only the kernel's P2PDMA list routes P2P)");
		return;
	}
	findings_add(&r->judged.findings, SEV_INFO, FC_CPU_INFERRED,
		     c->addr, FINDING_NO_ADDR,
		     "pass that machine's /proc/cpuinfo with --cpuinfo FILE to be sure",
		     "the input does not say which CPU it came from: host bridge %s [%04x:%04x] says %s, and its host bridges are judged so",
		     pciaddr_format(a, c->addr), c->vendor, c->device,
		     cpu_guess_words[c->guess]);
}
