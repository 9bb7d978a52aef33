// SPDX-License-Identifier: GPL-2.0
/* The hook before the tool's opens of system files (open_hook.h). */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "open_hook.h"

int __real_system_file_open(const char *root, const char *path, mode_t *found);

static open_hook_fn hook;
static void *hook_arg;

void open_hook_set(open_hook_fn fn, void *arg)
{
	hook = fn;
	hook_arg = arg;
}

int __wrap_system_file_open(const char *root, const char *path, mode_t *found)
{
	char whole[PATH_MAX];

	if (hook) {
		snprintf(whole, sizeof(whole), "%s%s", root ? root : "", path);
		hook(whole, hook_arg);
	}
	return __real_system_file_open(root, path, found);
}
