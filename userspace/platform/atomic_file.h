/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files replaced whole or not at all, safely where others can
 * write.  The content goes to a new file of a random dot name in the
 * target's directory (DIR/.NAME.XXXXXXXX, created with O_EXCL and
 * O_NOFOLLOW, so nothing planted there is reused or followed), is
 * flushed to disk, and is renamed over NAME.  A reader (a Prometheus node
 * exporter, Node Feature Discovery, the next --baseline check) sees the
 * old file or the new one, never half of one, even across a crash; and,
 * as neither takes dot files, never the one being written.
 *
 * The new file keeps an existing NAME's owner and permission bits (where
 * the caller may give them), else has ATOMIC_FILE_MODE whatever the umask.
 * A NAME that is a symbolic link is followed only when the caller owns
 * it; one of another user's is refused, as is a NAME that is there but is
 * not a regular file (a directory, /dev/null).
 */
#ifndef P2PDIAG_PLATFORM_ATOMIC_FILE_H
#define P2PDIAG_PLATFORM_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* The mode of an output file that did not exist: rw-r--r--. */
#define ATOMIC_FILE_MODE 0644

/* Writes the content to @f; returns 0, or -1 with errno set. */
typedef int (*atomic_file_writer)(FILE *f, const void *ctx);

/*
 * atomic_file_write() - put what @write writes at @path.
 * Return: 0, or -1 with the reason in @err, naming @path (the file at
 * @path, if any, is left as it was, and no temporary file remains).
 */
int atomic_file_write(const char *path, atomic_file_writer write,
		      const void *ctx, char *err, size_t errlen);

#endif /* P2PDIAG_PLATFORM_ATOMIC_FILE_H */
