/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening a path inside a directory without ever leaving it.
 *
 * A --root or --sysfs-root tree is another machine's files, copied by
 * someone else: a link in it may point at this machine's /etc/shadow or
 * /sys.  Every component of a path under such a root is resolved beneath
 * it, and a path that would leave it (an absolute link, or ".." above the
 * root) is refused with EXDEV: the tool never reads, nor says, what lies
 * outside.  Links that stay inside (sysfs' relative device links) are
 * followed as the kernel would.
 *
 * The kernel does it where it has openat2(2) (Linux 5.6): RESOLVE_BENEATH,
 * race-free.  Elsewhere (ENOSYS, or a seccomp filter that refuses the
 * call) the same rules are applied by a walk, one component at a time,
 * each opened relative to the directory before it and never through a
 * link; P2PDIAG_CONFINE_WALK=1 in the environment forces the walk, so
 * that both ways are tested on any kernel.
 */
#ifndef P2PDIAG_PLATFORM_CONFINED_PATH_H
#define P2PDIAG_PLATFORM_CONFINED_PATH_H

#include <stddef.h>

#define CONFINE_WALK_ENV "P2PDIAG_CONFINE_WALK"

/*
 * confined_open() - open @path (absolute, as on the machine the root
 * stands for) under @root with open(2)'s @flags; @root NULL or "" is the
 * live machine, where @path is opened as it is.
 * Return: the descriptor (close-on-exec), or -1 with errno set: EXDEV
 * when the path leads out of the root, ELOOP for a loop of links, or the
 * error of opening a component.
 */
int confined_open(const char *root, const char *path, int flags);

/*
 * confined_open_walk() - confined_open() by the walk alone, as on a kernel
 * without openat2(2), whatever this one has: for tests that compare them.
 */
int confined_open_walk(const char *root, const char *path, int flags);

/*
 * confined_realpath() - where @path under @root leads, as a path under
 * @root with no link or "." or ".." in it ("/sys/devices/pci0000:00/...").
 * Return: 0, or -1 with errno set as confined_open(), ENAMETOOLONG when
 * it does not fit @len.
 */
int confined_realpath(const char *root, const char *path, char *out,
		      size_t len);

/*
 * confined_readlink() - the text of the link @path names under @root
 * (its directory resolved beneath the root, the link itself not
 * followed), NUL-terminated.
 * Return: its length, or -1 with errno set (EINVAL when it is no link).
 */
long confined_readlink(const char *root, const char *path, char *out,
		       size_t len);

#endif /* P2PDIAG_PLATFORM_CONFINED_PATH_H */
