/* SPDX-License-Identifier: GPL-2.0 */
/* The CPU of another machine's topology, inferred from its host bridges. */
#ifndef P2PDIAG_CPU_INFERENCE_H
#define P2PDIAG_CPU_INFERENCE_H

#include "p2pdiag/model.h"

struct check_run;

/*
 * cpu_from_host_bridges() - @m's cpu_flags from what its host bridges
 * tell (p2pd_cpu_guess()), with a cpu-inferred or cpu-unknown note in @r.
 */
void cpu_from_host_bridges(struct check_run *r, struct p2pd_model *m);

#endif /* P2PDIAG_CPU_INFERENCE_H */
