// SPDX-License-Identifier: GPL-2.0
/* PCIe AtomicOps along each GPU pair's path (atomics.h). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "judge/judge.h"
#include "judge/results.h"
#include "topology/pciaddr.h"
#include "system/atomics.h"
#include "system/pcie_config.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/verdict.h"

#define DEVCAP2			0x24	/* low word of Device Capabilities 2 */
#define DEVCTL2			0x28
#define DEVCAP2_ROUTING		0x0040
#define DEVCAP2_COMPLETER_32	0x0080
#define DEVCAP2_COMPLETER_64	0x0100
#define DEVCTL2_EGRESS_BLOCKING	0x0080

static bool peer_kind(const struct p2pd_function *f)
{
	enum p2pd_kind k = p2pd_device_kind(f->class_code);

	return k == P2PD_KIND_GPU || k == P2PD_KIND_ACCELERATOR;
}

/* Whether @f completes 32- and 64-bit AtomicOps; -1 when not read. */
static int completer(struct check_run *r, const struct p2pd_function *f)
{
	unsigned int cap;

	if (!pcie_config_read_word(r->root, f->addr, DEVCAP2, &cap) || cap == 0xffff)
		return -1;
	return (cap & (DEVCAP2_COMPLETER_32 | DEVCAP2_COMPLETER_64)) ==
	       (DEVCAP2_COMPLETER_32 | DEVCAP2_COMPLETER_64);
}

/* The CUDA GPU at @addr, or -1. */
static int cuda_gpu(const struct gpu_state *st, unsigned long long addr)
{
	unsigned int i;

	for (i = 0; st && i < st->nr_dev; i++)
		if (st->dev[i].pci_addr == addr)
			return (int)i;
	return -1;
}

/*
 * What CUDA's P2P attributes 3 (NATIVE_ATOMIC_SUPPORTED) and 5
 * (ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED, CUDA 13) say of @a -> @b, in
 * @text; the CUDA_ATOMICS_* value, CUDA_ATOMICS_UNKNOWN where CUDA did
 * not read the pair or grants it no peer access.
 */
enum cuda_atomics { CUDA_ATOMICS_UNKNOWN, CUDA_ATOMICS_ALL, CUDA_ATOMICS_PARTIAL,
		    CUDA_ATOMICS_NONE };

static enum cuda_atomics cuda_atomics(const struct check_run *r,
				      unsigned long long a, unsigned long long b,
				      char *text, size_t len)
{
	int ga = cuda_gpu(r->gpu, a), gb = cuda_gpu(r->gpu, b);
	const struct gpu_pair *gp = ga < 0 || gb < 0 ? NULL :
				    run_gpu_pair(r->gpu, ga, gb);

	text[0] = '\0';
	if (!gp || !gp->cuda_valid || !gp->access_supported)
		return CUDA_ATOMICS_UNKNOWN;
	if (gp->native_atomics) {
		snprintf(text, len, "; CUDA says every atomic works over the link (P2P attribute NATIVE_ATOMIC_SUPPORTED)");
		return CUDA_ATOMICS_ALL;
	}
	if (gp->partial_atomics > 0) {
		snprintf(text, len, "; CUDA says only some atomics work over the link (P2P attribute ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED)");
		return CUDA_ATOMICS_PARTIAL;
	}
	snprintf(text, len, "; CUDA says no atomics work over the link (NATIVE_ATOMIC_SUPPORTED 0, %s)",
		 gp->partial_atomics < 0 ?
		 "ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED unknown to this driver" :
		 "ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED 0");
	return CUDA_ATOMICS_NONE;
}

/* Config space could not be read: CUDA's word alone, where it has one. */
static void cuda_only(struct check_run *r, const struct p2pd_function *fa,
		      const struct p2pd_function *fb)
{
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], said[192];
	enum cuda_atomics c = cuda_atomics(r, fa->addr, fb->addr, said, sizeof(said));

	if (c == CUDA_ATOMICS_UNKNOWN)
		return;
	pciaddr_format(a, fa->addr);
	pciaddr_format(b, fb->addr);
	findings_add(&r->findings, c == CUDA_ATOMICS_NONE ? SEV_WARNING : SEV_INFO,
		     "p2p-atomics", fa->addr, fb->addr,
		     c == CUDA_ATOMICS_ALL ? NULL :
		     "run as root to read the path's DevCap2/DevCtl2, which name the port or device that stops them",
		     "%s and %s: peer atomics %s, by CUDA's word alone: the path's registers could not be read%s",
		     a, b, c == CUDA_ATOMICS_ALL ? "work" :
		     c == CUDA_ATOMICS_PARTIAL ? "partial" : "blocked", said);
}

static void judge_pair(struct check_run *r, const struct p2pd_pair *p)
{
	const struct p2pd_model *m = r->model;
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], port[P2PD_ADDR_STRLEN];
	char said[192];
	int ca = completer(r, fa), cb = completer(r, fb);
	unsigned int k;

	if (ca < 0 || cb < 0) {
		cuda_only(r, fa, fb);
		return;
	}
	cuda_atomics(r, fa->addr, fb->addr, said, sizeof(said));
	pciaddr_format(a, fa->addr);
	pciaddr_format(b, fb->addr);
	for (k = 0; k < p->path_len; k++) {
		const struct p2pd_function *f = &m->fn[p->path[k]];
		unsigned int cap, ctl;

		if (!pcie_config_read_word(r->root, f->addr, DEVCAP2, &cap) ||
		    !pcie_config_read_word(r->root, f->addr, DEVCTL2, &ctl) ||
		    cap == 0xffff || ctl == 0xffff) {
			cuda_only(r, fa, fb);	/* else nothing said */
			return;
		}
		if (!(cap & DEVCAP2_ROUTING) || (ctl & DEVCTL2_EGRESS_BLOCKING)) {
			pciaddr_format(port, f->addr);
			findings_add(&r->findings, SEV_WARNING, "p2p-atomics",
				     fa->addr, fb->addr,
				     ctl & DEVCTL2_EGRESS_BLOCKING ?
				     "AtomicOp Egress Blocking is a firmware or driver setting of that port: clear it in the BIOS's PCIe settings (or setpci CAP_EXP+0x28.w=0000:0080 on the port, lost at reboot), or use a path without it" :
				     "the port cannot route AtomicOps: put both devices under ports that can (lspci -vvv: DevCap2 AtomicOpsCap Routing+), or do without peer atomics",
				     "%s and %s: peer atomics blocked by port %s (%s)%s",
				     a, b, port, ctl & DEVCTL2_EGRESS_BLOCKING ?
				     "AtomicOp Egress Blocking set in its Device Control 2" :
				     "no AtomicOp Routing Supported in its Device Capabilities 2",
				     said);
			return;
		}
	}
	if (ca && cb)
		findings_add(&r->findings, SEV_INFO, "p2p-atomics", fa->addr, fb->addr, NULL,
			     "%s and %s: peer atomics work: every port on the path routes AtomicOps and both complete 32- and 64-bit ones%s",
			     a, b, said);
	else
		findings_add(&r->findings, ca || cb ? SEV_INFO : SEV_WARNING,
			     "p2p-atomics", fa->addr, fb->addr,
			     "none on this machine: the device's AtomicOp completer support is fixed in silicon",
			     "%s and %s: peer atomics %s: the path routes them, but %s%s%s%s%s%s",
			     a, b, ca || cb ? "partial" : "blocked",
			     ca || cb ? "only " : "neither device completes 32- and 64-bit AtomicOps",
			     ca || cb ? (ca ? a : b) : "",
			     ca || cb ? " completes 32- and 64-bit AtomicOps: atomics toward it work, toward " : "",
			     ca || cb ? (ca ? b : a) : "", ca || cb ? " not" : "", said);
}

void atomics_judge(struct check_run *r)
{
	unsigned int i;

	for (i = 0; r->model && i < r->nr_pairs; i++) {
		const struct p2pd_pair *p = &r->pair[i];

		if (peer_kind(&r->model->fn[p->a]) && peer_kind(&r->model->fn[p->b]))
			judge_pair(r, p);
	}
}
