// SPDX-License-Identifier: GPL-2.0
/* The kernel log, where the kernel says its own P2PDMA verdicts (kernel_log.h). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/klog.h>

#include "platform/fsroot.h"
#include "system/kernel_log.h"

#define LOG_MAX		(4u << 20)
#define SYSLOG_READ_ALL	3
#define SYSLOG_SIZE	10

/* The live ring buffer; NULL where it cannot be read (dmesg_restrict). */
static char *live_log(void)
{
	int size = klogctl(SYSLOG_SIZE, NULL, 0), n;
	char *buf;

	if (size <= 0 || (unsigned int)size > LOG_MAX)
		return NULL;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(SYSLOG_READ_ALL, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

static char *root_log(const struct fsroot *root, struct fsroot_refusal *refused)
{
	static const char *const files[] = { "/var/log/dmesg", "/var/log/kern.log" };
	unsigned int i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f = fsroot_fopen(root, refused, "%s", files[i]);
		char *buf;
		size_t n;

		if (!f)
			continue;
		buf = malloc(LOG_MAX + 1);
		n = buf ? fread(buf, 1, LOG_MAX, f) : 0;
		fclose(f);
		if (!buf)
			return NULL;
		buf[n] = '\0';
		return buf;
	}
	return NULL;
}

char *kernel_log_read(const struct fsroot *root, struct fsroot_refusal *refused)
{
	return fsroot_is_live(root) ? live_log() : root_log(root, refused);
}
