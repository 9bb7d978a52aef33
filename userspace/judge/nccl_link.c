// SPDX-License-Identifier: GPL-2.0
/*
 * NCCL's figure for a GPU's own PCIe link.  NCCL's topology gives each
 * PCI device a bandwidth of width x a per-lane rate (15, 30, 60, 120, 240
 * and 480 x 100 Mbit/s for 2.5 to 64 GT/s; 60 for anything else) / 80
 * GB/s.  Before 2.30.7 it takes the lower of the device's and its port's
 * max_link_speed and max_link_width from sysfs: the link's capability.
 * From 2.30.7, a device NVML knows (an NVIDIA GPU) gets NVML's current
 * generation and width instead, 16 GT/s and x16 when NVML does not answer;
 * a link_speed or link_width already in an NCCL_TOPO_FILE is kept.  A GPU
 * whose link idles at Gen1 while NCCL starts is then a 3 GB/s device to
 * it, whatever it does under load.
 */
#include <stdio.h>

#include "judge/judge_priv.h"
#include "judge/nccl_link.h"
#include "p2pdiag/decode.h"

/* NCCL's per-lane rate, x 100 Mbit/s, for a speed in 0.1 GT/s. */
static unsigned int lane_rate(unsigned int speed_tenths)
{
	switch (speed_tenths) {
	case 25: return 15;
	case 50: return 30;
	case 80: return 60;
	case 160: return 120;
	case 320: return 240;
	case 640: return 480;
	default: return 60;	/* NCCL's fallback */
	}
}

static void view_set(struct nccl_link_view *v, unsigned int speed_tenths,
		     unsigned int width, bool from_nvml)
{
	v->speed_tenths = speed_tenths;
	v->width = width ? width : 16;	/* NCCL: no width is x16 */
	v->gbs = v->width * lane_rate(speed_tenths) / 80.0;
	v->from_nvml = from_nvml;
}

bool nccl_gpu_link(const struct check_run *r, unsigned int g, int version,
		   struct nccl_link_view *out)
{
	const struct gpu_device *d;
	struct p2pd_link l;
	int idx;

	if (!r->in.gpu || g >= r->in.gpu->nr_dev || version <= 0)
		return false;
	d = &r->in.gpu->dev[g];
	if (version >= NCCL_LINK_FROM_NVML_SINCE) {
		/* NCCL maps NVML's generations 1 to 6 only */
		if (!d->link.valid || !d->link.gen || d->link.gen > 6)
			return false;
		view_set(out, p2pd_link_speed_tenths(d->link.gen),
			 d->link.width, true);
		return true;
	}
	idx = r->in.model ? run_gpu_function(r, g) : P2PD_NO_INDEX;
	if (idx == P2PD_NO_INDEX || !p2pd_link_above(r->in.model, idx, &l) ||
	    !l.max_speed)
		return false;
	view_set(out, l.max_speed, l.max_width, false);
	return true;
}

static void speed_text(char *buf, size_t len, unsigned int tenths)
{
	snprintf(buf, len, "%u.%u", tenths / 10, tenths % 10);
}

void judge_nccl_links(struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	int v = st ? st->nccl_version : 0;
	unsigned int g;

	if (v < NCCL_LINK_FROM_NVML_SINCE)
		return;		/* not known, or NCCL reads the capability */
	for (g = 0; g < st->nr_dev; g++) {
		struct nccl_link_view now, cap;
		char s_now[16], s_cap[16];
		unsigned long long a = st->dev[g].pci_addr;

		if (!nccl_gpu_link(r, g, v, &now) ||
		    !nccl_gpu_link(r, g, NCCL_LINK_FROM_NVML_SINCE - 1, &cap) ||
		    now.gbs >= cap.gbs)
			continue;
		speed_text(s_now, sizeof(s_now), now.speed_tenths);
		speed_text(s_cap, sizeof(s_cap), cap.speed_tenths);
		findings_add(&r->judged.findings, SEV_INFO, FC_NCCL_LINK_CURRENT, a,
			     FINDING_NO_ADDR,
			     "GPUs lower their link at idle and NCCL reads it as it starts, so this is the figure its ring and tree choices start from; put the link's link_speed and link_width in an NCCL_TOPO_FILE to give it the capability, and see link-degraded for the link under load",
			     "NCCL %d.%d.%d (libnccl.so.2) takes GPU %s's PCIe link from NVML's current %s GT/s x%u: %.1f GB/s in its topology, where the link can do %s GT/s x%u (%.1f GB/s, the sysfs maximum NCCL before 2.30.7 took)",
			     v / 10000, v / 100 % 100, v % 100, judge_addr_str(a),
			     s_now, now.width, now.gbs, s_cap, cap.width, cap.gbs);
	}
}
