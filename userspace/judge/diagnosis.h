/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's diagnosis: the root cause of its first cause of severity
 * error or warning; "healthy" only where a rule saw health (P2P measured
 * near what is expected, peer access granted, no faults) and nothing is
 * wrong; "undecided" otherwise, with at most DIAG_SUSPECTS suspects
 * ranked best first, each with the facts for and against it and the one
 * command that would settle it.
 */
#ifndef P2PDIAG_DIAGNOSIS_H
#define P2PDIAG_DIAGNOSIS_H

#include <stdbool.h>

#include "findings/root_cause.h"

struct check_run;

#define DIAG_SUSPECTS	3
#define DIAG_FACTS	6
#define DIAG_FACT_LEN	320

/*
 * The commands that decide why ROCm's GPUs are no peers: where they sit
 * (different CPU sockets, the link between them) and whether a large BAR
 * exposes each GPU's memory; both the refusal's fix and its suspects
 * name them.
 */
#define CMD_ROCM_TOPO_RUN "rocm-smi --showtopo"
#define CMD_ROCM_TOPO CMD_ROCM_TOPO_RUN " (the GPUs' NUMA nodes, and link type and weight between them)"
#define CMD_ROCM_BAR_RUN "sudo lspci -vvv -d 1002: | grep -e '^[0-9a-f]' -e 'Region 0'"
#define CMD_ROCM_BAR CMD_ROCM_BAR_RUN " (a large BAR: its size is the GPU's memory)"

enum likelihood { LIKELY, POSSIBLE, UNLIKELY };

struct suspect {
	enum root_cause root_cause;
	enum likelihood likelihood;
	char fact_for[DIAG_FACTS][DIAG_FACT_LEN];	/* "fact (file:line)" */
	unsigned int nr_for;
	char fact_against[DIAG_FACTS][DIAG_FACT_LEN];
	unsigned int nr_against;
	char confirm[DIAG_FACT_LEN];	/* the one command that decides */
};

struct diagnosis {
	enum root_cause root_cause;
	/* a rule saw health: P2P measured as expected, peer access, no faults */
	bool health_shown;
	struct suspect suspect[DIAG_SUSPECTS];
	unsigned int nr_suspects;
};

/* "likely", "possible", "unlikely". */
const char *likelihood_name(enum likelihood l);

/*
 * diagnose() - @r's root cause from its causes (after causes_build()),
 * and, while it is undecided, no suspect kept beside a decided one.
 */
void diagnose(struct check_run *r);

/*
 * diagnosis_suspect() - a new suspect @rc of @likelihood in @d, with
 * @confirm, or the one already there for @rc; NULL when DIAG_SUSPECTS
 * are there.  Facts go in with suspect_for() and suspect_against().
 */
struct suspect *diagnosis_suspect(struct diagnosis *d, enum root_cause rc,
				  enum likelihood likelihood, const char *confirm);
void suspect_for(struct suspect *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void suspect_against(struct suspect *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* P2PDIAG_DIAGNOSIS_H */
