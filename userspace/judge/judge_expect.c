// SPDX-License-Identifier: GPL-2.0
/*
 * The expectation behind every figure, with its basis in words.  Host
 * copies: the narrowest PCIe link between the GPU and the host (from the
 * snapshot, or the GPU's own link as NVML, or for pasted copies
 * nvidia-smi -q or lspci, reports it when the GPU is not in the
 * snapshot); both directions at once: each direction's share of
 * that full-duplex link.  P2P: the pair's PCIe path, or its NVLinks x the
 * per-link rate of each link's NVML version, capped by the HBM figure
 * measured on either GPU.  Device-local: the median of identical GPUs when
 * there are several, else the HBM rate NVML's memory clock and bus width
 * give.  Latency: a ceiling, stated in judge_expect.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/judge_expect.h"
#include "p2pdiag/decode.h"

static const char *const dev_names[JF_DEV_FIGS] = {
	"host to device", "device to host", "host to device (both directions)",
	"device to host (both directions)", "device-local copy",
	"small-copy latency", "host memory latency (pointer chase)",
};
static const char *const dev_keys[JF_DEV_FIGS] = {
	"h2d", "d2h", "bidir_h2d", "bidir_d2h", "local", "latency", "latency_chase",
};
static const char *const pair_names[JP_PAIR_FIGS] = {
	"P2P copy", "P2P copy both ways (this direction)", "P2P latency copy",
};
static const char *const pair_keys[JP_PAIR_FIGS] = {
	"p2p", "p2p_bidir", "latency_p2p",
};

const char *judge_dev_fig_name(enum judge_dev_fig f)
{
	return f < JF_DEV_FIGS ? dev_names[f] : "?";
}

const char *judge_dev_fig_key(enum judge_dev_fig f)
{
	return f < JF_DEV_FIGS ? dev_keys[f] : "?";
}

const char *judge_pair_fig_name(enum judge_pair_fig f)
{
	return f < JP_PAIR_FIGS ? pair_names[f] : "?";
}

const char *judge_pair_fig_key(enum judge_pair_fig f)
{
	return f < JP_PAIR_FIGS ? pair_keys[f] : "?";
}

const struct gpu_figure *judge_dev_figure(const struct gpu_device *d,
					  enum judge_dev_fig f)
{
	switch (f) {
	case JF_H2D: return &d->h2d;
	case JF_D2H: return &d->d2h;
	case JF_BIDIR_H2D: return &d->bidir_h2d;
	case JF_BIDIR_D2H: return &d->bidir_d2h;
	case JF_LOCAL: return &d->local;
	case JF_LATENCY_COPY: return &d->latency_h2d;
	default: return &d->latency_chase;
	}
}

const struct gpu_figure *judge_pair_figure(const struct gpu_pair *gp,
					   enum judge_pair_fig f)
{
	switch (f) {
	case JP_P2P: return &gp->p2p;
	case JP_P2P_BIDIR: return &gp->p2p_bidir;
	default: return &gp->latency_p2p;
	}
}

/*
 * NVML's generation is the Link Speed field's code (Gen1 = 1 .. Gen7 = 7):
 * the engine's table turns it into GT/s, as it does for config space.
 */
static double nvml_link_gbs(const struct gpu_link_reading *l)
{
	if (!l->valid)
		return 0;
	return judge_pcie_gbs(p2pd_link_speed_tenths(l->max_gen), l->max_width);
}

static void host_link(const struct check_run *r, int fn,
		      const struct gpu_link_reading *own, const char *reporter,
		      struct judge_expect *e)
{
	double v = judge_host_path_gbs(r->in.model, fn);

	if (v > 0) {
		e->value = v;
		snprintf(e->basis, sizeof(e->basis),
			 "PCIe: the narrowest link between the GPU and the host, %.1f GB/s per direction after encoding, x %.2f for packet overhead",
			 v / JUDGE_PCIE_EFFICIENCY, JUDGE_PCIE_EFFICIENCY);
		return;
	}
	v = nvml_link_gbs(own);
	if (v > 0) {
		e->value = v;
		snprintf(e->basis, sizeof(e->basis),
			 "PCIe: the GPU's own link, Gen%u x%u as %s reports its maximum (the GPU is not in the PCI snapshot), x %.2f for packet overhead",
			 own->max_gen, own->max_width, reporter, JUDGE_PCIE_EFFICIENCY);
		return;
	}
	snprintf(e->basis, sizeof(e->basis),
		 "none: the GPU's PCIe link is unknown (not in the snapshot, no %s)",
		 reporter);
}

/* The HBM expectation: identical GPUs' median, else NVML's memory rate. */
static void hbm(const struct check_run *r, unsigned int g, struct judge_expect *e)
{
	const struct gpu_state *st = r->in.gpu;
	const struct gpu_device *d = &st->dev[g];
	double vals[GPU_MAX];
	unsigned int j, n = 0;

	for (j = 0; j < st->nr_dev; j++)
		if (st->dev[j].local.valid && !strcmp(st->dev[j].name, d->name))
			vals[n++] = st->dev[j].local.median;
	if (n >= 3) {
		e->value = gpu_median(vals, n);
		snprintf(e->basis, sizeof(e->basis),
			 "HBM: the median device-local copy of the %u identical GPUs (%s) measured in this run",
			 n, d->name);
		return;
	}
	if (d->settings.valid && d->settings.max_mem && d->settings.mem_bus_width) {
		double peak = 2.0 * d->settings.max_mem * 1e6 *
			      d->settings.mem_bus_width / 8 / 1e9;

		e->value = peak / 2 * JUDGE_HBM_COPY_EFFICIENCY;
		snprintf(e->basis, sizeof(e->basis),
			 "HBM: 2 x %u MHz x %u bit = %.0f GB/s (NVML's memory clock and bus width); a copy reads and writes each byte: half, x %.2f",
			 d->settings.max_mem, d->settings.mem_bus_width, peak,
			 JUDGE_HBM_COPY_EFFICIENCY);
		return;
	}
	snprintf(e->basis, sizeof(e->basis),
		 "none: no identical GPU to compare with and no memory clock from NVML");
}

#define COPY_LATENCY_FACT "a small copy-engine copy costs 1.5-2.5 us on an idle GPU"
#define COPY_LATENCY_ABOVE "other work queues ahead of it"

/* "@fact; above @us us @above" */
static void latency_ceiling(struct judge_expect *e, double us, const char *fact,
			    const char *above)
{
	e->value = us;
	e->ceiling = true;
	snprintf(e->basis, sizeof(e->basis), "%s; above %.1f us %s", fact, us,
		 above);
}

void judge_expect_host(const struct check_run *r, int fn,
		       const struct gpu_link_reading *own, const char *reporter,
		       enum judge_dev_fig f, struct judge_expect *e)
{
	char one[JUDGE_BASIS_LEN];

	memset(e, 0, sizeof(*e));
	host_link(r, fn, own, reporter, e);
	if ((f != JF_BIDIR_H2D && f != JF_BIDIR_D2H) || e->value <= 0)
		return;
	snprintf(one, sizeof(one), "%s", e->basis);
	e->value *= JUDGE_DUPLEX_SHARE;
	snprintf(e->basis, sizeof(e->basis),
		 "%.2f of the one-way expectation, each direction's share of the full-duplex link; one way: %.*s",
		 JUDGE_DUPLEX_SHARE, (int)(sizeof(e->basis) - 120), one);
}

void judge_expect_device(const struct check_run *r, unsigned int g,
			 enum judge_dev_fig f, struct judge_expect *e)
{
	memset(e, 0, sizeof(*e));
	switch (f) {
	case JF_H2D:
	case JF_D2H:
	case JF_BIDIR_H2D:
	case JF_BIDIR_D2H:
		judge_expect_host(r, run_gpu_function(r, g), &r->in.gpu->dev[g].link,
				  "NVML", f, e);
		return;
	case JF_LOCAL:
		hbm(r, g, e);
		return;
	case JF_LATENCY_COPY:
		latency_ceiling(e, JUDGE_COPY_LATENCY_US, COPY_LATENCY_FACT,
				COPY_LATENCY_ABOVE);
		return;
	default:
		latency_ceiling(e, JUDGE_CHASE_LATENCY_US,
				"one GPU load from pinned host memory is one PCIe round trip, 1.0-1.5 us",
				"the host or the path adds delay");
		return;
	}
}

void judge_expect_pair(const struct check_run *r, const struct gpu_pair *gp,
		       enum judge_pair_fig f, struct judge_expect *e)
{
	const struct gpu_state *st = r->in.gpu;
	const struct gpu_figure *la = &st->dev[gp->src].local,
				*lb = &st->dev[gp->dst].local;
	double hbm_cap = 0;

	memset(e, 0, sizeof(*e));
	if (f == JP_LATENCY_P2P) {
		latency_ceiling(e, JUDGE_COPY_LATENCY_US, COPY_LATENCY_FACT,
				COPY_LATENCY_ABOVE);
		return;
	}
	e->value = judge_expected_pair_gbs(r, gp);
	if (gp->nvlinks)
		judge_nvlink_gbs(st, gp, e->basis, sizeof(e->basis));
	else if (e->value > 0)
		snprintf(e->basis, sizeof(e->basis),
			 "PCIe: the narrowest link on the pair's path, %.1f GB/s per direction after encoding, x %.2f for packet overhead",
			 e->value / JUDGE_PCIE_EFFICIENCY, JUDGE_PCIE_EFFICIENCY);
	else
		snprintf(e->basis, sizeof(e->basis),
			 "none: the pair's path is not in the PCI snapshot");
	if (la->valid)
		hbm_cap = la->median;
	if (lb->valid && (!hbm_cap || lb->median < hbm_cap))
		hbm_cap = lb->median;
	if (e->value > 0 && hbm_cap > 0 && hbm_cap < e->value) {
		size_t n = strlen(e->basis);

		e->value = hbm_cap;
		snprintf(e->basis + n, sizeof(e->basis) - n,
			 ", capped by the measured HBM copy (%.0f GB/s)", hbm_cap);
	}
	if (f == JP_P2P_BIDIR && e->value > 0) {
		size_t n = strlen(e->basis);

		e->value *= JUDGE_DUPLEX_SHARE;
		snprintf(e->basis + n, sizeof(e->basis) - n,
			 "; both ways: x %.2f, each direction's share", JUDGE_DUPLEX_SHARE);
	}
}

bool judge_figure_low(const struct check_run *r, const struct gpu_figure *fig,
		      const struct judge_expect *e, double *ratio)
{
	double min = r->in.params.min_ratio;

	*ratio = 0;
	if (!fig->valid || e->value <= 0)
		return false;
	*ratio = fig->median / e->value;
	return e->ceiling ? fig->median > e->value : *ratio < min;
}
