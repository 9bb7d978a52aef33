// SPDX-License-Identifier: GPL-2.0
/*
 * Health needs P2P measured near what the path should give, not only
 * above copies staged through the host: a pair joined by four NVLinks
 * that copies 20 GB/s beats the host and is still far from its 85.
 * Where the files name the links (topo -m's NV#, matched to the
 * measuring tool's GPUs by PCI bus), each measured direction is held to
 * the live run's rule, the figure low below --min-ratio of what the
 * links carry (judge_figure_low()).  topo -m gives the links' count, not
 * their rate: the rate is their version's where both GPUs' model fixes
 * it (judge_nvlink_version_of()), else the slowest any NVLink runs at,
 * so that a pair called short is short whatever the GPU.  One direction
 * short is no health; which of the links or the route is at fault the
 * files do not say, so it is a suspect, never a cause.
 *
 * PCIe pairs are not held to their links here: the files give each
 * GPU's own link, not the route between them, and healthy machines copy
 * across sockets at 0.8 of it (six A6000 on Gen4 x16: 21.8-22.6 GB/s
 * against 26.3 within a socket).
 */
#include <stdio.h>
#include <string.h>

#include "evidence/evidence.h"
#include "judge/diagnosis.h"
#include "judge/evidence_health.h"
#include "judge/judge.h"
#include "judge/judge_expect.h"

struct shortfall {
	unsigned int nr;		/* pair directions short */
	unsigned int a, b, nvlinks;	/* the one furthest below */
	unsigned int version;		/* its links' NVLink version; 0: unknown */
	double gbs, ratio, rate;
	struct judge_expect expect;
	struct ev_ref fig_ref, topo_ref;
};

/* The peer copies measured: p2pBandwidthLatencyTest's, else nvbandwidth's. */
static const struct ev_matrix *peer_copies(const struct evidence *ev)
{
	if (ev->uni_on.have)
		return &ev->uni_on;
	return ev->nvbw_d2d.have ? &ev->nvbw_d2d : NULL;
}

static bool find_shortfall(const struct check_run *r, const struct evidence *ev,
			   struct shortfall *s)
{
	const struct ev_matrix *m = peer_copies(ev);
	unsigned int a, b;

	memset(s, 0, sizeof(*s));
	for (a = 0; m && a < m->n && a < ev->nr_gpus; a++)
		for (b = 0; b < m->n && b < ev->nr_gpus; b++) {
			int ra = ev->gpu_topo_row[a], rb = ev->gpu_topo_row[b];
			struct gpu_figure fig = { .valid = true, .median = m->v[a][b] };
			struct judge_expect e = { 0 };
			unsigned int n, v;
			double ratio, rate;

			if (a == b || ra < 0 || rb < 0 || ev->can_access[a][b] == 0 ||
			    !(m->v[a][b] > 0) || ev->topo_link[ra][rb] != EV_LINK_NV)
				continue;
			n = ev->topo_nvlinks[ra][rb];
			v = judge_nvlink_version_of(ev->gpu_name[a]);
			if (v != judge_nvlink_version_of(ev->gpu_name[b]))
				v = 0;
			rate = v ? judge_nvlink_rate(v) : JUDGE_NVLINK_SLOWEST_GBS;
			e.value = judge_nvlink_links_gbs(n, rate);
			if (!judge_figure_low(r, &fig, &e, &ratio))
				continue;
			if (!s->nr++ || ratio < s->ratio) {
				s->a = a;
				s->b = b;
				s->nvlinks = n;
				s->version = v;
				s->rate = rate;
				s->gbs = m->v[a][b];
				s->ratio = ratio;
				s->expect = e;
				s->fig_ref = m->ref;
				s->topo_ref = ev->topo_ref[ra];
			}
		}
	return s->nr > 0;
}

bool evidence_links_suspects(const struct check_run *r, const struct evidence *ev,
			     struct diagnosis *d)
{
	char fact[DIAG_FACT_LEN], fig[100], topo[100], rate[64];
	struct shortfall s;
	struct suspect *sp;
	unsigned int i;

	if (!find_shortfall(r, ev, &s))
		return false;
	if (s.version)
		snprintf(rate, sizeof(rate), "NVLink %u, as its model has", s.version);
	else
		snprintf(rate, sizeof(rate), "the slowest NVLink's: the model does not fix it");
	snprintf(fact, sizeof(fact),
		 "GPU%u to GPU%u copied %.1f GB/s with P2P (%s), %.0f%% of the %.1f GB/s its %u NVLinks carry (topo -m's NV%u, %s: %u x %.1f GB/s (%s) x %.2f)%s",
		 s.a, s.b, s.gbs, ev_ref_str(ev, s.fig_ref, fig, sizeof(fig)),
		 100 * s.ratio, s.expect.value, s.nvlinks, s.nvlinks,
		 ev_ref_str(ev, s.topo_ref, topo, sizeof(topo)), s.nvlinks, s.rate, rate,
		 JUDGE_NVLINK_EFFICIENCY, s.nr > 1 ? "; other pairs fall short too" : "");
	for (i = 0; i < d->nr_suspects; i++)
		if (d->suspect[i].root_cause == RC_HEALTHY) {
			d->suspect[i].likelihood = UNLIKELY;
			suspect_against(&d->suspect[i], "%s", fact);
		}
	sp = diagnosis_suspect(d, RC_NVLINK, LIKELY, CMD_NVLINK_LINKS);
	suspect_for(sp, "%s: links down or slowed, or peer traffic not on them", fact);
	return true;
}
