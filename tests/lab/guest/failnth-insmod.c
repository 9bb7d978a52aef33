// SPDX-License-Identifier: GPL-2.0
/*
 * failnth-insmod <k> <module.ko> [params]: load a module with the k-th
 * fault-injection point of the loading task armed (/proc/thread-self/
 * fail-nth: with failslab and fail_page_alloc set to include GFP_KERNEL,
 * the k-th slab or page allocation fails).  The write and the load run in
 * the same task, so only the load's own allocations count: the module
 * loader's first, then the module's init.
 *
 * Prints one line, "loaded injected=0|1" or "failed errno=<name>
 * injected=0|1", where injected says whether the k-th point was reached.
 * Exit status: 0 loaded, 1 refused, 2 the attempt itself went wrong (no
 * fail-nth, unreadable module, bad arguments).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
	unsigned long k;
	char left[32], *end;
	int nth, ko, ret, err;
	ssize_t n;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: %s <k> <module.ko> [params]\n", argv[0]);
		return 2;
	}
	errno = 0;
	k = strtoul(argv[1], &end, 10);
	if (errno || *end || !k) {
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
	/* 0: the k-th point was reached and failed; else what was left */
	n = pread(nth, left, sizeof(left) - 1, 0);
	left[n > 0 ? n : 0] = '\0';
	write_fail_nth(nth, 0);
	if (n <= 0) {
		fprintf(stderr, "%s: reading %s back failed\n", argv[0], FAIL_NTH);
		return 2;
	}
	if (ret == 0) {
		printf("loaded injected=%d\n", atoi(left) == 0);
		return 0;
	}
	printf("failed errno=%s injected=%d\n", strerrorname_np(err) ?
	       strerrorname_np(err) : "?", atoi(left) == 0);
	return 1;
}
