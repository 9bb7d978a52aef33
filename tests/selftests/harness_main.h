/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The selftests' one main(): skip when p2pdiag is not loaded, give each
 * test the harness's timeout times the lab's time scale, run the harness.
 *
 * The time scale is lab.time_scale=N (1 to 99) on the kernel command line,
 * the same word the lab's guest scales its follow limits by (lib.sh's
 * time_scale); the debug lane passes its DEBUG_TIMEOUT_SCALE there,
 * because under KASAN and lockdep every rebuild is several times slower
 * and a test such as spliced_reads_are_detected (300 reads while rescans
 * run) outlasts the harness's 30 s.  Without the word, or outside the
 * lab, the timeouts stay as the tests declare them.
 *
 * Include after kselftest_harness.h: the list of tests is that header's
 * own static, so this lives in every program's translation unit.
 */
#ifndef P2PDIAG_SELFTEST_HARNESS_MAIN_H
#define P2PDIAG_SELFTEST_HARNESS_MAIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs_paths.h"

#define ST_TIME_SCALE_WORD	"lab.time_scale="
#define ST_TIME_SCALE_MAX	99

/* N of lab.time_scale=N on the kernel command line, 1 without a valid one. */
static inline int st_time_scale(void)
{
	char line[4096], *word, *save = NULL, *end;
	FILE *f = fopen(st_cmdline_path(), "r");
	long n = 1;

	if (!f)
		return 1;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (word = strtok_r(line, " \n", &save); word;
	     word = strtok_r(NULL, " \n", &save)) {
		if (strncmp(word, ST_TIME_SCALE_WORD, strlen(ST_TIME_SCALE_WORD)))
			continue;
		word += strlen(ST_TIME_SCALE_WORD);
		n = strtol(word, &end, 10);
		if (end == word || *end || n < 1 || n > ST_TIME_SCALE_MAX)
			n = 1;
	}
	return (int)n;
}

static inline void st_scale_test_timeouts(int scale)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= scale;
}

static inline int st_harness_main(int argc, char **argv)
{
	int scale = st_time_scale();

	if (!st_module_loaded()) {
		ksft_print_header();
		ksft_exit_skip("p2pdiag not loaded (no %s)\n", st_p2pdiag_root());
	}
	if (scale > 1) {
		st_scale_test_timeouts(scale);
		printf("# harness timeouts times %d (%s%d)\n", scale,
		       ST_TIME_SCALE_WORD, scale);
	}
	return test_harness_run(argc, argv);
}

#endif
