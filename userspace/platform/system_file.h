/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way p2pdiag-check opens a file of the system it describes:
 * /sys/kernel/p2pdiag (or --sysfs-root), and sysfs and /proc under the
 * root of system reads.  Every such file is a regular file on a real
 * machine; a FIFO, socket or device node in its place is bad input
 * (a broken fixture, a tree from the wrong place), and open() on a FIFO
 * with no writer would block for ever.  So the file is opened without
 * blocking and refused unless it is a regular file.
 *
 * Files a user names (--topology-file, --pci-dump, --baseline, --cpuinfo)
 * may be pipes and are not read through here.
 *
 * Each function takes the file as @path under @root: a --root or
 * --sysfs-root tree's files are resolved beneath it and never outside
 * (platform/confined_path.h); @root NULL is the live machine, where
 * @path is opened as it is.
 */
#ifndef P2PDIAG_PLATFORM_SYSTEM_FILE_H
#define P2PDIAG_PLATFORM_SYSTEM_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * system_file_open() - @path read-only, close-on-exec, in blocking mode
 * once it is known to be a regular file.  *@found (when @found is not
 * NULL) is the st_mode of what was at @path, 0 when nothing could be
 * looked at: the kind of a refused file, for system_file_strerror(),
 * taken from the same stat() or fstat() that refused it.
 * Return: the descriptor, or -1 with errno set: EISDIR for a directory,
 * ENXIO for any other file that is not a regular one (the errno open()
 * itself gives for a socket), EXDEV when it leads out of @root, or the
 * error of open().
 */
int system_file_open(const char *root, const char *path, mode_t *found);

/* system_file_open() as a stdio stream; NULL with errno set. */
FILE *system_file_fopen(const char *root, const char *path, mode_t *found);

/*
 * system_file_read_all() - a regular file read to its end, bounded by
 * @max bytes, as bounded_file_read() does; @found as system_file_open().
 * Return: 0, or -1 with errno set as there and as system_file_open().
 */
int system_file_read_all(const char *root, const char *path, size_t max,
			 char **out, size_t *len, mode_t *found);

/* How system_file_read_value() reads its file. */
enum system_file_reads {
	/*
	 * One read(): a sysfs attribute is served whole by one show() call,
	 * and reading it in pieces could join two versions of it.
	 */
	SYSTEM_FILE_ONE_READ,
	/* read() to the end: a fixture's regular file may come in pieces */
	SYSTEM_FILE_TO_END,
};

/*
 * system_file_read_value() - a one-value text file into @buf (@cap bytes
 * with its NUL), without the trailing newline, read as @reads says;
 * @found as system_file_open().
 * Return: 0, or -1 with errno set: EINVAL when @cap is below 2, EFBIG
 * when the value did not fit, EBADMSG when it holds a NUL byte (which
 * would cut it short unseen), or as system_file_open() and read().
 */
int system_file_read_value(const char *root, const char *path, char *buf,
			   size_t cap, enum system_file_reads reads,
			   mode_t *found);

/*
 * system_file_refused() - whether system_file_open() refused the file
 * whose st_mode it gave as @found: something is there, and it is not a
 * regular file.
 */
bool system_file_refused(mode_t found);

/*
 * system_file_strerror() - why a file failed with @e, for a message: what
 * it is when system_file_open() refused it (@found, "a FIFO, not a
 * regular file"), else strerror(@e).
 */
const char *system_file_strerror(int e, mode_t found);

#endif /* P2PDIAG_PLATFORM_SYSTEM_FILE_H */
