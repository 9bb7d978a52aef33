// SPDX-License-Identifier: GPL-2.0
/* CUDA's word on peer atomics beside the path's (cuda_atomics.h). */
#include <stdio.h>
#include <string.h>

#include "judge/judgement.h"
#include "gpu/gpu.h"
#include "judge/cuda_atomics.h"
#include "judge/judge_priv.h"
#include "topology/pciaddr.h"

#define ALL_OPS ((1u << GPU_ATOMIC_OPS) - 1)

/* The CUDA GPU at @addr, or -1. */
static int cuda_gpu(const struct gpu_state *st, unsigned long long addr)
{
	unsigned int i;

	for (i = 0; st && i < st->nr_dev; i++)
		if (st->dev[i].pci_addr == addr)
			return (int)i;
	return -1;
}

/* CUDA's reading of @src -> @dst, NULL where it has none or no peer access. */
static const struct gpu_pair *read_pair(const struct gpu_state *st,
					unsigned long long src,
					unsigned long long dst)
{
	int gs = cuda_gpu(st, src), gd = cuda_gpu(st, dst);
	const struct gpu_pair *gp = gs < 0 || gd < 0 ? NULL :
				    run_gpu_pair(st, gs, gd);

	return gp && gp->cuda_valid && gp->access_supported ? gp : NULL;
}

/* The operations the capabilities call gave no native size, as a mask. */
static unsigned int missing_ops(const struct gpu_pair *gp)
{
	unsigned int op, m = 0;

	for (op = 0; op < GPU_ATOMIC_OPS; op++)
		if (!(gp->atomic_caps[op] & GPU_ATOMIC_SIZES))
			m |= 1u << op;
	return m;
}

static void op_list(struct text *t, unsigned int mask)
{
	unsigned int op;
	const char *sep = "";

	for (op = 0; op < GPU_ATOMIC_OPS; op++)
		if (mask & (1u << op)) {
			text_add(t, "%s%s", sep, gpu_atomic_op_name(op));
			sep = ", ";
		}
}

/* Attributes 3 and 5 of @gp, said as they always were. */
static enum cuda_atomics attributes(const struct gpu_pair *gp, struct text *t)
{
	if (gp->native_atomics) {
		text_add(t, "; CUDA says every atomic works over the link (P2P attribute NATIVE_ATOMIC_SUPPORTED)");
		return CUDA_ATOMICS_ALL;
	}
	if (gp->partial_atomics > 0) {
		text_add(t, "; CUDA says only some atomics work over the link (P2P attribute ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED)");
		return CUDA_ATOMICS_PARTIAL;
	}
	text_add(t, "; CUDA says no atomics work over the link (NATIVE_ATOMIC_SUPPORTED 0, %s)",
		 gp->partial_atomics < 0 ?
		 "ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED unknown to this driver" :
		 "ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED 0");
	return CUDA_ATOMICS_NONE;
}

/*
 * The capabilities call for @gp (@src -> @dst, or both ways when @both),
 * against @path, the path's word toward @dst.  A driver without the call
 * says nothing here.
 */
static void capabilities(const struct gpu_pair *gp, const char *src,
			 const char *dst, bool both, enum path_atomics path,
			 struct cuda_atomics_word *w, struct text *t)
{
	unsigned int missing = missing_ops(gp), native = ALL_OPS & ~missing;
	unsigned int nr_native = (unsigned int)__builtin_popcount(native);
	const char *dir = both ? "between" : "from", *to = both ? "and" : "to";

	if (gp->atomic_caps_state == GPU_ATOMIC_CAPS_ABSENT)
		return;
	if (gp->atomic_caps_state == GPU_ATOMIC_CAPS_FAILED) {
		w->caps_unknown = true;
		text_add(t, "; which atomic operations CUDA runs natively %s %s %s %s is unknown: cuDeviceGetP2PAtomicCapabilities failed (%s)",
			 dir, src, to, dst, gp->atomic_caps_error);
		return;
	}
	text_add(t, "; cuDeviceGetP2PAtomicCapabilities: %u of %u atomic operations native %s %s %s %s",
		 nr_native, GPU_ATOMIC_OPS, dir, src, to, dst);
	if (missing) {
		text_add(t, ", missing: ");
		op_list(t, missing);
	}
	if (path == PATH_ATOMICS_CARRIED && missing) {
		text_add(t, ": the path carries PCIe AtomicOps, but CUDA does not run these natively over the link, so a kernel using them on the peer's memory is not atomic against the peer's own accesses (PCIe's AtomicOps are FetchAdd, Swap and CAS only): keep them on local memory, or use the native ones");
	} else if (path == PATH_ATOMICS_STOPPED && native) {
		unsigned int nvlinks = gp->nvml_valid ? gp->nvlinks : 0;

		if (nvlinks) {
			text_add(t, ": the native ones travel over the pair's %u NVLinks, where the PCIe path's registers do not apply",
				 nvlinks);
			return;
		}
		text_add(t, ": CUDA calls %u native although the path does not carry PCIe AtomicOps to %s: either the pair talks over NVLink or another link than this path (nvidia-smi topo -m: NV# between them), or CUDA's answer does not hold for this path and those atomics would not complete",
			 nr_native, both ? "either" : dst);
	}
}

void cuda_atomics_join(const struct gpu_state *st, unsigned long long a,
		       unsigned long long b, enum path_atomics to_b,
		       enum path_atomics to_a, struct cuda_atomics_word *w)
{
	const struct gpu_pair *ab = read_pair(st, a, b), *ba = read_pair(st, b, a);
	struct text t = { w->text, sizeof(w->text), 0 };
	char as[P2PD_ADDR_STRLEN], bs[P2PD_ADDR_STRLEN];
	bool both;

	memset(w, 0, sizeof(*w));
	if (!ab)
		return;
	w->said = attributes(ab, &t);
	pciaddr_format(as, a);
	pciaddr_format(bs, b);
	both = ba && to_a == to_b && ba->atomic_caps_state == ab->atomic_caps_state &&
	       !memcmp(ba->atomic_caps, ab->atomic_caps, sizeof(ab->atomic_caps)) &&
	       !strcmp(ba->atomic_caps_error, ab->atomic_caps_error);
	capabilities(ab, as, bs, both, to_b, w, &t);
	if (ba && !both)
		capabilities(ba, bs, as, false, to_a, w, &t);
}
