/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fixture tree of fixtures/system/ loaded as p2pdiag-check would read
 * it: the tree's p2pdiag.topo (else the shared server.topo) judged, the
 * root of system reads set to the tree, the system checks run.
 */
#ifndef P2PD_SYSTEM_FIXTURE_H
#define P2PD_SYSTEM_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/judgement.h"
#include "options.h"
#include "platform/fsroot.h"
#include "system/system.h"

struct fixture_run {
	struct fsroot root;		/* the tree, the run's root */
	struct p2pd_model m;
	struct options o;
	struct check_run r;
	struct system_report s;
	bool ok;
};

/* Load @tree; f->ok says whether it worked (a reason on stderr if not). */
void fixture_load(struct fixture_run *f, const char *fixtures, const char *tree);
/* Free it. */
void fixture_unload(struct fixture_run *f);
/* How many findings carry @code; (size_t)-1 when the load failed. */
size_t fixture_count(const struct fixture_run *f, const char *code);
/* The message of the first finding with @code, or "". */
const char *fixture_message(const struct fixture_run *f, const char *code);

#endif /* P2PD_SYSTEM_FIXTURE_H */
