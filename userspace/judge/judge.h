/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Judgement: the engine's pairs and the GPU side's figures in, findings
 * out.  Also the expected-bandwidth model, which the reports print next
 * to the measured figures.
 */
#ifndef P2PDIAG_JUDGE_H
#define P2PDIAG_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/judgement.h"

/*
 * Expected bandwidth per direction: PCIe raw rate x encoding (8b/10b up to
 * 5 GT/s, 128b/130b up to 32 GT/s, FLIT at 64 GT/s) x protocol efficiency
 * (TLP and DLLP overhead at a 256-byte max payload).  NVLink: links x the
 * per-link rate of their version (judge_nvlink_rate()) x an efficiency
 * measured on HGX systems.
 */
#define JUDGE_PCIE_EFFICIENCY		0.89
#define JUDGE_NVLINK_EFFICIENCY		0.85
/* Per-link GB/s per direction of NVLink 2 to 4 (V100, A100, H100/H200). */
#define JUDGE_NVLINK2_GBS		25.0
/* ... the rate taken when NVML gives no version: the common one. */
#define JUDGE_NVLINK_FALLBACK_GBS	JUDGE_NVLINK2_GBS
/*
 * ... and the slowest any NVLink runs at: GA102's bridged links (RTX 3090,
 * RTX A6000, A40), four of them 56.25 GB/s per direction.  A figure below
 * what links at this rate carry is short whatever the GPU.
 */
#define JUDGE_NVLINK_SLOWEST_GBS	14.0
/* P2P no faster than this times host staging is not real P2P. */
#define JUDGE_FAKE_P2P_MARGIN		1.10
/* Both directions at once, in all, no faster than this times one: a hairpin. */
#define JUDGE_HAIRPIN_MARGIN		1.15
/* P2P enabled below this share of P2P disabled (host-staged) is slower. */
#define JUDGE_P2P_SLOWER_MARGIN		0.80
/* A P2P latency at least this share of the staged one: staged too ... */
#define JUDGE_STAGED_LATENCY_MARGIN	0.70
/* ... where the staged latency is above this, in microseconds. */
#define JUDGE_STAGED_LATENCY_MIN_US	5.0
/* One direction of a pair below this share of the other is asymmetric. */
#define JUDGE_ASYMMETRY_MARGIN		0.60
/* A pair's P2P latency this many times the median is a detour ... */
#define JUDGE_LATENCY_DETOUR_MARGIN	2.5
/* ... when above this, in microseconds (NVLink's are near 2). */
#define JUDGE_LATENCY_DETOUR_MIN_US	3.0
/* A GPU this far below the median of identical GPUs is an outlier. */
#define JUDGE_SIBLING_MARGIN		0.90

/*
 * All findings from the topology: blockers, IOMMU/ATS notes, links.
 * After judge_pairs() (judge/results.h).
 */
void judge_topology(struct check_run *r);
/*
 * judge_pair_matters() - whether judged pair @p must be kept one by one
 * even where its fine peers are only counted: a verdict other than direct
 * or through a routing host bridge, a note that judge_topology() makes a
 * finding of, or a GPU at an end (measured pair by pair).
 */
bool judge_pair_matters(const struct check_run *r, const struct p2pd_pair *p);
/*
 * All findings from the GPU side, after judge_figures() has written the
 * figures' judgement into r->judged.results (r->in.gpu may be NULL: only the host's
 * settings).
 */
void judge_gpus(struct check_run *r);

struct evidence;

/*
 * judge_evidence() - the findings of pasted evidence read into @ev
 * (evidence/evidence.h), each with the file and line it rests on, in the
 * order of their causes; an lspci -xxxx dump or -vvv tree judged by the
 * engine first.  Where no file was read, the note that says so.
 * Return: 0, or -1 with @err when the engine's judgement failed.
 */
int judge_evidence(struct check_run *r, struct evidence *ev, char *err, size_t errlen);
struct diagnosis;
struct ev_smi_query;
/*
 * evidence_suspects() - at most three suspects for @ev's trouble into @d,
 * best first, each with the facts for and against it: kept only where
 * the causes leave the root cause undecided (diagnose()).  @slow: the
 * measurements show P2P slower than it should be.
 */
void evidence_suspects(const struct evidence *ev, struct diagnosis *d, bool slow);
/*
 * evidence_nvlink_fabric() - the first fact of @ev that shows an NVLink or
 * NVSwitch fabric (a line naming an NVSwitch or its fabric manager, NVLink
 * in topo -m, NCCL finding GPUs NVLink-connected); a ref with no line
 * where none does.
 */
struct ev_ref evidence_nvlink_fabric(const struct evidence *ev);
/*
 * evidence_bar1_spans_memory() - whether nvidia-smi -q shows BAR1 at least
 * as large as the memory of every GPU it gives both for (one at least):
 * BAR1 then spans the memory peers map.  @ref gets the first such BAR1.
 */
bool evidence_bar1_spans_memory(const struct ev_smi_query *q, struct ev_ref *ref);
/*
 * evidence_refused_between_groups() - whether CUDA's answers split @ev's
 * GPUs into groups, peer access granted inside each and refused only
 * between them (one group of two or more, the groups' buses apart): the
 * pattern of GPUs under two CPU sockets.  @group (EV_GPU_MAX entries)
 * gets each GPU's group.
 */
bool evidence_refused_between_groups(const struct evidence *ev, unsigned int *group);
/*
 * evidence_first_refusal() - the line of @ev's first cudaDeviceCanAccessPeer
 * refusal; a ref with no line where none.
 */
struct ev_ref evidence_first_refusal(const struct evidence *ev);
/* The rules over the evidence's facts alone (the unit tests call it). */
void judge_evidence_facts(struct check_run *r, const struct evidence *ev);
/*
 * judge_evidence_host_copies() - the host copies a paste measured
 * (nvbandwidth's), judged by the live run's rule against the GPU's PCIe
 * link as the files show it (evidence_host_copies.c).
 * Return: the warnings it added.
 */
unsigned int judge_evidence_host_copies(struct check_run *r,
					const struct evidence *ev);

/* GB/s per direction of a PCIe link; 0 when unknown. */
double judge_pcie_gbs(unsigned int speed_tenths, unsigned int width);
/* GB/s per direction that @nvlinks NVLinks of @rate GB/s each carry. */
double judge_nvlink_links_gbs(unsigned int nvlinks, double rate);
/*
 * judge_nvlink_version_of() - the NVLink version (judge_nvlink_rate()'s
 * argument) that a GPU of model @gpu_name has on every link; 0 where the
 * model does not fix it.
 */
unsigned int judge_nvlink_version_of(const char *gpu_name);
/* Expected GB/s of src -> dst for a GPU pair, 0 when unknown. */
double judge_expected_pair_gbs(const struct check_run *r,
			       const struct gpu_pair *gp);
/*
 * Expected GB/s between host memory and model function @idx of @m (may be
 * NULL): the narrowest link on its way up; 0 when unknown.
 */
double judge_host_path_gbs(const struct p2pd_model *m, int idx);
/* Expected GB/s between host memory and GPU @g, 0 when unknown. */
double judge_expected_host_gbs(const struct check_run *r, unsigned int g);
/*
 * judge_nvlink_gbs() - GB/s per direction of @gp's NVLinks: for each link
 * from src to dst, the rate of its NVML version; @basis (may be NULL)
 * gets how it was reached.  0 without NVLinks.
 */
double judge_nvlink_gbs(const struct gpu_state *st, const struct gpu_pair *gp,
			char *basis, size_t len);
/* GB/s per direction of one NVLink of NVML version @v, 0 when unknown. */
double judge_nvlink_rate(unsigned int v);

/*
 * judge_pair_fix() - the whole fix for a pair's blockers: the kernel
 * parameter, its config_acs form, the runtime setpci lines with their
 * warning, and firmware setting names.  Empty when nothing to fix.
 */
void judge_pair_fix(const struct check_run *r, const struct p2pd_pair *p,
		    char *buf, size_t len);
/*
 * Room for any text about one pair: P2PD_MAX_PATH ports of ~24 bytes each
 * in each of the fix's forms, and the words around them.
 */
#define JUDGE_TEXT_MAX	8192

#endif /* P2PDIAG_JUDGE_H */
