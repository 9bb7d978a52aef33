// SPDX-License-Identifier: GPL-2.0
/*
 * failnth-insmod <k> <module.ko> [params]: load a module with the k-th
 * fault-injection point of the loading task armed (/proc/thread-self/
 * fail-nth: with failslab and fail_page_alloc set to include GFP_KERNEL,
 * the k-th slab or page allocation fails).  The write and the load run in
 * the same task, so only the load's own allocations count: the module
 * loader's first, then the module's init.
 *
 * Prints one line, "loaded injected=0|1 reached=<n>" or "failed
 * errno=<name> injected=0|1 reached=<n>": injected says whether the k-th
 * point was reached (and failed), reached how many points the load passed
 * (k when injected).  A k larger than any load needs gives, through
 * reached, how many points a whole load has.
 * Exit status: 0 loaded, 1 refused, 2 the attempt itself went wrong (no
 * fail-nth, unreadable module, bad arguments).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FAIL_NTH	"/proc/thread-self/fail-nth"

static int write_fail_nth(int fd, unsigned long k)
{
	char v[32];
	int len = snprintf(v, sizeof(v), "%lu", k);

	return pwrite(fd, v, len, 0) == len ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *params = argc > 3 ? argv[3] : "";
	unsigned long k, left, reached;
	char buf[32], *end;
	int nth, ko, ret, err;
	ssize_t n;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: %s <k> <module.ko> [params]\n", argv[0]);
		return 2;
	}
	errno = 0;
	k = strtoul(argv[1], &end, 10);
	if (errno || *end || !k || k > UINT_MAX) {
		fprintf(stderr, "%s: k must be a positive number, not '%s'\n",
			argv[0], argv[1]);
		return 2;
	}
	ko = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (ko < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[2], strerror(errno));
		return 2;
	}
	nth = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (nth < 0) {
		fprintf(stderr, "%s: %s: %s (no CONFIG_FAULT_INJECTION?)\n",
			argv[0], FAIL_NTH, strerror(errno));
		return 2;
	}
	if (write_fail_nth(nth, k)) {
		fprintf(stderr, "%s: arming %s: %s\n", argv[0], FAIL_NTH,
			strerror(errno));
		return 2;
	}
	ret = syscall(SYS_finit_module, ko, params, 0);
	err = errno;
	/* 0: the k-th point was reached and failed; else the points left */
	n = pread(nth, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	write_fail_nth(nth, 0);
	if (n <= 0) {
		fprintf(stderr, "%s: reading %s back failed\n", argv[0], FAIL_NTH);
		return 2;
	}
	left = strtoul(buf, NULL, 10);
	reached = left ? k - left : k;
	if (ret == 0) {
		printf("loaded injected=%d reached=%lu\n", !left, reached);
		return 0;
	}
	printf("failed errno=%s injected=%d reached=%lu\n",
	       strerrorname_np(err) ? strerrorname_np(err) : "?", !left, reached);
	return 1;
}
