/* SPDX-License-Identifier: GPL-2.0 */
/* The CPU of another machine's topology, inferred from its host bridges. */
#ifndef P2PDIAG_CPU_INFERENCE_H
#define P2PDIAG_CPU_INFERENCE_H

struct check_run;

/*
 * judge_cpu_inference() - a cpu-inferred or cpu-unknown note in @r where
 * the CPU was inferred from the host bridges (r->in.cpu_inferred).
 */
void judge_cpu_inference(struct check_run *r);

#endif /* P2PDIAG_CPU_INFERENCE_H */
