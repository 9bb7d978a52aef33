// SPDX-License-Identifier: GPL-2.0
/*
 * Paths resolved beneath a root (confined_path.h): openat2(2) with
 * RESOLVE_BENEATH where the kernel has it, else the walk below, which
 * keeps a descriptor for every directory it went through, so that ".."
 * goes back to the one it came from and never to a directory that was
 * moved or linked in meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

#include "platform/confined_path.h"

/* as the kernel's own limit on links followed in one lookup */
#define LINKS_MAX	40
/* directories deep; sysfs' deepest PCIe paths are some 30 */
#define DEPTH_MAX	128

static bool live(const char *root)
{
	return !root || !*root;
}

/* One walk from the root: the directories it is in, and the name left. */
struct walk {
	int fd[DEPTH_MAX];		/* fd[0] the root, fd[depth] the current one */
	unsigned int depth;
	char resolved[PATH_MAX];	/* the directories' names from the root */
	size_t len[DEPTH_MAX];		/* strlen(resolved) at each depth */
	char last[NAME_MAX + 1];	/* the final name in fd[depth] ("." for itself) */
};

static void walk_end(struct walk *w)
{
	unsigned int i;

	for (i = 0; i <= w->depth; i++)
		close(w->fd[i]);
}

/* Into w->fd[depth + 1]: the directory @fd, named @name. */
static int walk_down(struct walk *w, int fd, const char *name)
{
	size_t at = w->len[w->depth], n = strlen(name);

	if (w->depth + 1 >= DEPTH_MAX || at + 1 + n >= sizeof(w->resolved)) {
		close(fd);
		errno = ENAMETOOLONG;
		return -1;
	}
	w->resolved[at] = '/';
	memcpy(w->resolved + at + 1, name, n + 1);
	w->fd[++w->depth] = fd;
	w->len[w->depth] = at + 1 + n;
	return 0;
}

/* Back to the directory the walk came from; EXDEV above the root. */
static int walk_up(struct walk *w)
{
	if (!w->depth) {
		errno = EXDEV;
		return -1;
	}
	close(w->fd[w->depth--]);
	w->resolved[w->len[w->depth]] = '\0';
	return 0;
}

/*
 * @todo (modified) with a link's @target put in front of what was left
 * after the link, @rest (which starts with the slashes that followed it,
 * so that a trailing one still asks for a directory).
 */
static int put_in_front(char *todo, size_t cap, const char *target,
			const char *rest)
{
	size_t t = strlen(target), r = strlen(rest);
	char *tmp;

	if (t + r >= cap) {
		errno = ENAMETOOLONG;
		return -1;
	}
	tmp = malloc(r + 1);
	if (!tmp)
		return -1;
	memcpy(tmp, rest, r + 1);
	memcpy(todo, target, t);
	memcpy(todo + t, tmp, r + 1);
	free(tmp);
	return 0;
}

/*
 * Resolves @path beneath @root, every link on the way followed inside it,
 * the last one too when @follow_last.  Return: 0 with @w holding the
 * directory of the final name (w->last), or -1 with errno set.
 */
static int walk(const char *root, const char *path, bool follow_last,
		struct walk *w)
{
	char todo[PATH_MAX * 2], target[PATH_MAX];
	unsigned int links = 0;
	char *p = todo;

	memset(w->len, 0, sizeof(w->len));
	w->depth = 0;
	w->resolved[0] = '\0';
	strcpy(w->last, ".");
	if (strlen(path) >= sizeof(todo)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(todo, path);
	w->fd[0] = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->fd[0] < 0)
		return -1;
	for (;;) {
		size_t n;
		char *rest, *after;
		bool is_last;
		struct stat st;
		ssize_t tl;
		int fd;

		p += strspn(p, "/");
		if (!*p)
			return 0;		/* the directory itself: w->last "." */
		n = strcspn(p, "/");
		after = p + n;		/* the slashes after the name, if any */
		rest = after + strspn(after, "/");
		is_last = !*rest;
		if (n > NAME_MAX) {
			errno = ENAMETOOLONG;
			goto fail;
		}
		memcpy(w->last, p, n);
		w->last[n] = '\0';
		p = rest;
		if (!strcmp(w->last, ".")) {
			strcpy(w->last, ".");
			continue;
		}
		if (!strcmp(w->last, "..")) {
			strcpy(w->last, ".");
			if (walk_up(w))
				goto fail;
			continue;
		}
		if (is_last && !follow_last)
			return 0;
		fd = openat(w->fd[w->depth], w->last,
			    O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			goto fail;
		if (fstat(fd, &st)) {
			close(fd);
			goto fail;
		}
		if (S_ISLNK(st.st_mode)) {
			tl = readlinkat(fd, "", target, sizeof(target) - 1);
			close(fd);
			if (tl < 0)
				goto fail;
			target[tl] = '\0';
			if (++links > LINKS_MAX) {
				errno = ELOOP;
				goto fail;
			}
			/* an absolute link means this machine's root: outside */
			if (target[0] == '/') {
				errno = EXDEV;
				goto fail;
			}
			if (put_in_front(todo, sizeof(todo), target, after))
				goto fail;
			p = todo;
			continue;
		}
		if (is_last) {
			close(fd);
			/* "file/" is no file, as open(2) says */
			if (*after && !S_ISDIR(st.st_mode)) {
				errno = ENOTDIR;
				goto fail;
			}
			return 0;
		}
		if (!S_ISDIR(st.st_mode)) {
			close(fd);
			errno = ENOTDIR;
			goto fail;
		}
		if (walk_down(w, fd, w->last))
			goto fail;
		strcpy(w->last, ".");
	}
fail:
	{
		int saved = errno;

		walk_end(w);
		errno = saved;
	}
	return -1;
}

/* @flags' open of the final name the walk found; ELOOP if it became a link */
int confined_open_walk(const char *root, const char *path, int flags)
{
	struct walk w;
	int fd, saved;

	if (walk(root, path, true, &w))
		return -1;
	fd = openat(w.fd[w.depth], w.last, flags | O_NOFOLLOW | O_CLOEXEC);
	saved = errno;
	walk_end(&w);
	errno = saved;
	return fd;
}

/* Whether the walk is forced (tests), or the kernel refused openat2(2). */
static bool use_walk(void)
{
	static int forced = -1;

	if (forced < 0) {
		const char *v = getenv(CONFINE_WALK_ENV);

		forced = v && !strcmp(v, "1");
	}
	return forced;
}

#ifdef SYS_openat2
static bool kernel_refused;

/* 1 when the kernel cannot do it (then the walk does), else as open(2) */
static int kernel_open(const char *root, const char *path, int flags, int *fd)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	const char *rel = path + strspn(path, "/");
	int dir, saved;

	if (kernel_refused)
		return 1;
	dir = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		*fd = -1;
		return 0;
	}
	*fd = (int)syscall(SYS_openat2, dir, *rel ? rel : ".", &how, sizeof(how));
	saved = errno;
	close(dir);
	if (*fd < 0 && saved == ENOSYS) {
		kernel_refused = true;	/* before 5.6 */
		return 1;
	}
	/* a seccomp filter older than the call, or the file's own answer */
	if (*fd < 0 && saved == EPERM)
		return 1;
	/*
	 * A rename or mount anywhere on the system while a ".." was looked
	 * up: the kernel cannot prove that it stayed beneath, and says EAGAIN
	 * (openat2(2)).  On a busy machine that is common; the walk answers.
	 */
	if (*fd < 0 && saved == EAGAIN)
		return 1;
	errno = saved;
	return 0;
}
#else
static int kernel_open(const char *root, const char *path, int flags, int *fd)
{
	(void)root;
	(void)path;
	(void)flags;
	(void)fd;
	return 1;
}
#endif

int confined_open(const char *root, const char *path, int flags)
{
	int fd;

	if (live(root))
		return open(path, flags | O_CLOEXEC);
	if (!use_walk() && !kernel_open(root, path, flags, &fd))
		return fd;
	return confined_open_walk(root, path, flags);
}

int confined_realpath(const char *root, const char *path, char *out,
		      size_t len)
{
	char real[PATH_MAX];
	struct walk w;
	size_t n;

	if (live(root)) {
		if (!realpath(path, real))
			return -1;
	} else {
		if (walk(root, path, true, &w))
			return -1;
		n = strlen(w.resolved);
		if (strcmp(w.last, ".") &&
		    snprintf(w.resolved + n, sizeof(w.resolved) - n, "/%s",
			     w.last) >= (int)(sizeof(w.resolved) - n)) {
			walk_end(&w);
			errno = ENAMETOOLONG;
			return -1;
		}
		walk_end(&w);
		snprintf(real, sizeof(real), "%s", w.resolved[0] ? w.resolved : "/");
	}
	if (strlen(real) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(out, real);
	return 0;
}

long confined_readlink(const char *root, const char *path, char *out,
		       size_t len)
{
	struct walk w;
	ssize_t n;
	int saved;

	if (!len) {
		errno = EINVAL;
		return -1;
	}
	if (live(root)) {
		n = readlink(path, out, len - 1);
	} else {
		if (walk(root, path, false, &w))
			return -1;
		n = strcmp(w.last, ".") ?
		    readlinkat(w.fd[w.depth], w.last, out, len - 1) : -1;
		saved = strcmp(w.last, ".") ? errno : EINVAL;
		walk_end(&w);
		errno = saved;
	}
	if (n < 0)
		return -1;
	out[n] = '\0';
	return (long)n;
}
