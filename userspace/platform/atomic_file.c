// SPDX-License-Identifier: GPL-2.0
/*
 * The one way output files are replaced: see atomic_file.h.
 *
 * The tool runs as root into directories others may write (node_exporter's
 * textfile directory, a shared report folder), so every name in that
 * directory is another user's to plant: the temporary file is opened
 * relative to the directory's descriptor with a random name and
 * O_CREAT|O_EXCL|O_NOFOLLOW (a link or file planted at the name makes it
 * pick another), and the final rename replaces whatever NAME then is, a
 * link included, without following it.
 *
 * Signals are held back from creating the temporary file to the rename,
 * so a SIGINT or SIGTERM (platform/interrupt.c) ends the tool before or
 * after a replacement, never in the middle of one with a temporary file
 * left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "platform/atomic_file.h"
#include "platform/system_file.h"

/* links followed from the name given to the file replaced */
#define OWNED_LINKS_MAX	8
/* random names tried before giving up (each a planted file) */
#define TEMP_TRIES	64
#define TEMP_RANDOM	8

/* The directory and the name in it of one output, and what is there now. */
struct target {
	char path[PATH_MAX];	/* as followed through the caller's own links */
	char dir[PATH_MAX];
	const char *base;	/* in path */
	int dirfd;
	bool exists;		/* a regular file is there: keep its owner and mode */
	struct stat st;
};

/* Splits t->path into its directory and last name. */
static int split(struct target *t, const char *given, char *err, size_t errlen)
{
	char *slash = strrchr(t->path, '/');

	if (slash) {
		size_t n = (size_t)(slash - t->path);

		memcpy(t->dir, t->path, n);
		t->dir[n ? n : 1] = '\0';
		if (!n)
			t->dir[0] = '/';
		t->base = slash + 1;
	} else {
		strcpy(t->dir, ".");
		t->base = t->path;
	}
	if (!*t->base || !strcmp(t->base, ".") || !strcmp(t->base, "..")) {
		snprintf(err, errlen, "cannot write %s: it names a directory, not a file",
			 given);
		return -1;
	}
	if (strlen(t->base) + TEMP_RANDOM + 2 > NAME_MAX) {
		snprintf(err, errlen, "cannot write %s: its name is too long", given);
		return -1;
	}
	return 0;
}

/*
 * @link (in t->dir) as the path it points to, relative links taken from
 * t->dir; into t->path.
 */
static int follow(struct target *t, const char *given, char *err, size_t errlen)
{
	char to[PATH_MAX];
	ssize_t n = readlinkat(t->dirfd, t->base, to, sizeof(to) - 1);

	if (n < 0) {
		snprintf(err, errlen, "cannot write %s: cannot read the link: %s",
			 given, strerror(errno));
		return -1;
	}
	to[n] = '\0';
	if ((to[0] == '/' ? snprintf(t->path, sizeof(t->path), "%s", to) :
	     snprintf(t->path, sizeof(t->path), "%s/%s", t->dir, to)) >=
	    (int)sizeof(t->path)) {
		snprintf(err, errlen, "cannot write %s: the path it links to is too long",
			 given);
		return -1;
	}
	return 0;
}

/*
 * Finds the file to replace: @given, or where the caller's own links at
 * it lead.  Return: 0 with t->dirfd open, or -1 with @err set.
 */
static int find_target(struct target *t, const char *given, char *err,
		       size_t errlen)
{
	unsigned int links = 0;

	if (snprintf(t->path, sizeof(t->path), "%s", given) >= (int)sizeof(t->path)) {
		snprintf(err, errlen, "cannot write %.200s...: the name is too long",
			 given);
		return -1;
	}
	for (;;) {
		if (split(t, given, err, errlen))
			return -1;
		t->dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t->dirfd < 0) {
			snprintf(err, errlen, "cannot write %s: its directory %s: %s",
				 given, t->dir, strerror(errno));
			return -1;
		}
		if (fstatat(t->dirfd, t->base, &t->st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == ENOENT) {
				t->exists = false;
				return 0;
			}
			snprintf(err, errlen, "cannot write %s: %s", given,
				 strerror(errno));
			break;
		}
		if (S_ISREG(t->st.st_mode)) {
			t->exists = true;
			return 0;
		}
		if (!S_ISLNK(t->st.st_mode)) {
			snprintf(err, errlen, "cannot write %s: %s is %s", given,
				 t->path, system_file_strerror(0, t->st.st_mode));
			break;
		}
		/* another user's link may point anywhere: never take it */
		if (t->st.st_uid != geteuid()) {
			snprintf(err, errlen,
				 "cannot write %s: %s is a symbolic link owned by uid %u, not by the user writing it (uid %u): not followed; remove it or name the file it should be",
				 given, t->path, (unsigned int)t->st.st_uid,
				 (unsigned int)geteuid());
			break;
		}
		if (++links > OWNED_LINKS_MAX) {
			snprintf(err, errlen, "cannot write %s: %s", given,
				 strerror(ELOOP));
			break;
		}
		if (follow(t, given, err, errlen))
			break;
		close(t->dirfd);
	}
	close(t->dirfd);
	t->dirfd = -1;
	return -1;
}

/* A name no one can have guessed: 8 characters from the kernel's random pool. */
static void random_name(char *out, size_t len, const char *base)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[TEMP_RANDOM];
	char suffix[TEMP_RANDOM + 1];
	size_t i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* no pool yet (early boot): O_EXCL still refuses a guess */
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)((unsigned long)ts.tv_nsec >> (i * 3) ^
					       (unsigned long)getpid() >> i);
	}
	for (i = 0; i < TEMP_RANDOM; i++)
		suffix[i] = chars[r[i] % (sizeof(chars) - 1)];
	suffix[TEMP_RANDOM] = '\0';
	snprintf(out, len, ".%s.%s", base, suffix);
}

/*
 * A new file in t->dir that nobody else has opened, with the owner and
 * mode the output will have.  Return: its descriptor, or -1 with errno.
 */
static int create_temporary(const struct target *t, char *name, size_t len)
{
	unsigned int tries;
	int fd = -1;

	for (tries = 0; tries < TEMP_TRIES; tries++) {
		random_name(name, len, t->base);
		fd = openat(t->dirfd, name, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return -1;
	/*
	 * The owner first (chown() clears set-id bits), where the caller
	 * may give it: root keeps any, a user its own group.
	 */
	if (t->exists && (t->st.st_uid != geteuid() || t->st.st_gid != getegid()) &&
	    fchown(fd, t->st.st_uid, t->st.st_gid) &&
	    fchown(fd, (uid_t)-1, t->st.st_gid))
		errno = 0;	/* not ours to give: the caller's, as a new file's */
	/* the permission bits only: never a set-id file from an output */
	if (fchmod(fd, t->exists ? (t->st.st_mode & 0777) : ATOMIC_FILE_MODE)) {
		int saved = errno;

		close(fd);
		unlinkat(t->dirfd, name, 0);
		errno = saved;
		return -1;
	}
	return fd;
}

static int replace(const char *path, atomic_file_writer write,
		   const void *ctx, char *err, size_t errlen)
{
	struct target t = { .dirfd = -1 };
	char tmp[NAME_MAX + 1];
	int fd, saved, rc = -1;
	FILE *f;

	if (find_target(&t, path, err, errlen))
		return -1;
	fd = create_temporary(&t, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: cannot create a file in %s: %s",
			 path, t.dir, strerror(errno));
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		saved = errno;
		close(fd);
		goto failed;
	}
	errno = 0;
	if (write(f, ctx) || fflush(f) || ferror(f) || fsync(fileno(f))) {
		saved = errno ? errno : EIO;
		fclose(f);
		goto failed;
	}
	if (fclose(f)) {
		saved = errno;
		goto failed;
	}
	if (renameat(t.dirfd, tmp, t.dirfd, t.base)) {
		saved = errno;
		unlinkat(t.dirfd, tmp, 0);
		snprintf(err, errlen, "cannot put %s in place: %s", path,
			 strerror(saved));
		goto out;
	}
	/* the rename itself on disk; a file system without it has no need */
	if (fsync(t.dirfd) && errno != EINVAL) {
		snprintf(err, errlen, "cannot put %s in place: %s", path,
			 strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
failed:
	unlinkat(t.dirfd, tmp, 0);
	snprintf(err, errlen, "cannot write %s: %s", path, strerror(saved));
out:
	close(t.dirfd);
	return rc;
}

int atomic_file_write(const char *path, atomic_file_writer write,
		      const void *ctx, char *err, size_t errlen)
{
	/* every signal but the faults, which must still report where */
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
				      SIGABRT, SIGSYS };
	sigset_t hold, before;
	size_t i;
	int rc;

	sigfillset(&hold);
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigdelset(&hold, faults[i]);
	sigprocmask(SIG_BLOCK, &hold, &before);
	rc = replace(path, write, ctx, err, errlen);
	sigprocmask(SIG_SETMASK, &before, NULL);
	return rc;
}
