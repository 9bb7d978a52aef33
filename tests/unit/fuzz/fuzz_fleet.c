// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the fleet comparison's reader and analysis: the
 * input is one saved report, read in place (fleet/json_scan.c) and
 * reduced to a fingerprint; when it is taken, a second server with the
 * same report and a third with an empty one join it, the group's
 * reference and outliers are worked out and printed as text and JSON.
 * Any input is either taken or refused with a reason; a crash, a
 * sanitizer report or a refusal without words aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char empty_report[] =
	"{\"tool\": \"p2pdiag-check\", \"schema\": 1, \"devices\": [], \"pairs\": [], \"gpus\": []}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fleet_state st;
	char err[1024];
	FILE *null;
	int rc;

	memset(&st, 0, sizeof(st));
	st.tolerance = 0.10;
	err[0] = '\0';
	rc = fleet_fingerprint(&st, "input", (const char *)data, size, err, sizeof(err));
	if (rc > 0 && !err[0]) {
		fprintf(stderr, "refused without a reason\n");
		abort();
	}
	if (!rc && (fleet_fingerprint(&st, "copy", (const char *)data, size, err,
				      sizeof(err)) ||
		    fleet_fingerprint(&st, "empty", empty_report, strlen(empty_report),
				      err, sizeof(err)))) {
		fprintf(stderr, "a report taken once is refused the second time: %s\n", err);
		abort();
	}
	if (!rc && !fleet_analyse(&st)) {
		null = fopen("/dev/null", "w");
		if (null) {
			fleet_print_text(null, &st, fleet_status(&st));
			fleet_print_json(null, &st, fleet_status(&st));
			fclose(null);
		}
	}
	fleet_state_free(&st);
	return 0;
}
