/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each measured figure is judged against, and why: the expectation
 * with its stated basis (the bottleneck PCIe link, NVLink links x the
 * per-link rate of their NVML version, the HBM figure), so that a report
 * can print the number and the reason beside every figure.
 */
#ifndef P2PDIAG_JUDGE_EXPECT_H
#define P2PDIAG_JUDGE_EXPECT_H

#include <stdbool.h>

#include "judge/judgement.h"

/* One GPU's figures, in the order reports print them. */
enum judge_dev_fig {
	JF_H2D, JF_D2H, JF_BIDIR_H2D, JF_BIDIR_D2H, JF_LOCAL,
	JF_LATENCY_COPY, JF_LATENCY_CHASE, JF_DEV_FIGS
};

/* One ordered pair's figures that have an expectation. */
enum judge_pair_fig { JP_P2P, JP_P2P_BIDIR, JP_LATENCY_P2P, JP_PAIR_FIGS };

#define JUDGE_BASIS_LEN 320

struct judge_expect {
	double value;		/* GB/s, or us for latency; 0: no expectation */
	bool ceiling;		/* latency: the figure should stay below value */
	char basis[JUDGE_BASIS_LEN];
};

/*
 * Both directions at once: each direction's share of a full-duplex link.
 * The two directions' read completions and flow-control credits share the
 * link and the host's memory; on an H200 (Gen5 x16) each direction kept
 * 0.88-0.92 of its one-way figure in nvbandwidth and in this tool.
 */
#define JUDGE_DUPLEX_SHARE		0.90
/* A device-local copy reads and writes each byte: half the HBM rate, at
 * this efficiency (H200: 2110 GB/s of 2458). */
#define JUDGE_HBM_COPY_EFFICIENCY	0.90
/*
 * A small copy-engine copy costs 1.5-2.5 us on an idle PCIe GPU (H200:
 * 2.1 us); one GPU load from pinned host memory is a PCIe round trip of
 * 1.0-1.5 us (H200: 1.2 us).  Above these something queues ahead of the
 * copies or the host is asleep; the link itself adds no microseconds.
 */
#define JUDGE_COPY_LATENCY_US		5.0
#define JUDGE_CHASE_LATENCY_US		2.5

const char *judge_dev_fig_name(enum judge_dev_fig f);	/* "host to device" */
const char *judge_dev_fig_key(enum judge_dev_fig f);	/* "h2d" */
const struct gpu_figure *judge_dev_figure(const struct gpu_device *d,
					  enum judge_dev_fig f);
const char *judge_pair_fig_name(enum judge_pair_fig f);
const char *judge_pair_fig_key(enum judge_pair_fig f);
const struct gpu_figure *judge_pair_figure(const struct gpu_pair *gp,
					   enum judge_pair_fig f);

/* judge_expect_device() - the expectation for GPU @g's figure @f. */
void judge_expect_device(const struct check_run *r, unsigned int g,
			 enum judge_dev_fig f, struct judge_expect *e);
/*
 * judge_expect_host() - the expectation for host copy @f (JF_H2D to
 * JF_BIDIR_D2H) of a GPU: its path to the host from model function @fn
 * of r->in.model (P2PD_NO_INDEX: not there), else its own link @own, whose
 * maximum @reporter gave ("NVML").  judge_expect_device() is this for a
 * measured GPU; --evidence calls it for the host copies of a paste.
 */
void judge_expect_host(const struct check_run *r, int fn,
		       const struct gpu_link_reading *own, const char *reporter,
		       enum judge_dev_fig f, struct judge_expect *e);
/* judge_expect_pair() - the expectation for pair @gp's figure @f. */
void judge_expect_pair(const struct check_run *r, const struct gpu_pair *gp,
		       enum judge_pair_fig f, struct judge_expect *e);
/*
 * judge_figure_low() - whether figure @fig misses @e by more than the run's
 * --min-ratio (bandwidth) or exceeds its ceiling (latency).  @ratio gets
 * measured / expected.
 */
bool judge_figure_low(const struct check_run *r, const struct gpu_figure *fig,
		      const struct judge_expect *e, double *ratio);

#endif /* P2PDIAG_JUDGE_EXPECT_H */
