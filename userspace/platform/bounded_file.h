/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole files read with a bound: the module's tables, saved topologies
 * and baselines are read to their end, but never more than a limit, so
 * that /dev/zero, a runaway file or a pipe that never ends is an error and
 * not a hang or the machine's memory.
 */
#ifndef P2PDIAG_PLATFORM_BOUNDED_FILE_H
#define P2PDIAG_PLATFORM_BOUNDED_FILE_H

#include <stddef.h>

/*
 * bounded_file_read() - @path read to its end (read() until it returns 0,
 * as a binary sysfs attribute hands out a page at a time), NUL-terminated,
 * into a malloc'd *@out of *@len bytes.
 * Return: 0, or -1 with errno set: EFBIG when it holds more than @max
 * bytes, or the error of open() or read().
 */
int bounded_file_read(const char *path, size_t max, char **out, size_t *len);

/*
 * bounded_fd_read() - bounded_file_read() of an open descriptor, which
 * it closes.
 * Return: 0, or -1 with errno set (EFBIG, or the error of read()).
 */
int bounded_fd_read(int fd, size_t max, char **out, size_t *len);

#endif /* P2PDIAG_PLATFORM_BOUNDED_FILE_H */
