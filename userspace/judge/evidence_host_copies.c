// SPDX-License-Identifier: GPL-2.0
/*
 * Pasted host copies (nvbandwidth's host_to_device and device_to_host
 * cases, one way and both at once) judged as a live run judges its own:
 * the expectation from the GPU's PCIe link (judge_expect_host()) and the
 * finding of a figure below it (judge_figure()), so that a paste and a
 * run on one machine say the same.  The link is the one the files show:
 * the GPU's path in an lspci tree or dump, else its own link as
 * nvidia-smi -q or lspci gives it.  Where they show none, the figures
 * are not judged and the finding says what is missing.
 */
#include <stdio.h>
#include <string.h>

#include "evidence/evidence.h"
#include "findings/findings.h"
#include "judge/judge_priv.h"
#include "judge/judge_expect.h"
#include "judge/results.h"
#include "p2pdiag/decode.h"

/* The judge's figure for each of nvbandwidth's host copies. */
static const enum judge_dev_fig fig_of[EV_HOST_COPIES] = {
	[EV_HOST_H2D] = JF_H2D,
	[EV_HOST_D2H] = JF_D2H,
	[EV_HOST_BIDIR_H2D] = JF_BIDIR_H2D,
	[EV_HOST_BIDIR_D2H] = JF_BIDIR_D2H,
};

static bool figure_shown(double v)
{
	return v == v && v > 0 && v < 1e9;
}

/*
 * The one GPU function with a link among @ev's functions, on bus @bus
 * (-1: any); NULL where none is, or two are and neither is known to be
 * the one.
 */
static const struct ev_pci_dev *one_gpu_function(const struct evidence *ev, int bus)
{
	const struct ev_pci_dev *found = NULL;
	unsigned int i;

	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *d = &ev->pci[i];

		if (!d->gpu || !d->lnk_ref.line ||
		    (bus >= 0 && (d->anonymous || d->bus != (unsigned int)bus)))
			continue;
		if (found)
			return NULL;
		found = d;
	}
	return found;
}

/*
 * GPU @g's PCI function: the one GPU function on its bus, or, where the
 * files measured one GPU, their one GPU function (an nvidia-smi -q
 * grepped without its Bus Id, an nvbandwidth without its device line).
 */
static const struct ev_pci_dev *gpu_function(const struct evidence *ev,
					     unsigned int g, unsigned int nr_gpus)
{
	const struct ev_pci_dev *d = NULL;

	if (ev->gpu_bus[g] >= 0)
		d = one_gpu_function(ev, ev->gpu_bus[g]);
	if (!d && nr_gpus == 1)
		d = one_gpu_function(ev, -1);
	return d;
}

/* NVML's generation code (Gen1 = 1 ...) of a speed in 0.1 GT/s; 0: none. */
static unsigned int gen_of(unsigned int speed_tenths)
{
	unsigned int code;

	for (code = 1; speed_tenths && code < 16; code++)
		if (p2pd_link_speed_tenths(code) == speed_tenths)
			return code;
	return 0;
}

/* GPU @g's own link as @d shows it, and who shows it. */
static const char *own_link(const struct ev_pci_dev *d, struct gpu_link_reading *l)
{
	memset(l, 0, sizeof(*l));
	if (!d)
		return "nvidia-smi -q or lspci";
	l->max_gen = gen_of(d->cap_speed10 ? d->cap_speed10 : d->sta_speed10);
	l->max_width = d->cap_width ? d->cap_width : d->sta_width;
	l->valid = l->max_gen && l->max_width;
	if (d->smi_link)
		return "nvidia-smi -q";
	return d->cap_speed10 ? "lspci's LnkCap" : "lspci's LnkSta";
}

static unsigned int gpus_measured(const struct evidence *ev)
{
	unsigned int m, k, n = ev->nr_gpus;

	for (m = 0; m < EV_COPY_METHODS; m++)
		for (k = 0; k < EV_HOST_COPIES; k++)
			if (ev->nvbw_host[m][k].have && ev->nvbw_host[m][k].n > n)
				n = ev->nvbw_host[m][k].n;
	return n < EV_GPU_MAX ? n : EV_GPU_MAX;
}

/* The first host copy figure of GPU @g, for the finding on a missing link. */
static const struct ev_host_copies *first_shown(const struct evidence *ev,
						unsigned int g)
{
	unsigned int m, k;

	for (m = 0; m < EV_COPY_METHODS; m++)
		for (k = 0; k < EV_HOST_COPIES; k++) {
			const struct ev_host_copies *h = &ev->nvbw_host[m][k];

			if (h->have && g < h->n && figure_shown(h->gbs[g]))
				return h;
		}
	return NULL;
}

/* "file:line; file:line" of @a and @b (either may be unread). */
static void refs_of(const struct evidence *ev, struct ev_ref a, struct ev_ref b,
		    char *buf, size_t len)
{
	char one[128], two[128];

	snprintf(buf, len, "%s%s%s", a.line ? ev_ref_str(ev, a, one, sizeof(one)) : "",
		 a.line && b.line ? "; " : "",
		 b.line ? ev_ref_str(ev, b, two, sizeof(two)) : "");
}

/* One pasted figure of GPU @g judged: which case, and against what. */
struct host_judged {
	const struct ev_host_copies *h;
	unsigned int method, kind;
	struct gpu_figure fig;
	struct judged_figure jf;
};

/* The lowest (measured / expected) of @hj[0..@n)'s low figures not yet @said; -1: none. */
static int worst_low(const struct host_judged *hj, unsigned int n, const bool *said)
{
	unsigned int i;
	int worst = -1;

	for (i = 0; i < n; i++)
		if (hj[i].jf.low && !said[i] &&
		    (worst < 0 || hj[i].jf.ratio < hj[worst].jf.ratio))
			worst = (int)i;
	return worst;
}

/*
 * GPU @g's figures against its link, the lowest first, as the first of
 * a cause is the one a report shows; the warnings it added.  Without a
 * link, @g's name goes to @unknown.
 */
static unsigned int judge_gpu(struct check_run *r, const struct evidence *ev,
			      unsigned int g, unsigned int nr_gpus,
			      char *unknown, size_t ulen)
{
	const struct ev_pci_dev *d = gpu_function(ev, g, nr_gpus);
	unsigned long long addr = d && !d->anonymous ?
		P2PD_ADDR(d->domain, d->bus, d->dev, d->fn) : FINDING_NO_ADDR;
	int fn = addr != FINDING_NO_ADDR && r->in.model ?
		 p2pd_model_find(r->in.model, addr) : P2PD_NO_INDEX;
	struct gpu_link_reading own;
	const char *reporter = own_link(d, &own);
	struct host_judged hj[EV_COPY_METHODS * EV_HOST_COPIES];
	bool said[EV_COPY_METHODS * EV_HOST_COPIES] = { false };
	unsigned int m, k, n = 0, added = 0;
	char who[128], refs[512];
	int w;

	if (addr != FINDING_NO_ADDR)
		snprintf(who, sizeof(who), "GPU %s", judge_addr_str(addr));
	else
		snprintf(who, sizeof(who), "GPU %u%s%s%s", g,
			 ev->gpu_name[g][0] ? " (" : "", ev->gpu_name[g],
			 ev->gpu_name[g][0] ? ")" : "");
	for (m = 0; m < EV_COPY_METHODS; m++)
		for (k = 0; k < EV_HOST_COPIES; k++) {
			const struct ev_host_copies *h = &ev->nvbw_host[m][k];
			struct host_judged *x = &hj[n];

			/*
			 * The live run's rule is for copy-engine copies, the ones
			 * it makes.  SM kernels copying both ways at once reach
			 * less of the link: on an H100 at Gen5 x16 whose copy
			 * engines reached 0.97 and 1.02 of the expectation, its
			 * SM copies reached 0.84, which that rule calls low on a
			 * healthy machine.
			 */
			if (m == EV_COPY_SM)
				continue;
			if (!h->have || g >= h->n || !figure_shown(h->gbs[g]))
				continue;
			memset(x, 0, sizeof(*x));
			x->h = h;
			x->method = m;
			x->kind = k;
			judge_expect_host(r, fn, &own, reporter, fig_of[k], &x->jf.expect);
			if (x->jf.expect.value <= 0) {
				size_t used = strlen(unknown);

				snprintf(unknown + used, ulen - used, "%s%s",
					 used ? ", " : "", who);
				return 0;
			}
			x->fig.valid = true;
			x->fig.median = h->gbs[g];
			x->fig.samples = 1;
			x->jf.low = judge_figure_low(r, &x->fig, &x->jf.expect,
						     &x->jf.ratio);
			n++;
		}
	while ((w = worst_low(hj, n, said)) >= 0) {
		const struct host_judged *x = &hj[w];
		size_t before = r->judged.findings.nr;
		char what[256];

		said[w] = true;
		snprintf(what, sizeof(what), "%s %s%s", who,
			 judge_dev_fig_name(fig_of[x->kind]),
			 x->method == EV_COPY_SM ? ", copied by SM kernels" : "");
		judge_figure(r, what, addr, FINDING_NO_ADDR, &x->fig, &x->jf, "", "",
			     judge_figure_fix(fig_of[x->kind]));
		if (r->judged.findings.nr == before)
			continue;
		added++;
		refs_of(ev, x->h->ref, d ? d->lnk_ref : ev->dump_ref, refs,
			sizeof(refs));
		findings_set_evidence(&r->judged.findings, refs);
	}
	return added;
}

unsigned int judge_evidence_host_copies(struct check_run *r,
					const struct evidence *ev)
{
	unsigned int g, n = gpus_measured(ev), added = 0;
	char unknown[512] = "", refs[512];
	const struct ev_host_copies *first = NULL;

	for (g = 0; g < n; g++) {
		added += judge_gpu(r, ev, g, n, unknown, sizeof(unknown));
		if (!first)
			first = first_shown(ev, g);
	}
	if (!unknown[0])
		return added;
	if (findings_add(&r->judged.findings, SEV_INFO, FC_EVIDENCE_UNDECIDED,
			 FINDING_NO_ADDR, FINDING_NO_ADDR,
			 "on that machine run `nvidia-smi -q` (its GPU Link Info) or `sudo lspci -vvv` and pass its output with nvbandwidth's",
			 "nvbandwidth measured host copies of %s, but no file here shows the PCIe link they cross, so nothing says what those copies should reach",
			 unknown))
		return added;
	refs_of(ev, first->ref, (struct ev_ref){ 0, 0 }, refs, sizeof(refs));
	findings_set_evidence(&r->judged.findings, refs);
	return added;
}
