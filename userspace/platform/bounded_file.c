// SPDX-License-Identifier: GPL-2.0
/* Whole files read with a bound (bounded_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "platform/bounded_file.h"

int bounded_fd_read(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = 65536, used = 0;
	char *buf, *nb;
	int saved = 0;

	*out = NULL;
	*len = 0;
	buf = malloc(cap);
	if (!buf) {
		saved = ENOMEM;
		goto fail;
	}
	for (;;) {
		ssize_t n;

		if (cap - used < 2) {
			/* room for max + 1 bytes: one more than allowed is seen */
			size_t want = cap * 2 < max + 2 ? cap * 2 : max + 2;

			if (want <= cap) {
				saved = EFBIG;
				goto fail;
			}
			nb = realloc(buf, want);
			if (!nb) {
				saved = ENOMEM;
				goto fail;
			}
			buf = nb;
			cap = want;
		}
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			goto fail;
		}
		if (!n)
			break;
		used += (size_t)n;
		if (used > max) {
			saved = EFBIG;
			goto fail;
		}
	}
	close(fd);
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
fail:
	free(buf);
	close(fd);
	errno = saved;
	return -1;
}

int bounded_file_read(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*out = NULL;
	*len = 0;
	return fd < 0 ? -1 : bounded_fd_read(fd, max, out, len);
}
