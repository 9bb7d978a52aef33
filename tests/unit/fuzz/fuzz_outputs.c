// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the output files (platform/atomic_file.c): the
 * input plants entries in the output's directory, as another user could,
 * and names the output, one line each:
 *
 *   d NAME          a directory
 *   f NAME          a regular file holding "planted"
 *   p NAME          a FIFO
 *   l NAME TARGET   a symbolic link to TARGET (the secret outside, another
 *                   name here, a loop, anything)
 *   w NAME          write the output NAME
 *
 * NAME is one component; links are planted as another user's (run as
 * root; without root none is).  Whatever was planted, the secret beside the
 * directory keeps its content, no temporary file is left, and a write
 * either succeeded (NAME, or the file the caller's own links lead to, is
 * a regular file with the new content) or failed with a message naming
 * NAME and changed nothing; anything else aborts.
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
#include "platform/atomic_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char top[PATH_MAX], dir[PATH_MAX], secret[PATH_MAX];
static const char content[] = "new output\n";

static int write_content(FILE *f, const void *ctx)
{
	(void)ctx;
	return fputs(content, f) < 0 ? -1 : 0;
}

/* Everything planted in the directory, removed. */
static void clear(void)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    unlinkat(dirfd(d), de->d_name, 0))
			unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
	closedir(d);
}

/* A file's first bytes, never through a link; NULL when it cannot be read. */
static char *slurp(const char *path)
{
	static char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_plant_scratch("outputs", top, sizeof(top));
	snprintf(dir, sizeof(dir), "%s/out", top);
	snprintf(secret, sizeof(secret), "%s/secret", top);
	if (mkdir(dir, 0755))
		abort();
	fuzz_plant_file(secret, "secret\n");
	return 0;
}

/* The directory's entries, one string, names ended by '/'. */
static char *entries(void)
{
	size_t len = 1, cap = 256;
	char *list = malloc(cap);
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d || !list)
		abort();
	list[0] = '/';
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (len + n + 2 > cap) {
			cap = (len + n + 2) * 2;
			list = realloc(list, cap);
			if (!list)
				abort();
		}
		memcpy(list + len, de->d_name, n);
		list[len + n] = '/';
		len += n + 1;
	}
	list[len] = '\0';
	closedir(d);
	return list;
}

/* No entry that the write added, but NAME, is a temporary file of it. */
static void no_temporary(const char *name, const char *before)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char key[NAME_MAX + 3];
	size_t n = strlen(name);

	if (!d)
		abort();
	while ((de = readdir(d))) {
		snprintf(key, sizeof(key), "/%s/", de->d_name);
		if (strstr(before, key) || strcmp(de->d_name, name) == 0)
			continue;
		if (de->d_name[0] == '.' && !strncmp(de->d_name + 1, name, n) &&
		    de->d_name[n + 1] == '.' && strlen(de->d_name + n + 2) == 8) {
			fprintf(stderr, "left behind: %s\n", de->d_name);
			abort();
		}
	}
	closedir(d);
}

static void write_output(const char *name)
{
	char path[PATH_MAX], err[1024] = "", *text, *list;
	struct stat before, after;
	int had, rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	had = !lstat(path, &before);
	list = entries();
	rc = atomic_file_write(path, write_content, NULL, err, sizeof(err));
	text = slurp(secret);
	if (!text || strcmp(text, "secret\n")) {
		fprintf(stderr, "the secret changed writing %s\n", name);
		abort();
	}
	no_temporary(name, list);
	free(list);
	if (rc) {
		if (!strstr(err, path)) {
			fprintf(stderr, "'%s' does not name %s\n", err, path);
			abort();
		}
		if (had && (lstat(path, &after) || after.st_ino != before.st_ino)) {
			fprintf(stderr, "%s was replaced by a failed write\n", name);
			abort();
		}
		return;
	}
	/* written: at NAME, or where the caller's own link at NAME leads */
	if (!stat(path, &after) && S_ISREG(after.st_mode)) {
		text = realpath(path, NULL);
		if (text) {
			char *got = slurp(text);

			if (!got || strcmp(got, content)) {
				fprintf(stderr, "%s holds '%s'\n", name, got ? got : "?");
				abort();
			}
			free(text);
		}
	}
}

static void each_line(char op, char *name, char *target, void *arg)
{
	char path[PATH_MAX];
	int fd;

	(void)arg;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, "..") || strlen(name) > 64)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	switch (op) {
	case 'd':
		mkdir(path, 0755);
		break;
	case 'f':
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0) {
			if (write(fd, "planted", 7) != 7)
				abort();
			close(fd);
		}
		break;
	case 'p':
		mkfifo(path, 0666);
		break;
	case 'l':
		/*
		 * "S" stands for the secret outside.  The link is another
		 * user's, as in a shared directory; without root it could
		 * only be the caller's own, which is followed by design, so
		 * none is planted then.  An empty or overlong target, or a
		 * name taken, plants nothing.
		 */
		if (!target || geteuid() ||
		    symlink(strcmp(target, "S") ? target : secret, path))
			break;
		if (lchown(path, 65534, 65534))
			abort();
		break;
	case 'w':
		write_output(name);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	clear();
	fuzz_plant_lines(data, size, each_line, NULL);
	return 0;
}
