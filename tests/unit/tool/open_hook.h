/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test's hand in the tool's opens of system files.  test_tool is linked
 * with -Wl,--wrap=system_file_open, so every open the tool makes of a
 * file under /sys/kernel/p2pdiag or the root comes here first: a test sets
 * a hook that acts just before the open (the module rebuilding its
 * snapshot between two reads, or unloading), then the real open runs.
 */
#ifndef P2PD_OPEN_HOOK_H
#define P2PD_OPEN_HOOK_H

#include <sys/types.h>

typedef void (*open_hook_fn)(const char *path, void *arg);

/* Call @fn(path, @arg) before each open from now on; NULL: none. */
void open_hook_set(open_hook_fn fn, void *arg);

/* The wrapper the linker puts in place of system_file_open(). */
int __wrap_system_file_open(const char *root, const char *path, mode_t *found);

#endif /* P2PD_OPEN_HOOK_H */
