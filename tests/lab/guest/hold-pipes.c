// SPDX-License-Identifier: GPL-2.0
/*
 * hold-pipes <n> <ready file>: open n pipes, create <ready file>, and keep
 * the pipes open until SIGTERM.  Each pipe holds two kmalloc objects (its
 * pipe_inode_info and its buffer array), so n pipes are a known number of
 * live kmalloc objects: the control that shows the stress checks' slab
 * count sees a leak of that size.
 *
 * Exit status: 0 held and released, 1 a pipe or the ready file could not
 * be made, 2 bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	struct rlimit lim;
	sigset_t block, old;
	char *end;
	long n, i;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: hold-pipes <n> <ready file>\n");
		return 2;
	}
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || *end || n < 1 || n > 100000) {
		fprintf(stderr, "hold-pipes: bad count '%s'\n", argv[1]);
		return 2;
	}
	/* two descriptors a pipe, and a few to spare */
	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 &&
	    lim.rlim_cur < (rlim_t)(2 * n + 16)) {
		lim.rlim_cur = 2 * n + 16;
		if (lim.rlim_max < lim.rlim_cur)
			lim.rlim_max = lim.rlim_cur;
		setrlimit(RLIMIT_NOFILE, &lim);
	}
	/* SIGTERM blocked until sigsuspend, so none is lost before it */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < n; i++) {
		int p[2];

		if (pipe(p) < 0) {
			fprintf(stderr, "hold-pipes: pipe %ld of %ld: %s\n",
				i + 1, n, strerror(errno));
			return 1;
		}
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "hold-pipes: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	close(fd);
	while (!stop)
		sigsuspend(&old);
	return 0;
}
