// SPDX-License-Identifier: GPL-2.0
/*
 * Whether PCIe AtomicOps between two GPUs or accelerators can work: every
 * port on the pair's path must route AtomicOps without blocking their
 * egress, and the target must complete them (the registers are
 * system/atomics.h's); CUDA's word on the pair beside it.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "judge/results.h"
#include "topology/pciaddr.h"
#include "system/atomics.h"
#include "system/function_facts.h"
#include "judge/cuda_atomics.h"
#include "judge/system_checks.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/verdict.h"

static bool peer_kind(const struct p2pd_function *f)
{
	enum p2pd_kind k = p2pd_device_kind(f->class_code);

	return k == P2PD_KIND_GPU || k == P2PD_KIND_ACCELERATOR;
}

/* Whether @f completes 32- and 64-bit AtomicOps; -1 when not read. */
static int completer(const struct function_facts *f)
{
	unsigned int cap = f->devcap2;

	if (!f->have_devcap2)
		return -1;
	return (cap & (DEVCAP2_COMPLETER_32 | DEVCAP2_COMPLETER_64)) ==
	       (DEVCAP2_COMPLETER_32 | DEVCAP2_COMPLETER_64);
}

/* Where CUDA's capabilities call leaves a pair's operations unknown. */
#define CAPS_UNKNOWN_FIX "run the check again; a cuDeviceGetP2PAtomicCapabilities that keeps failing is the driver's: its kernel log (Xid lines) and nvidia-bug-report.sh say why"

/* Config space could not be read: CUDA's word alone, where it has one. */
static void cuda_only(struct check_run *r, const struct p2pd_function *fa,
		      const struct p2pd_function *fb)
{
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];
	struct cuda_atomics_word w;
	enum cuda_atomics c;

	cuda_atomics_join(r->in.gpu, fa->addr, fb->addr, PATH_ATOMICS_UNREAD,
			  PATH_ATOMICS_UNREAD, &w);
	c = w.said;
	if (c == CUDA_ATOMICS_UNKNOWN)
		return;
	pciaddr_format(a, fa->addr);
	pciaddr_format(b, fb->addr);
	findings_add(&r->judged.findings,
		     c == CUDA_ATOMICS_NONE || w.caps_unknown ? SEV_WARNING : SEV_INFO,
		     FC_P2P_ATOMICS, fa->addr, fb->addr,
		     c == CUDA_ATOMICS_ALL ? (w.caps_unknown ? CAPS_UNKNOWN_FIX : FINDING_NO_FIX) :
		     "run as root to read the path's DevCap2/DevCtl2, which name the port or device that stops them",
		     "%s and %s: peer atomics %s, by CUDA's word alone: the path's registers could not be read%s",
		     a, b, c == CUDA_ATOMICS_ALL ? "work" :
		     c == CUDA_ATOMICS_PARTIAL ? "partial" : "blocked", w.text);
}

/* The port on @p's path that stops AtomicOps, or NULL; false if a register could not be read. */
static bool stopping_port(struct check_run *r, const struct function_facts *facts,
			  const struct p2pd_pair *p, const struct p2pd_function **port,
			  unsigned int *ctl)
{
	unsigned int k;

	*port = NULL;
	for (k = 0; k < p->path_len; k++) {
		const struct p2pd_function *f = &r->in.model->fn[p->path[k]];
		const struct function_facts *ff = &facts[p->path[k]];
		unsigned int cap = ff->devcap2;

		if (!ff->have_atomics_regs)
			return false;
		*ctl = ff->atomics_ctl;
		if (!(cap & DEVCAP2_ROUTING) || (*ctl & DEVCTL2_EGRESS_BLOCKING)) {
			*port = f;
			return true;
		}
	}
	return true;
}

static void judge_pair(struct check_run *r, const struct function_facts *facts,
		       const struct p2pd_pair *p)
{
	const struct p2pd_model *m = r->in.model;
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	const struct p2pd_function *stop;
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], port[P2PD_ADDR_STRLEN];
	struct cuda_atomics_word w;
	int ca = completer(&facts[p->a]), cb = completer(&facts[p->b]);
	unsigned int ctl;

	if (ca < 0 || cb < 0 || !stopping_port(r, facts, p, &stop, &ctl)) {
		cuda_only(r, fa, fb);	/* else nothing said */
		return;
	}
	pciaddr_format(a, fa->addr);
	pciaddr_format(b, fb->addr);
	if (stop) {
		cuda_atomics_join(r->in.gpu, fa->addr, fb->addr, PATH_ATOMICS_STOPPED,
				  PATH_ATOMICS_STOPPED, &w);
		pciaddr_format(port, stop->addr);
		findings_add(&r->judged.findings, SEV_WARNING, FC_P2P_ATOMICS,
			     fa->addr, fb->addr,
			     ctl & DEVCTL2_EGRESS_BLOCKING ?
			     "AtomicOp Egress Blocking is a firmware or driver setting of that port: clear it in the BIOS's PCIe settings (or setpci CAP_EXP+0x28.w=0000:0080 on the port, lost at reboot), or use a path without it" :
			     "the port cannot route AtomicOps: put both devices under ports that can (lspci -vvv: DevCap2 AtomicOpsCap Routing+), or do without peer atomics",
			     "%s and %s: peer atomics blocked by port %s (%s)%s",
			     a, b, port, ctl & DEVCTL2_EGRESS_BLOCKING ?
			     "AtomicOp Egress Blocking set in its Device Control 2" :
			     "no AtomicOp Routing Supported in its Device Capabilities 2",
			     w.text);
		return;
	}
	cuda_atomics_join(r->in.gpu, fa->addr, fb->addr,
			  cb ? PATH_ATOMICS_CARRIED : PATH_ATOMICS_STOPPED,
			  ca ? PATH_ATOMICS_CARRIED : PATH_ATOMICS_STOPPED, &w);
	if (ca && cb)
		findings_add(&r->judged.findings, w.caps_unknown ? SEV_WARNING : SEV_INFO,
			     FC_P2P_ATOMICS, fa->addr, fb->addr,
			     w.caps_unknown ? CAPS_UNKNOWN_FIX : FINDING_NO_FIX,
			     "%s and %s: peer atomics work: every port on the path routes AtomicOps and both complete 32- and 64-bit ones%s",
			     a, b, w.text);
	else
		findings_add(&r->judged.findings,
			     (ca || cb) && !w.caps_unknown ? SEV_INFO : SEV_WARNING,
			     FC_P2P_ATOMICS, fa->addr, fb->addr,
			     "none on this machine: the device's AtomicOp completer support is fixed in silicon",
			     "%s and %s: peer atomics %s: the path routes them, but %s%s%s%s%s%s",
			     a, b, ca || cb ? "partial" : "blocked",
			     ca || cb ? "only " : "neither device completes 32- and 64-bit AtomicOps",
			     ca || cb ? (ca ? a : b) : "",
			     ca || cb ? " completes 32- and 64-bit AtomicOps: atomics toward it work, toward " : "",
			     ca || cb ? (ca ? b : a) : "", ca || cb ? " not" : "", w.text);
}

void atomics_judge(struct check_run *r, const struct function_facts *facts)
{
	unsigned int i;

	for (i = 0; r->in.model && facts && i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];

		if (peer_kind(&r->in.model->fn[p->a]) && peer_kind(&r->in.model->fn[p->b]))
			judge_pair(r, facts, p);
	}
}
