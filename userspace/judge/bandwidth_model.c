// SPDX-License-Identifier: GPL-2.0
/*
 * The expected-bandwidth model: what a PCIe path or an NVLink pair can
 * carry, which the reports print next to the measured figures and the
 * judgement measures them against.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judge.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"

double judge_pcie_gbs(unsigned int speed_tenths, unsigned int width)
{
	double gts = speed_tenths / 10.0, enc;
	unsigned int num, den;

	if (!speed_tenths || !width)
		return 0;
	p2pd_link_encoding(speed_tenths, &num, &den);
	enc = (double)num / den;
	return gts * width * enc / 8.0 * JUDGE_PCIE_EFFICIENCY;
}

/*
 * What the link above function @idx can carry: both ends' capabilities
 * (the current figures where neither end says); 0 for a function whose
 * link leads down.
 */
static double link_max_gbs(const struct p2pd_model *m, int idx)
{
	struct p2pd_link l;

	if (!p2pd_link_above(m, idx, &l))
		return 0;
	return judge_pcie_gbs(l.max_speed ? l.max_speed : l.speed,
			      l.max_width ? l.max_width : l.width);
}

static void take_min(double *best, double v)
{
	if (v > 0 && (*best == 0 || v < *best))
		*best = v;
}

double judge_host_path_gbs(const struct p2pd_model *m, int idx)
{
	int steps = 0;
	double best = 0;

	while (m && idx != P2PD_NO_INDEX && steps++ < P2PD_MAX_DEPTH) {
		const struct p2pd_function *f = &m->fn[idx];

		take_min(&best, link_max_gbs(m, idx));
		if (!f->has_parent)
			break;
		idx = p2pd_model_find(m, f->parent);
	}
	return best;
}

double judge_expected_host_gbs(const struct check_run *r, unsigned int g)
{
	return judge_host_path_gbs(r->in.model, run_gpu_function(r, g));
}

/* NVML's link version to GB/s per direction per link. */
double judge_nvlink_rate(unsigned int v)
{
	switch (v) {
	case 1: return 20.0;		/* P100 */
	case 2: case 3: case 4:
		return JUDGE_NVLINK2_GBS;
	case 5: return 50.0;		/* B200 */
	default: return 0;
	}
}

double judge_nvlink_links_gbs(unsigned int nvlinks, double rate)
{
	return nvlinks * rate * JUDGE_NVLINK_EFFICIENCY;
}

/*
 * The GPUs whose model fixes the NVLink version of every link they have
 * (so its rate, judge_nvlink_rate()), longest name first where one
 * holds another; bridged workstation and GeForce parts are not here, as
 * their links run narrower than their version's rate.
 */
static const struct {
	const char *model;
	unsigned int version;
} nvlink_models[] = {
	{ "P100", 1 }, { "V100", 2 }, { "A100", 3 }, { "A800", 3 },
	{ "H100", 4 }, { "H800", 4 }, { "H200", 4 }, { "H20", 4 }, { "GH200", 4 },
	{ "GB200", 5 }, { "GB300", 5 }, { "B200", 5 }, { "B300", 5 },
};

unsigned int judge_nvlink_version_of(const char *gpu_name)
{
	unsigned int i;

	for (i = 0; gpu_name && i < sizeof(nvlink_models) / sizeof(nvlink_models[0]); i++)
		if (strstr(gpu_name, nvlink_models[i].model))
			return nvlink_models[i].version;
	return 0;
}

double judge_nvlink_gbs(const struct gpu_state *st, const struct gpu_pair *gp,
			char *basis, size_t len)
{
	const struct gpu_device *s = &st->dev[gp->src];
	unsigned long long dst = st->dev[gp->dst].pci_addr;
	unsigned int link, n = 0, guessed = 0;
	unsigned int version = 0, mixed = 0;
	double sum = 0;

	if (!gp->nvlinks)
		return 0;
	for (link = 0; link < GPU_MAX_NVLINKS && link < GPU_NVLINK_LINKS; link++) {
		unsigned int v = s->settings.nvlink_version[link];
		double rate = judge_nvlink_rate(v);

		if (s->nvlink_remote[link] != dst)
			continue;
		n++;
		if (!rate) {
			rate = JUDGE_NVLINK_FALLBACK_GBS;
			guessed++;
		}
		if (version && v != version)
			mixed = 1;
		version = v;
		sum += rate;
	}
	if (!n) {	/* counted, but the far ends were not named */
		n = gp->nvlinks;
		guessed = n;
		sum = n * JUDGE_NVLINK_FALLBACK_GBS;
	}
	if (basis && guessed)
		snprintf(basis, len,
			 "%u NVLinks x %.0f GB/s (NVML gave no link version: NVLink 2-4 rate assumed) x %.2f",
			 n, JUDGE_NVLINK_FALLBACK_GBS, JUDGE_NVLINK_EFFICIENCY);
	else if (basis)
		snprintf(basis, len, "%u NVLinks x %.0f GB/s (NVLink %u%s, from NVML) x %.2f",
			 n, sum / n, version, mixed ? " and others" : "",
			 JUDGE_NVLINK_EFFICIENCY);
	return sum * JUDGE_NVLINK_EFFICIENCY;
}

double judge_expected_pair_gbs(const struct check_run *r,
			       const struct gpu_pair *gp)
{
	const struct p2pd_pair *p;
	int fa, fb, pi;
	unsigned int i;
	double best = 0;

	if (gp->nvlinks)
		return r->in.gpu ? judge_nvlink_gbs(r->in.gpu, gp, NULL, 0) :
				judge_nvlink_links_gbs(gp->nvlinks, JUDGE_NVLINK_FALLBACK_GBS);
	if (!r->in.model)
		return 0;
	fa = run_gpu_function(r, (unsigned int)gp->src);
	fb = run_gpu_function(r, (unsigned int)gp->dst);
	pi = run_pair_index(r, fa, fb);
	if (pi < 0)
		return 0;
	p = &r->judged.pair[pi];
	take_min(&best, link_max_gbs(r->in.model, p->a));
	take_min(&best, link_max_gbs(r->in.model, p->b));
	for (i = 0; i < p->path_len; i++) {
		int idx = p->path[i];

		/* the link above the common bridge is not on the way */
		if (idx != p->common)
			take_min(&best, link_max_gbs(r->in.model, idx));
	}
	return best;
}
