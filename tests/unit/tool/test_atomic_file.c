// SPDX-License-Identifier: GPL-2.0
/*
 * report/atomic_file.c: a signal that comes while an output file is
 * being replaced is held until the replacement is whole, so a SIGINT or
 * SIGTERM handler (system/interrupt.c) that ends the tool never leaves
 * half a Prometheus file or baseline, or a NAME.tmp beside it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool_util.h"
#include "report/atomic_file.h"

void test_atomic_file(struct ktap *k);

static volatile sig_atomic_t delivered;
static sig_atomic_t delivered_while_writing;

static void on_usr1(int sig)
{
	(void)sig;
	delivered = 1;
}

/* Writes two lines with a signal sent to itself between them. */
static int write_with_signal(FILE *f, const void *ctx)
{
	(void)ctx;
	if (fputs("first line\n", f) < 0)
		return -1;
	raise(SIGUSR1);
	delivered_while_writing = delivered;
	return fputs("second line\n", f) < 0 ? -1 : 0;
}

void test_atomic_file(struct ktap *k)
{
	struct sigaction sa, before;
	char *dir = make_tmpdir(), path[512], tmp[520], err[256] = "";
	char *text;
	size_t len = 0;
	struct stat sb;
	int rc;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &before);
	snprintf(path, sizeof(path), "%s/p2pdiag.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	write_file(path, "old\n", 4);

	rc = atomic_file_write(path, write_with_signal, NULL, err, sizeof(err));
	text = read_whole(path, &len);
	CHECK(k, rc == 0 && !delivered_while_writing && delivered,
	      "atomic_file: a signal during the write is held until the file is in place");
	if (rc)
		printf("# %s\n", err);
	CHECK(k, text && !strcmp(text, "first line\nsecond line\n") &&
		 stat(tmp, &sb) != 0,
	      "atomic_file: after it, the whole new content and no .tmp");
	free(text);

	sigaction(SIGUSR1, &before, NULL);
	remove_tree(dir);
	free(dir);
}
