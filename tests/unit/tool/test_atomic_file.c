// SPDX-License-Identifier: GPL-2.0
/*
 * platform/atomic_file.c: a signal that comes while an output file is
 * being replaced is held until the replacement is whole, so a SIGINT or
 * SIGTERM handler (platform/interrupt.c) that ends the tool never leaves
 * half a Prometheus file or baseline, or a NAME.tmp beside it.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool_util.h"
#include "platform/atomic_file.h"

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

/* What a directory reader saw while the file was being written. */
struct hidden_seen {
	const char *dir;
	bool dot_tmp, plain_tmp;
};

static int write_and_look(FILE *f, const void *ctx)
{
	struct hidden_seen *seen = (struct hidden_seen *)ctx;
	char p[512];
	struct stat sb;

	snprintf(p, sizeof(p), "%s/.features.tmp", seen->dir);
	seen->dot_tmp = stat(p, &sb) == 0;
	snprintf(p, sizeof(p), "%s/features.tmp", seen->dir);
	seen->plain_tmp = stat(p, &sb) == 0;
	return fputs("new\n", f) < 0 ? -1 : 0;
}

/* atomic_file_write_hidden(): the temporary file is a dot file beside it. */
static void test_hidden(struct ktap *k, const char *dir)
{
	struct hidden_seen seen = { dir, false, false };
	char path[512], err[256] = "", *text;
	size_t len = 0;
	struct stat sb;
	int rc;

	snprintf(path, sizeof(path), "%s/features", dir);
	write_file(path, "old\n", 4);
	rc = atomic_file_write_hidden(path, write_and_look, &seen, err, sizeof(err));
	text = read_whole(path, &len);
	CHECK(k, rc == 0 && seen.dot_tmp && !seen.plain_tmp,
	      "atomic_file: the hidden variant writes DIR/.NAME.tmp, no NAME.tmp");
	snprintf(path, sizeof(path), "%s/.features.tmp", dir);
	CHECK(k, text && !strcmp(text, "new\n") && stat(path, &sb) != 0,
	      "atomic_file: ... then the whole new content and no dot file left");
	free(text);
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
	test_hidden(k, dir);
	remove_tree(dir);
	free(dir);
}
