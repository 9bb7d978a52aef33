// SPDX-License-Identifier: GPL-2.0
/*
 * The one way output files are replaced: see atomic_file.h.  Signals are
 * held back from creating NAME.tmp to the rename, so a SIGINT or SIGTERM
 * (platform/interrupt.c) ends the tool before or after a replacement, never
 * in the middle of one with NAME.tmp left behind.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/atomic_file.h"

/*
 * The name written before the rename: NAME.tmp, or DIR/.NAME.tmp when
 * @hidden (for readers that take every file of their directory but dot
 * files).  Return: malloc'd, or NULL when memory ran out.
 */
static char *temporary_name(const char *path, bool hidden)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = strlen(path) + sizeof(".") + sizeof(".tmp");
	char *tmp = malloc(len);

	if (!tmp)
		return NULL;
	if (hidden)
		snprintf(tmp, len, "%.*s.%s.tmp", (int)dir, path, path + dir);
	else
		snprintf(tmp, len, "%s.tmp", path);
	return tmp;
}

static int replace(const char *path, bool hidden, atomic_file_writer write,
		   const void *ctx, char *err, size_t errlen)
{
	char *tmp = temporary_name(path, hidden);
	FILE *f;
	int saved;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	f = fopen(tmp, "we");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: cannot create it: %s", tmp,
			 strerror(errno));
		free(tmp);
		return -1;
	}
	errno = 0;
	if (write(f, ctx) || fflush(f) || ferror(f) || fsync(fileno(f))) {
		saved = errno ? errno : EIO;
		fclose(f);
		unlink(tmp);
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(saved));
		free(tmp);
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		saved = errno;
		unlink(tmp);
		snprintf(err, errlen, "cannot put %s in place: %s", path,
			 strerror(saved));
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

static int write_held(const char *path, bool hidden, atomic_file_writer write,
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
	rc = replace(path, hidden, write, ctx, err, errlen);
	sigprocmask(SIG_SETMASK, &before, NULL);
	return rc;
}

int atomic_file_write(const char *path, atomic_file_writer write,
		      const void *ctx, char *err, size_t errlen)
{
	return write_held(path, false, write, ctx, err, errlen);
}

int atomic_file_write_hidden(const char *path, atomic_file_writer write,
			     const void *ctx, char *err, size_t errlen)
{
	return write_held(path, true, write, ctx, err, errlen);
}
