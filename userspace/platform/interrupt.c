// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's end on SIGINT, SIGTERM and SIGHUP: see interrupt.h.
 *
 * The handler does everything itself, with async-signal-safe calls only
 * (kill, waitpid, nanosleep, write, sigaction, sigprocmask, raise): the
 * run may be anywhere, in the middle of stdio or malloc, when a signal
 * comes, so nothing that the main flow would have to notice is left for
 * later.  Without this a SIGTERM ended the tool and left its worker
 * copying, or stuck in the driver, with no parent.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "platform/interrupt.h"

/* A worker stuck in the driver may take a moment to die after SIGKILL. */
#define REAP_TRIES	200
#define REAP_PAUSE_NS	10000000L	/* 10 ms: 2 s in all */

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_CAUGHT (sizeof(caught) / sizeof(caught[0]))

static struct sigaction before[NR_CAUGHT];
static bool installed[NR_CAUGHT];
static volatile pid_t child = -1;
static const char *volatile child_doing;
static volatile size_t child_doing_len;

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	default:
		return "SIGHUP";
	}
}

/*
 * Append up to @max bytes of @s to @buf (of @size, holding *@len), never
 * past its end; @untrusted: written by another process, which may be
 * changing it now, so only printable bytes go out as they are.
 */
static void put(char *buf, size_t size, size_t *len, const char *s,
		size_t max, bool untrusted)
{
	size_t i;

	for (i = 0; i < max && s[i] && *len + 1 < size; i++)
		buf[(*len)++] = !untrusted || (s[i] >= ' ' && s[i] <= '~') ?
					s[i] : '?';
}

static void end_child(void)
{
	struct timespec pause = { 0, REAP_PAUSE_NS };
	pid_t pid = child;
	int i;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	for (i = 0; i < REAP_TRIES; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		nanosleep(&pause, NULL);
	}
}

static void on_signal(int sig)
{
	char msg[256];
	size_t len = 0, doing_len = child_doing_len;
	const char *doing = child_doing;
	bool had_child = child > 0;
	sigset_t self;
	struct sigaction dfl;

	put(msg, sizeof(msg), &len, "p2pdiag-check: ended by ", SIZE_MAX,
	    false);
	put(msg, sizeof(msg), &len, signal_name(sig), SIZE_MAX, false);
	if (had_child && doing && doing[0]) {
		put(msg, sizeof(msg), &len, " while measuring ", SIZE_MAX,
		    false);
		put(msg, sizeof(msg), &len, doing, doing_len, true);
	}
	end_child();
	if (had_child)
		put(msg, sizeof(msg), &len, "; the GPU worker was ended too",
		    SIZE_MAX, false);
	put(msg, sizeof(msg), &len, "; no output file is left half-written",
	    SIZE_MAX, false);
	msg[len++] = '\n';	/* put() always leaves room for one more */
	if (write(STDERR_FILENO, msg, len) < 0)
		errno = 0;	/* nothing more can be said */

	/* End by the signal itself, so the caller sees what ended us. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&self);
	sigaddset(&self, sig);
	sigprocmask(SIG_UNBLOCK, &self, NULL);
	raise(sig);
	_exit(128 + sig);
}

void interrupt_install(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_CAUGHT; i++)
		sigaddset(&sa.sa_mask, caught[i]);	/* one handler at a time */
	for (i = 0; i < NR_CAUGHT; i++) {
		if (sigaction(caught[i], NULL, &before[i]))
			continue;
		if (caught[i] != SIGTERM && before[i].sa_handler == SIG_IGN)
			continue;
		installed[i] = sigaction(caught[i], &sa, NULL) == 0;
	}
}

void interrupt_watch_child(pid_t pid, const char *doing, size_t doing_len)
{
	/* the handler reads these one at a time; none may be half set */
	child = -1;
	child_doing_len = doing ? doing_len : 0;
	child_doing = doing;
	child = pid;
}

void interrupt_forget(void)
{
	size_t i;

	for (i = 0; i < NR_CAUGHT; i++)
		if (installed[i]) {
			sigaction(caught[i], &before[i], NULL);
			installed[i] = false;
		}
	child = -1;
}
