/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a GPU's figures measure its path or something else: other work
 * on the GPU, clocks held back while the copies ran, host buffers on the
 * far NUMA node.  The judgement asks before it blames a link.
 */
#ifndef P2PDIAG_JUDGE_VALIDITY_H
#define P2PDIAG_JUDGE_VALIDITY_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/judgement.h"

/* Clock event reasons that slow copies (nvmlClocksEventReason* bits). */
#define JUDGE_THROTTLE_SLOWING	(0x4ull | 0x8ull | 0x20ull | 0x40ull | 0x80ull)

/*
 * judge_gpu_explained() - what other than the path explains a low figure
 * of GPU @g, if anything.  @host: the figure crosses the host link (NUMA
 * placement matters).  @why gets "other work on the GPU: pid 4711
 * (train.py, 2.6 GiB)", @fix the fix for that.
 * Return: true when something does.
 */
bool judge_gpu_explained(const struct check_run *r, unsigned int g, bool host,
			 char *why, size_t wlen, char *fix, size_t flen);

/* The findings: gpu-busy, gpu-throttled, numa-remote. */
void judge_validity(struct check_run *r);

/* "HW thermal slowdown, SW power cap" for @reasons, into @buf. */
void judge_throttle_words(unsigned long long reasons, char *buf, size_t len);

/* "pid 4711 (train.py, 2.6 GiB), pid 99 (not visible)", into @buf. */
void judge_process_words(const struct gpu_activity *a, char *buf, size_t len);

#endif /* P2PDIAG_JUDGE_VALIDITY_H */
