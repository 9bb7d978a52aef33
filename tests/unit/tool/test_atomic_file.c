// SPDX-License-Identifier: GPL-2.0
/*
 * platform/atomic_file.c: a signal that comes while an output file is
 * being replaced is held until the replacement is whole, so a SIGINT or
 * SIGTERM handler (platform/interrupt.c) that ends the tool never leaves
 * half a Prometheus file or baseline, or a temporary file beside it; and
 * that temporary file's name.
 */
#include <dirent.h>
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
struct temporary_seen {
	const char *dir;
	char name[256];		/* the first other entry */
	int others;
};

static int write_and_look(FILE *f, const void *ctx)
{
	struct temporary_seen *seen = (struct temporary_seen *)ctx;
	struct dirent *de;
	DIR *d = opendir(seen->dir);

	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "features"))
			continue;
		if (!seen->others++)
			snprintf(seen->name, sizeof(seen->name), "%s", de->d_name);
	}
	if (d)
		closedir(d);
	return fputs("new\n", f) < 0 ? -1 : 0;
}

/*
 * The temporary file is a dot file (NFD and node_exporter take no dot
 * file) of a name nobody could plant in advance: .NAME. and 8 random
 * characters, never .NAME.tmp or NAME.tmp.
 */
static void test_temporary(struct ktap *k, const char *dir)
{
	char sub[512], path[800], err[256] = "", *text;
	struct temporary_seen seen = { sub, "", 0 };
	size_t len = 0;
	int rc;

	snprintf(sub, sizeof(sub), "%s/features.d", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/features", sub);
	write_file(path, "old\n", 4);
	rc = atomic_file_write(path, write_and_look, &seen, err, sizeof(err));
	text = read_whole(path, &len);
	CHECK(k, rc == 0 && seen.others == 1 &&
		 !strncmp(seen.name, ".features.", 10) && strlen(seen.name) == 18 &&
		 strcmp(seen.name, ".features.tmp"),
	      "atomic_file: written as DIR/.NAME.XXXXXXXX, a random dot name");
	if (seen.others != 1)
		printf("# %d other entries, first '%s'\n", seen.others, seen.name);
	snprintf(path, sizeof(path), "%s/%s", sub, seen.name);
	CHECK(k, text && !strcmp(text, "new\n") && access(path, F_OK) != 0,
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
	test_temporary(k, dir);
	remove_tree(dir);
	free(dir);
}
