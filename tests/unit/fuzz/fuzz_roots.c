// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the roots (platform/confined_path.c): the input
 * plants a tree under a root and names paths to read in it, one line
 * each:
 *
 *   d NAME          a directory DIR/NAME
 *   f NAME          a regular file
 *   l NAME TARGET   a symbolic link to TARGET (anything: absolute, "..",
 *                   a loop, this machine's files)
 *   q PATH          read PATH under the root, as --root does
 *
 * where DIR is one of the root's fixed directories a, a/b, a/b/c (named by
 * NAME's first character, '0' to '2') and NAME one component.  Beside the
 * root lies a directory "outside" with a file, as this machine's files
 * would.  Whatever the tree, a path that opens is a file beneath the root
 * (by the descriptor's own path), a resolved path has no link, "." or
 * ".." left in it and lies beneath the root, and the kernel's openat2(2)
 * and the walk agree on whether it opens; anything else aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_plant.h"
#include "platform/confined_path.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char top[PATH_MAX], root[PATH_MAX];
static const char *const dirs[] = { "a", "a/b", "a/b/c" };

/* Everything planted in the fixed directories, removed. */
static void clear(void)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct dirent *de;
		DIR *d;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		d = opendir(path);
		if (!d)
			abort();
		fd = dirfd(d);
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
			    (i + 1 < sizeof(dirs) / sizeof(dirs[0]) &&
			     !strcmp(de->d_name, strrchr(dirs[i + 1], '/') + 1)))
				continue;
			if (unlinkat(fd, de->d_name, 0))
				unlinkat(fd, de->d_name, AT_REMOVEDIR);
		}
		closedir(d);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[PATH_MAX];
	unsigned int i;

	(void)argc;
	(void)argv;
	fuzz_plant_scratch("roots", top, sizeof(top));
	snprintf(root, sizeof(root), "%s/root", top);
	snprintf(path, sizeof(path), "%s/outside", top);
	if (mkdir(root, 0700) || mkdir(path, 0700))
		abort();
	snprintf(path, sizeof(path), "%s/outside/secret", top);
	fuzz_plant_file(path, "outside\n");
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0700))
			abort();
	}
	return 0;
}

/* Whether @path is @root itself or beneath it. */
static int beneath(const char *path)
{
	size_t n = strlen(root);

	return !strncmp(path, root, n) && (!path[n] || path[n] == '/');
}

static void plant(char op, const char *name, const char *target)
{
	char path[PATH_MAX];
	int fd;

	if (name[0] < '0' || name[0] > '2' || !name[1] || strchr(name, '/') ||
	    !strcmp(name + 1, ".") || !strcmp(name + 1, ".."))
		return;
	snprintf(path, sizeof(path), "%s/%s/%s", root, dirs[name[0] - '0'], name + 1);
	if (op == 'd') {
		mkdir(path, 0700);
	} else if (op == 'f') {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	} else if (op == 'l' && target) {
		/* an empty or overlong target, a name taken: nothing planted */
		if (symlink(target, path))
			return;
	}
}

/*
 * Whether @fd (from opening @path @how) is open; aborts when what it
 * opened is not beneath the root.
 */
static int opened_beneath(int fd, const char *path, const char *how)
{
	char fdpath[64], where[PATH_MAX];
	ssize_t n;

	if (fd < 0)
		return 0;
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	n = readlink(fdpath, where, sizeof(where) - 1);
	if (n < 0)
		abort();
	where[n] = '\0';
	if (!beneath(where)) {
		fprintf(stderr, "%s: %s opened %s, outside %s\n", path, how, where, root);
		abort();
	}
	close(fd);
	return 1;
}

/* One path read under the root both ways, checked. */
static void query(const char *path)
{
	char real[PATH_MAX], where[PATH_MAX], whole[PATH_MAX * 2];
	/* the kernel's way, unless it has none (then both are the walk) */
	int opened = opened_beneath(confined_open(root, path, O_RDONLY | O_NONBLOCK |
							   O_NOCTTY), path, "openat2");
	int opened_walk = opened_beneath(confined_open_walk(root, path, O_RDONLY |
								   O_NONBLOCK | O_NOCTTY),
					 path, "the walk");

	if (opened != opened_walk) {
		fprintf(stderr, "%s: openat2 %s, the walk %s\n", path,
			opened ? "opened it" : "did not", opened_walk ? "did" : "did not");
		abort();
	}
	if (!confined_realpath(root, path, real, sizeof(real))) {
		snprintf(whole, sizeof(whole), "%s%s", root, strcmp(real, "/") ? real : "");
		if (real[0] != '/' || strstr(real, "/./") || strstr(real, "/../") ||
		    !realpath(whole, where) || strcmp(where, whole)) {
			fprintf(stderr, "%s resolved to %s\n", path, real);
			abort();
		}
	}
}

static void each_line(char op, char *name, char *target, void *arg)
{
	(void)arg;
	if (op == 'q')
		query(name);
	else
		plant(op, name, target);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	clear();
	fuzz_plant_lines(data, size, each_line, NULL);
	return 0;
}
