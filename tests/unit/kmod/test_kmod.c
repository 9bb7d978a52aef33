// SPDX-License-Identifier: GPL-2.0
/*
 * The module's device code, run against the fake PCI bus of
 * kernel_shim.c, at the moments the kernel can bring that the lab cannot
 * time: a PF hot-removed while the cross-check holds its VFs, a driver's
 * P2PDMA state on one end of a pair, a PF whose device lock is taken by
 * a change of its VFs while the walk reads a VF's IOMMU group.
 * Usage: test_kmod
 */
#include <string.h>

#include "kernel_shim.h"
#include <p2pdiag/model.h>
#include "p2pdiag.h"
#include "ktap.h"
#include "sriov_model.h"

/* A switch with one NIC (a PF and 2 VFs) and one GPU below it. */
struct bench {
	struct p2pd_model m;
	struct pci_dev *pf, *vf[2], *gpu;
	int pf_index;
};

static int bench_build(struct bench *t)
{
	const struct sriov_spec spec = { .switches = 1, .nics = 1, .vfs = 2,
					 .gpus = 1 };
	unsigned int i, nvf = 0;
	struct pci_dev *d;

	memset(t, 0, sizeof(*t));
	shim_reset();
	if (sriov_model(&spec, &t->m))
		return -1;
	t->pf_index = -1;
	/* every function of the model on the bus, in the model's order */
	for (i = 0; i < t->m.nr_fn; i++) {
		struct p2pd_function *f = &t->m.fn[i];

		/* the VFs follow their PF (sriov_model.h) */
		if (f->device == SRIOV_MODEL_VF_DEVICE && t->pf_index >= 0) {
			f->has_physfn = 1;
			f->physfn = t->m.fn[t->pf_index].addr;
		}
		d = shim_add((int)P2PD_ADDR_DOMAIN(f->addr),
			     P2PD_ADDR_BUS(f->addr),
			     PCI_DEVFN(P2PD_ADDR_DEV(f->addr), P2PD_ADDR_FN(f->addr)),
			     f->has_physfn ? t->pf : NULL);
		if (!d)
			return -1;
		if (f->has_physfn && nvf < 2)
			t->vf[nvf++] = d;
		else if (f->device == SRIOV_MODEL_PF_DEVICE) {
			t->pf = d;
			t->pf_index = (int)i;
		} else if (f->p2p_endpoint) {
			t->gpu = d;
		}
	}
	return t->pf && nvf == 2 && t->gpu ? 0 : -1;
}

static void bench_free(struct bench *t)
{
	free(t->m.fn);
	shim_reset();
}

/* cond_resched() after the first pair was asked: the PF goes away. */
static void remove_pf_after_first_call(void *ctx)
{
	struct bench *t = ctx;

	if (shim.distance_calls && t->pf->present)
		shim_remove_pf(t->pf);
}

/* The PF goes away as the walk over the bus reaches its first VF. */
static void remove_pf_at_first_vf(void *ctx, struct pci_dev *d)
{
	struct bench *t = ctx;

	if (d == t->vf[0] && t->pf->present)
		shim_remove_pf(t->pf);
}

static char why[512];

static const char *violation(void)
{
	snprintf(why, sizeof(why), "%u violations, the first: %s",
		 shim.violations, shim.first_violation);
	return why;
}

static void test_pf_removed_meanwhile(struct ktap *k)
{
	struct bench t;

	if (bench_build(&t)) {
		ktap_result(k, 0, "the bench could not be built",
			    "crosscheck: a PF hot-removed meanwhile is not used freed");
		return;
	}
	/*
	 * A PF that is no P2P endpoint of its own (a management function):
	 * nothing but its VFs' walk to the root holds it.
	 */
	t.m.fn[t.pf_index].p2p_endpoint = 0;
	shim.resched = remove_pf_after_first_call;
	shim.ctx = &t;
	p2pd_crosscheck_p2pdma(&t.m);
	ktap_result(k, !t.pf->present && shim.distance_calls == 3 &&
		    !shim.violations, violation(),
		    "crosscheck: a PF hot-removed meanwhile is not used freed (%u calls)",
		    shim.distance_calls);
	ktap_result(k, t.pf->freed && t.vf[0]->freed && t.vf[1]->freed &&
		    t.pf->refs == 0 && !shim.violations, violation(),
		    "crosscheck: ... and is freed once it lets go (PF refs %d)",
		    t.pf->refs);
	bench_free(&t);
}

/*
 * A PF hot-removed while the cross-check takes its references: between
 * the VF's reference and its PF's, the PF's last reference may go (the
 * VF drops its own on the PF when removed), unless the PCI rescan lock,
 * under which the PF is removed, is held meanwhile.
 */
static void test_pf_removed_while_referencing(struct ktap *k)
{
	struct bench t;

	if (bench_build(&t)) {
		ktap_result(k, 0, "the bench could not be built",
			    "crosscheck: a PF removed while its VFs are referenced is not used freed");
		return;
	}
	/* A management PF: the cross-check holds no reference of its own. */
	t.m.fn[t.pf_index].p2p_endpoint = 0;
	shim.on_get = remove_pf_at_first_vf;
	shim.ctx = &t;
	p2pd_crosscheck_p2pdma(&t.m);
	ktap_result(k, !t.pf->present && t.pf->freed && !shim.rescan_locked &&
		    !shim.violations, violation(),
		    "crosscheck: a PF removed while its VFs are referenced is not used freed (%u calls)",
		    shim.distance_calls);
	bench_free(&t);
}

static int refs_of(const struct bench *t, int out[4])
{
	out[0] = t->pf->refs;
	out[1] = t->vf[0]->refs;
	out[2] = t->vf[1]->refs;
	out[3] = t->gpu->refs;
	return t->pf->dev.locked + t->vf[0]->dev.locked +
	       t->vf[1]->dev.locked + t->gpu->dev.locked;
}

static void test_references_and_locks(struct ktap *k)
{
	int before[4], after[4], locked;
	struct bench t;

	if (bench_build(&t)) {
		ktap_result(k, 0, "the bench could not be built",
			    "crosscheck: every reference and lock it takes is given back");
		return;
	}
	refs_of(&t, before);
	p2pd_crosscheck_p2pdma(&t.m);
	locked = refs_of(&t, after);
	/* the PF, its 2 VFs and the GPU: 6 pairs */
	ktap_result(k, !memcmp(before, after, sizeof(before)) && !locked &&
		    shim.distance_calls == 6 && !shim.violations, violation(),
		    "crosscheck: every reference and lock it takes is given back (%u calls, PF refs %d -> %d)",
		    shim.distance_calls, before[0], after[0]);
	bench_free(&t);
}

static void test_p2pdma_state(struct ktap *k)
{
	static int state;
	struct bench t;

	if (bench_build(&t)) {
		ktap_result(k, 0, "the bench could not be built",
			    "crosscheck: an end with P2PDMA state is never the one asked");
		return;
	}
	/*
	 * The GPU's driver published P2P memory: its 3 pairs are asked from
	 * the other end; the VF whose lock a binding driver holds is not
	 * asked with the GPU (neither end can be), nor waited for.
	 */
	t.gpu->p2pdma = &state;
	t.vf[1]->dev.locked = 1;
	p2pd_crosscheck_p2pdma(&t.m);
	ktap_result(k, !shim.violations && shim.distance_calls == 5 &&
		    t.vf[1]->dev.locked == 1 && !t.gpu->dev.locked, violation(),
		    "crosscheck: an end with P2PDMA state is never the one asked, a busy lock is skipped (%u calls)",
		    shim.distance_calls);
	bench_free(&t);
}

static void test_iommu_group(struct ktap *k)
{
	struct iommu_group group = { .id = 7 };
	struct p2pd_function f;
	struct bench t;
	bool done;

	if (bench_build(&t)) {
		ktap_result(k, 0, "the bench could not be built",
			    "iommu_group: a VF's group is read under its PF's lock");
		return;
	}
	t.vf[0]->iommu_group = &group;
	done = p2pd_read_iommu_group(t.vf[0], &f);
	ktap_result(k, done && f.iommu_group == 7 &&
		    f.iommu_domain == P2PD_IOMMU_UNKNOWN && !t.pf->dev.locked &&
		    group.refs == 0 && shim.iommu_group_gets == 1 &&
		    !shim.violations, violation(),
		    "iommu_group: a VF's group is read under its PF's lock, lock and group given back");

	/* sriov_numvfs is changing the VFs: the PF's lock is taken */
	shim.iommu_group_gets = 0;
	shim.violations = 0;
	t.pf->dev.locked = 1;
	memset(&f, 0, sizeof(f));
	done = p2pd_read_iommu_group(t.vf[0], &f);
	ktap_result(k, !done && f.iommu_domain == P2PD_IOMMU_UNKNOWN &&
		    f.iommu_group == -1 && !shim.iommu_group_gets &&
		    t.pf->dev.locked == 1 && !shim.violations, violation(),
		    "iommu_group: while its PF's lock is taken a VF is left for later, its group not looked at");
	t.pf->dev.locked = 0;

	shim.violations = 0;
	t.pf->iommu_group = &group;
	done = p2pd_read_iommu_group(t.pf, &f);
	ktap_result(k, done && f.iommu_group == 7 && !t.pf->dev.locked &&
		    group.refs == 0 && !shim.violations, violation(),
		    "iommu_group: a PF's group needs no lock");
	shim.violations = 0;
	done = p2pd_read_iommu_group(t.gpu, &f);
	ktap_result(k, done && f.iommu_group == -1 &&
		    f.iommu_domain == P2PD_IOMMU_NONE && !shim.violations,
		    violation(), "iommu_group: a function in no group is in none");
	bench_free(&t);
}

int main(void)
{
	struct ktap k = { 0 };

	ktap_start("kmod");
	test_pf_removed_meanwhile(&k);
	test_pf_removed_while_referencing(&k);
	test_references_and_locks(&k);
	test_p2pdma_state(&k);
	test_iommu_group(&k);
	return ktap_finish(&k);
}
