// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for baseline_check(): the input is the baseline file,
 * checked against one fixed run (fuzz_server.h: a fixture server with
 * its system files read and two GPUs measured), so that every comparison
 * (devices, pairs, bandwidth, GPUs, the system context) meets the input.  Any input is either refused with a reason or
 * adds findings that each have a code and a message.  A crash, a
 * sanitizer report or a finding without words aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "fuzz_server.h"
#include "report/baseline.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fixture_run server;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (fuzz_server_load(&server, FUZZ_TOOL_FIXTURES))
		abort();
	findings_free(&server.r.judged.findings);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct findings *fs = &server.r.judged.findings;
	char err[1024];
	size_t i;

	err[0] = '\0';
	if (baseline_check(fuzz_file(data, size), &server.r, 0.10, err,
			   sizeof(err))) {
		if (!err[0] || fs->nr) {
			fprintf(stderr, "refused without a reason, or with findings\n");
			abort();
		}
		return 0;
	}
	for (i = 0; i < fs->nr; i++)
		if (!fs->item[i].code[0] || !fs->item[i].message ||
		    !fs->item[i].message[0]) {
			fprintf(stderr, "a finding without a code or a message\n");
			abort();
		}
	findings_free(fs);
	return 0;
}
