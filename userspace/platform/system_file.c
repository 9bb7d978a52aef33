// SPDX-License-Identifier: GPL-2.0
/* Opening a file of the system described (system_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform/confined_path.h"
#include "platform/system_file.h"

int system_file_open(const char *root, const char *path, mode_t *found)
{
	mode_t unused;
	struct stat st;
	int fd, saved;

	if (!found)
		found = &unused;
	*found = 0;
	/*
	 * Refuse before opening where possible: opening a device node can
	 * act (a watchdog arms, a tty takes a controlling terminal).  The
	 * fstat() below still catches a file swapped in between.
	 */
	fd = confined_open(root, path, O_PATH);
	if (fd < 0)
		return -1;
	saved = fstat(fd, &st) ? errno : 0;
	close(fd);
	if (saved) {
		errno = saved;
		return -1;
	}
	*found = st.st_mode;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : ENXIO;
		return -1;
	}
	/* O_NONBLOCK: open() of a FIFO returns at once, writer or not */
	fd = confined_open(root, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		saved = errno;
		*found = 0;
		goto refuse;
	}
	*found = st.st_mode;
	if (!S_ISREG(st.st_mode)) {
		saved = S_ISDIR(st.st_mode) ? EISDIR : ENXIO;
		goto refuse;
	}
	/* a regular file: reads behave as they would have without it */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		saved = errno;
		goto refuse;
	}
	return fd;
refuse:
	close(fd);
	errno = saved;
	return -1;
}

bool system_file_refused(mode_t found)
{
	return found && !S_ISREG(found);
}

const char *system_file_strerror(int e, mode_t found)
{
	if (!system_file_refused(found))
		return strerror(e);
	if (S_ISDIR(found))
		return "a directory, not a regular file";
	if (S_ISFIFO(found))
		return "a FIFO, not a regular file";
	if (S_ISSOCK(found))
		return "a socket, not a regular file";
	if (S_ISCHR(found))
		return "a character device, not a regular file";
	if (S_ISBLK(found))
		return "a block device, not a regular file";
	return strerror(e);
}
