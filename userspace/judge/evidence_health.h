/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Health in pasted evidence against the links the files name: a peer copy
 * over GPUs that nvidia-smi topo -m joins by NVLink must reach what those
 * links carry before the judge calls the machine healthy
 * (evidence_health.c).
 */
#ifndef P2PDIAG_EVIDENCE_HEALTH_H
#define P2PDIAG_EVIDENCE_HEALTH_H

#include <stdbool.h>

struct check_run;
struct diagnosis;
struct evidence;

/* The command that shows each NVLink's state and its errors. */
#define CMD_NVLINK_LINKS "nvidia-smi nvlink -s (every link up at its rate); nvidia-smi nvlink -e (error counters)"

/*
 * evidence_links_suspects() - whether a peer copy that @ev measured
 * (p2pBandwidthLatencyTest's or nvbandwidth's) between GPUs that topo -m
 * joins by NV# misses what those links carry, by the run's --min-ratio;
 * where one does, the NVLinks go into @d as a suspect with the pair that
 * fell short furthest and the links it rests on, and that fact against a
 * healthy suspect already there.
 * Return: true when a copy fell short: then the files do not show health,
 * whatever the staged copies did.
 */
bool evidence_links_suspects(const struct check_run *r, const struct evidence *ev,
			     struct diagnosis *d);

#endif /* P2PDIAG_EVIDENCE_HEALTH_H */
