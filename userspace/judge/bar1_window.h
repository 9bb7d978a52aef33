/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A GPU's BAR1 against its memory: peers (and NICs, for GPUDirect RDMA)
 * map the GPU's memory through BAR1, and the P2P-enabled drivers of
 * GeForce cards map all of it at once, so a BAR1 smaller than the memory
 * (256 MiB where Resizable BAR or Above 4G Decoding is off) limits or
 * breaks them.  The one rule, for NVML's figures and nvidia-smi -q's.
 */
#ifndef P2PDIAG_JUDGE_BAR1_WINDOW_H
#define P2PDIAG_JUDGE_BAR1_WINDOW_H

#include <stdbool.h>

struct check_run;

/* Whether a BAR1 of @bar1 spans @memory (both in one unit). */
bool bar1_spans_memory(unsigned long long bar1, unsigned long long memory);

/* bar1-below-memory for each selected GPU whose NVML BAR1 is smaller. */
void judge_bar1_windows(struct check_run *r);

#endif /* P2PDIAG_JUDGE_BAR1_WINDOW_H */
