/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the engine and parser tests. */
#ifndef P2PD_TEST_MODEL_UTIL_H
#define P2PD_TEST_MODEL_UTIL_H

#include <stddef.h>

#include "p2pdiag/model.h"
#include "p2pdiag/verdict.h"

/* Whole file into a malloc'd, NUL-terminated buffer; NULL on error. */
char *read_file(const char *path, size_t *len);

/*
 * Compare the values the topology ABI carries; 0 when equal, else -1 with
 * the first difference described in @why.
 */
int model_equal(const struct p2pd_model *x, const struct p2pd_model *y,
		char *why, size_t whylen);

/* p2pd_format_topology() into a malloc'd string. */
char *format_topology(const struct p2pd_model *m);

/* p2pd_format_pair() of one judged pair into @out (no newline). */
void format_pair_line(const struct p2pd_model *m, const struct p2pd_pair *p,
		      char *out, size_t outlen);

/* "dddd:bb:dd.f" */
void addr_str(unsigned long long addr, char out[P2PD_ADDR_STRLEN]);

/* A small deterministic PRNG, so a failing seed can be replayed. */
unsigned int rnd(unsigned long long *state, unsigned int below);

/*
 * A random but well-formed tree: host bridges, root ports, cascaded
 * switches, multi-function endpoints, random ACS/ATS/link/IOMMU values,
 * addresses sorted.  With @cut, one bridge is dropped so that some chains
 * are broken.  Free with free(m->fn).
 */
void random_model(unsigned long long *state, struct p2pd_model *m, int cut);

#endif /* P2PD_TEST_MODEL_UTIL_H */
