/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run the baseline harness checks its inputs against, and the seed
 * generator saves as the first baseline: the fleet-after fixture server
 * (tests/unit/tool/fixtures/system) judged, its system files read, with
 * two of its GPUs measured and judged.
 */
#ifndef P2PD_FUZZ_SERVER_H
#define P2PD_FUZZ_SERVER_H

#include "system_fixture.h"

/* Load it from @fixtures (the tool's fixtures directory); 0, or -1. */
int fuzz_server_load(struct fixture_run *f, const char *fixtures);

#endif /* P2PD_FUZZ_SERVER_H */
