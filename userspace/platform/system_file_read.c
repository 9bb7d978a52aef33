// SPDX-License-Identifier: GPL-2.0
/*
 * A system file as a stream or whole (system_file.h), opened through
 * system_file_open() from this separate file so that every open of a
 * system file is a call to it from another object (the unit tests wrap
 * it at link time).
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "platform/bounded_file.h"
#include "platform/system_file.h"

FILE *system_file_fopen(const char *path, mode_t *found)
{
	int fd = system_file_open(path, found), saved;
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		saved = errno;
		close(fd);
		errno = saved;
	}
	return f;
}

int system_file_read_all(const char *path, size_t max, char **out,
			 size_t *len, mode_t *found)
{
	int fd = system_file_open(path, found);

	*out = NULL;
	*len = 0;
	return fd < 0 ? -1 : bounded_fd_read(fd, max, out, len);
}
