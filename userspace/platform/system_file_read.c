// SPDX-License-Identifier: GPL-2.0
/*
 * A system file as a stream or whole (system_file.h), opened through
 * system_file_open() from this separate file so that every open of a
 * system file is a call to it from another object (the unit tests wrap
 * it at link time).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "platform/bounded_file.h"
#include "platform/system_file.h"

FILE *system_file_fopen(const char *root, const char *path, mode_t *found)
{
	int fd = system_file_open(root, path, found), saved;
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

int system_file_read_all(const char *root, const char *path, size_t max,
			 char **out, size_t *len, mode_t *found)
{
	int fd = system_file_open(root, path, found);

	*out = NULL;
	*len = 0;
	return fd < 0 ? -1 : bounded_fd_read(fd, max, out, len);
}

/* read() into @buf until @cap bytes or the end, as @reads says */
static ssize_t read_value_bytes(int fd, char *buf, size_t cap,
				enum system_file_reads reads)
{
	size_t used = 0;

	while (used < cap) {
		ssize_t n = read(fd, buf + used, cap - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		used += (size_t)n;
		if (!n || reads == SYSTEM_FILE_ONE_READ)
			break;
	}
	return (ssize_t)used;
}

int system_file_read_value(const char *root, const char *path, char *buf,
			   size_t cap, enum system_file_reads reads,
			   mode_t *found)
{
	ssize_t n;
	int fd, saved;

	if (cap < 2) {
		errno = EINVAL;
		return -1;
	}
	fd = system_file_open(root, path, found);
	if (fd < 0)
		return -1;
	n = read_value_bytes(fd, buf, cap, reads);
	saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	if ((size_t)n == cap) {
		errno = EFBIG;
		return -1;
	}
	if (memchr(buf, '\0', (size_t)n)) {
		errno = EBADMSG;
		return -1;
	}
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}
