/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How p2pdiag-check ends when it is told to (SIGINT from a terminal,
 * SIGTERM from systemd or a pipeline's timeout, SIGHUP when the terminal
 * goes): the GPU worker process goes with it, a line on stderr says what
 * was running, and the tool ends by the same signal, so a shell sees
 * 128 + its number (130, 143, 129).  Output files need nothing here:
 * platform/atomic_file.c holds signals back while it replaces one, so each
 * is either as it was or whole.
 */
#ifndef P2PDIAG_PLATFORM_INTERRUPT_H
#define P2PDIAG_PLATFORM_INTERRUPT_H

#include <stddef.h>
#include <sys/types.h>

/*
 * interrupt_install() - catch SIGINT, SIGTERM and SIGHUP for the rest of
 * the run.  A signal that was ignored when the tool started (nohup, a
 * background job of a script) stays ignored.
 */
void interrupt_install(void);

/*
 * interrupt_watch_child() - @pid (or -1 for none) is killed and reaped
 * before the tool ends by a signal.  @doing, @doing_len: a text the child
 * keeps up to date (the step it is in), named in the message; may be NULL.
 */
void interrupt_watch_child(pid_t pid, const char *doing, size_t doing_len);

/*
 * interrupt_forget() - in a forked child: the dispositions from before
 * interrupt_install(), so the child ends by a signal as any process does.
 */
void interrupt_forget(void);

#endif /* P2PDIAG_PLATFORM_INTERRUPT_H */
