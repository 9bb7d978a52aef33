/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's model as its source hands it over: indexed by host bridge
 * once, and its CPU inferred from its host bridges where nobody named
 * it.  Both are facts of the model, so they are settled here, before any
 * judgement, and the judge reads the model as it was given.
 */
#ifndef P2PDIAG_RUN_MODEL_INPUT_H
#define P2PDIAG_RUN_MODEL_INPUT_H

#include <stddef.h>

#include "run/inputs.h"

/*
 * run_inputs_take_model() - @m becomes the run's model, with its
 * host-bridge index (p2pd_model.host_index) built and owned by @in, so
 * that no pair scans the functions for its host bridge.
 * Return: 0, or -1 with @err when the index cannot be allocated.
 */
int run_inputs_take_model(struct run_inputs *in, struct p2pd_model *m,
			  char *err, size_t errlen);

/*
 * run_inputs_infer_cpu() - @m's cpu_flags from what its host bridges
 * tell (p2pd_cpu_guess()), for another machine's topology whose CPU
 * nobody named; what was inferred is kept in in->cpu_inferred for the
 * judge to say.
 */
void run_inputs_infer_cpu(struct run_inputs *in, struct p2pd_model *m);

/* run_inputs_release() - free what run_inputs_take_model() allocated. */
void run_inputs_release(struct run_inputs *in);

#endif /* P2PDIAG_RUN_MODEL_INPUT_H */
