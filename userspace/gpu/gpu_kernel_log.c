// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log's word on a driver that stopped answering: when a CUDA
 * or NVML call or a copy timed out, the NVIDIA driver's last Xid line
 * ("NVRM: Xid (PCI:0000:1b:00): 79, pid=..., GPU has fallen off the
 * bus.") says what wedged it, and the finding quotes it.
 *
 * The log is /dev/kmsg under the run's root: one record per read() on the
 * live device (PRI,SEQ,TIME,FLAGS;TEXT, then " KEY=VALUE" lines), or a
 * regular file of such records or of dmesg's lines in a copied root.  It
 * is opened without blocking and without following a last link, read to
 * its current end and never waited on; a device node other than a
 * character device, or anything unreadable, leaves the line empty with
 * the reason kept.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/gpu_priv.h"
#include "platform/fsroot.h"

/* At most this much of the log is read: the ring buffer is far smaller. */
#define KERNEL_LOG_MAX_BYTES	(16UL << 20)
#define KERNEL_LOG_LINE		1024

/* One whole line of the log: keep it when it is an Xid of the driver. */
static void take_line(struct gpu_state *st, const char *line)
{
	const char *xid = strstr(line, "NVRM: Xid");

	if (!xid)
		return;
	snprintf(st->kernel_xid, sizeof(st->kernel_xid), "%s", xid + 6);
}

void gpu_read_kernel_xid(struct gpu_state *st, const struct fsroot *root)
{
	char path[4096], buf[8192], line[KERNEL_LOG_LINE];
	size_t used = 0, total = 0;
	struct stat sb;
	int fd;

	st->kernel_xid[0] = st->kernel_log_error[0] = '\0';
	if (fsroot_path(root, path, sizeof(path), "/dev/kmsg"))
		return;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		snprintf(st->kernel_log_error, sizeof(st->kernel_log_error),
			 "cannot read /dev/kmsg: %s", strerror(errno));
		return;
	}
	if (fstat(fd, &sb) || !(S_ISCHR(sb.st_mode) || S_ISREG(sb.st_mode))) {
		snprintf(st->kernel_log_error, sizeof(st->kernel_log_error),
			 "/dev/kmsg is neither the kernel's log nor a copy of it");
		close(fd);
		return;
	}
	while (total < KERNEL_LOG_MAX_BYTES) {
		ssize_t n = read(fd, buf, sizeof(buf));
		ssize_t i;

		if (n < 0 && errno == EINTR)
			continue;
		/* EPIPE: records were overwritten while reading; go on */
		if (n < 0 && errno == EPIPE)
			continue;
		if (n < 0 && errno != EAGAIN)
			snprintf(st->kernel_log_error,
				 sizeof(st->kernel_log_error),
				 "cannot read /dev/kmsg: %s", strerror(errno));
		if (n <= 0)
			break;
		total += (size_t)n;
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (used < sizeof(line) - 1)
					line[used++] = buf[i];
				continue;
			}
			line[used] = '\0';
			take_line(st, line);
			used = 0;
		}
	}
	if (used) {
		line[used] = '\0';
		take_line(st, line);
	}
	close(fd);
}
