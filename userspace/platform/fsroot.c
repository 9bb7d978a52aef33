// SPDX-License-Identifier: GPL-2.0
/*
 * The root directory of system reads.  The root is kept as its resolved
 * absolute path without a trailing slash ("" when live), so a
 * live-machine path appended to it names the file in messages; the file
 * itself is opened beneath the root (platform/confined_path.h), never
 * through a link out of it.
 */
/* O_PATH and fdopendir(): built also without the tool's _GNU_SOURCE */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform/confined_path.h"
#include "platform/fsroot.h"
#include "platform/system_file.h"

int fsroot_init(struct fsroot *root, const char *dir, char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct stat st;

	root->dir[0] = '\0';
	strcpy(root->given, "/");
	if (!dir || !*dir || !strcmp(dir, "/"))
		return 0;
	if (strlen(dir) >= sizeof(root->given)) {
		snprintf(err, errlen, "root directory name too long");
		return -1;
	}
	if (!realpath(dir, real) || stat(real, &st)) {
		snprintf(err, errlen, "root directory %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "root directory %s is not a directory", dir);
		return -1;
	}
	if (access(real, R_OK | X_OK)) {
		snprintf(err, errlen, "root directory %s: %s", dir, strerror(errno));
		return -1;
	}
	strcpy(root->given, dir);
	/* realpath("/x/") is "/x"; realpath of a link to "/" is "/" */
	strcpy(root->dir, strcmp(real, "/") ? real : "");
	return 0;
}

int fsroot_init_tree(struct fsroot *root, const char *dir)
{
	if (!*dir || strlen(dir) >= sizeof(root->dir)) {
		errno = *dir ? ENAMETOOLONG : EINVAL;
		return -1;
	}
	strcpy(root->dir, dir);
	strcpy(root->given, dir);
	return 0;
}

const char *fsroot_get(const struct fsroot *root)
{
	return root->given;
}

bool fsroot_is_live(const struct fsroot *root)
{
	return !root->dir[0];
}

/* Callers pass their own checked formats (fsroot.h). */
static __attribute__((format(printf, 4, 0)))
int vpath(const struct fsroot *root, char *out, size_t len, const char *fmt,
	  va_list ap)
{
	size_t used = strlen(root->dir);
	int n;

	if (used >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(out, root->dir, used);
	n = vsnprintf(out + used, len - used, fmt, ap);
	if (n < 0 || (size_t)n >= len - used) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* @path (an array) from the calling function's @root, format and arguments. */
#define ROOTED(path, fmt, rc) do {					\
		va_list ap;						\
		va_start(ap, fmt);					\
		rc = vpath(root, path, sizeof(path), fmt, ap);		\
		va_end(ap);						\
	} while (0)

int fsroot_path(const struct fsroot *root, char *out, size_t len,
		const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vpath(root, out, len, fmt, ap);
	va_end(ap);
	return rc;
}

/* The root for confined_open(): NULL when live, where nothing is confined. */
static const char *confine(const struct fsroot *root)
{
	return root->dir[0] ? root->dir : NULL;
}

/* The live-machine path of @path, a root-prefixed path from ROOTED(). */
static const char *live_path(const struct fsroot *root, const char *path)
{
	return path + strlen(root->dir);
}

/*
 * Whether a read that failed with @e on what it found (@found, as
 * system_file_open() gives it) makes the root bad input rather than the
 * fact unknown: something is there that is no regular file, or, under a
 * root, a link leads out of it, links loop, or the file is there but may
 * not be read (a copy the user cannot read is not a machine without it).
 */
static bool refused(const struct fsroot *root, int e, mode_t found)
{
	return system_file_refused(found) ||
	       (confine(root) && (e == EXDEV || e == ELOOP || e == EACCES ||
				  e == EPERM));
}

/* @why for a refused read (refused()); "" for any other failure */
static void say_refusal(const struct fsroot *root, char *why, size_t whylen,
			const char *path, mode_t found)
{
	int saved = errno;

	if (!refused(root, saved, found))
		return;
	if (saved == EXDEV && !system_file_refused(found))
		snprintf(why, whylen,
			 "cannot read %s: a symbolic link on its way leads out of %s: not followed",
			 path, root->given);
	else
		snprintf(why, whylen, "cannot read %s: %s", path,
			 system_file_strerror(saved, found));
	errno = saved;
}

/* names a plain read's refusal in @refused, unless it names an earlier one */
static void note_refusal(const struct fsroot *root,
			 struct fsroot_refusal *refused, const char *path,
			 mode_t found)
{
	if (!refused->why[0])
		say_refusal(root, refused->why, sizeof(refused->why), path,
			    found);
}

bool fsroot_refused(const struct fsroot_refusal *refused)
{
	return refused->why[0] != '\0';
}

int fsroot_read(const struct fsroot *root, struct fsroot_refusal *refused,
		char *buf, size_t cap, const char *fmt, ...)
{
	char path[PATH_MAX];
	mode_t found = 0;
	int rc;

	ROOTED(path, fmt, rc);
	if (rc)
		return -1;
	rc = system_file_read_value(confine(root), live_path(root, path), buf,
				    cap, SYSTEM_FILE_TO_END, &found);
	if (rc)
		note_refusal(root, refused, path, found);
	return rc;
}

int fsroot_read_fact(const struct fsroot *root, char *buf, size_t cap,
		     char *why, size_t whylen, const char *fmt, ...)
{
	char path[PATH_MAX];
	mode_t found = 0;
	int rc;

	why[0] = '\0';
	ROOTED(path, fmt, rc);
	if (rc)
		return -1;
	rc = system_file_read_value(confine(root), live_path(root, path), buf,
				    cap, SYSTEM_FILE_TO_END, &found);
	if (rc)
		say_refusal(root, why, whylen, path, found);
	return rc;
}

bool fsroot_exists(const struct fsroot *root, const char *fmt, ...)
{
	char path[PATH_MAX];
	int rc, fd;

	ROOTED(path, fmt, rc);
	if (rc)
		return false;
	fd = confined_open(confine(root), live_path(root, path), O_PATH);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int fsroot_link_name(const struct fsroot *root, char *out, size_t len,
		     const char *fmt, ...)
{
	char path[PATH_MAX], target[PATH_MAX], *base;
	long n;
	int rc;

	ROOTED(path, fmt, rc);
	if (rc)
		return -1;
	n = confined_readlink(confine(root), live_path(root, path), target,
			      sizeof(target));
	if (n < 0)
		return -1;
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(out, base);
	return 0;
}

int fsroot_realpath(const struct fsroot *root, char *out, size_t len,
		    const char *fmt, ...)
{
	char path[PATH_MAX];
	int rc;

	ROOTED(path, fmt, rc);
	if (rc)
		return -1;
	return confined_realpath(confine(root), live_path(root, path), out, len);
}

int fsroot_stays_inside(const struct fsroot *root, const char *fmt, ...)
{
	char path[PATH_MAX], inside[PATH_MAX], plain[PATH_MAX];
	size_t rlen = strlen(root->dir);
	bool in, out;
	int rc;

	ROOTED(path, fmt, rc);
	if (rc || !rlen)
		return rc;
	in = !confined_realpath(root->dir, live_path(root, path), inside,
				sizeof(inside));
	if (!in && errno != ENOENT)
		return -1;
	out = realpath(path, plain) != NULL;
	if (!in && !out)
		return 0;
	if (in && out && !strncmp(plain, root->dir, rlen) &&
	    !strcmp(plain + rlen, inside))
		return 0;
	errno = EXDEV;
	return -1;
}

FILE *fsroot_fopen(const struct fsroot *root, struct fsroot_refusal *refused,
		   const char *fmt, ...)
{
	char path[PATH_MAX];
	mode_t found = 0;
	FILE *f;
	int rc;

	ROOTED(path, fmt, rc);
	if (rc)
		return NULL;
	f = system_file_fopen(confine(root), live_path(root, path), &found);
	if (!f)
		note_refusal(root, refused, path, found);
	return f;
}

FILE *fsroot_fopen_fact(const struct fsroot *root, char *why, size_t whylen,
			const char *fmt, ...)
{
	char path[PATH_MAX];
	mode_t found = 0;
	FILE *f;
	int rc;

	why[0] = '\0';
	ROOTED(path, fmt, rc);
	if (rc)
		return NULL;
	f = system_file_fopen(confine(root), live_path(root, path), &found);
	if (!f)
		say_refusal(root, why, whylen, path, found);
	return f;
}

DIR *fsroot_opendir(const struct fsroot *root, const char *fmt, ...)
{
	char path[PATH_MAX];
	DIR *d;
	int rc, fd, saved;

	ROOTED(path, fmt, rc);
	if (rc)
		return NULL;
	fd = confined_open(confine(root), live_path(root, path),
			   O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d) {
		saved = errno;
		close(fd);
		errno = saved;
	}
	return d;
}
