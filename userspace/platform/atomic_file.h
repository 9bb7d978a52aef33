/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files replaced whole or not at all: written next to their place
 * as NAME.tmp, flushed to disk, then renamed over NAME.  A reader (a
 * Prometheus node exporter, the next --baseline check) sees the old file
 * or the new one, never half of one, even across a crash.
 */
#ifndef P2PDIAG_PLATFORM_ATOMIC_FILE_H
#define P2PDIAG_PLATFORM_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the content to @f; returns 0, or -1 with errno set. */
typedef int (*atomic_file_writer)(FILE *f, const void *ctx);

/*
 * atomic_file_write() - put what @write writes at @path.
 * Return: 0, or -1 with the reason in @err (the file at @path, if any,
 * is left as it was, and no .tmp file remains).
 */
int atomic_file_write(const char *path, atomic_file_writer write,
		      const void *ctx, char *err, size_t errlen);

/*
 * atomic_file_write_hidden() - the same through DIR/.NAME.tmp, for a
 * directory whose reader takes every file in it except dot files (Node
 * Feature Discovery's features.d): it never reads the half-written one.
 */
int atomic_file_write_hidden(const char *path, atomic_file_writer write,
			     const void *ctx, char *err, size_t errlen);

#endif /* P2PDIAG_PLATFORM_ATOMIC_FILE_H */
