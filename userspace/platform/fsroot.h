/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One root for every system file p2pdiag-check reads outside
 * /sys/kernel/p2pdiag: sysfs, /proc, module parameters, DMI, the kernel
 * config.  "/" on a live machine; --root DIR or $P2PDIAG_FSROOT points the
 * tool at a fixture tree (a copy of the files that matter, as hwloc's
 * HWLOC_FSROOT does), so every system fact is testable without the
 * hardware.
 *
 * Paths are given as they are on a live machine ("/proc/cmdline") and
 * are printf formats; a fact that cannot be read is an error return with
 * errno set, never a crash: callers decide whether "absent" is a finding.
 */
#ifndef P2PDIAG_PLATFORM_FSROOT_H
#define P2PDIAG_PLATFORM_FSROOT_H

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FSROOT_ENV	"P2PDIAG_FSROOT"
#define FSROOT_VALUE_MAX 4096		/* one-value files (sysfs, /proc) */
/* a refusal's message: "cannot read " PATH ": a FIFO, not a regular file" */
#define FSROOT_REFUSAL_MAX (4096 + 64)

/*
 * The root of one run's system reads, made once by fsroot_init() and
 * passed, const, to every reader; its fields are read through the
 * functions below.
 */
struct fsroot {
	char dir[PATH_MAX];		/* resolved, no trailing slash; "" when live */
	char given[PATH_MAX];		/* as given, for messages; "/" when live */
};

/*
 * struct fsroot_refusal - what a reader gives back to its caller, beside
 * its value, when a file it read under the root is there but is not a
 * regular file (a FIFO, socket, device node or directory), or, under a
 * root, a link on its way leads out of it, links loop, or it may not be
 * read: @why names the first such file as fsroot_read_fact() does, and
 * is "" while none was.
 *
 * The readers keep treating such a file as an unknown fact, so that a
 * reader needs no error path of its own, and one that reads several
 * files passes the same refusal to each; the caller that gathers (main.c,
 * system/system.c) ends the run with the message before any report, as
 * for the facts read with fsroot_read_fact().  That holds for every file
 * read this way, the informational ones included: a root whose files are
 * FIFOs or directories is not the machine it stands for, and a report
 * from it would be judged on facts said to be unknown that are not.
 */
struct fsroot_refusal {
	char why[FSROOT_REFUSAL_MAX];
};

/* Whether @refused names a file (fsroot_read(), fsroot_fopen()). */
bool fsroot_refused(const struct fsroot_refusal *refused);

/*
 * fsroot_init() - @root reads system files under @dir; NULL or "/" means
 * the live machine.
 * Return: 0, or -1 with the reason in @err (not a directory, too long);
 * @root is then the live machine's.
 */
int fsroot_init(struct fsroot *root, const char *dir, char *err, size_t errlen);

/*
 * fsroot_init_tree() - @root reads the tree at @dir, as it is named
 * ("/sys/kernel/p2pdiag", or a copy of it), whether or not it is there
 * yet: the module's directory is absent while the module is not loaded.
 * It is never the live machine's "/": every read is confined beneath
 * @dir, and fsroot_get() gives @dir back for messages and for the reads
 * of the module's files (topology/source_sysfs.h).
 * Return: 0, or -1 with errno ENAMETOOLONG (EINVAL for "") and @root
 * unchanged.
 */
int fsroot_init_tree(struct fsroot *root, const char *dir);

/* The root as given ("/" when live); for messages. */
const char *fsroot_get(const struct fsroot *root);
/* Whether the root is the live machine's "/". */
bool fsroot_is_live(const struct fsroot *root);

/*
 * fsroot_path() - the real path of a live-machine path under the root.
 * Return: 0, or -1 with errno ENAMETOOLONG.
 */
int fsroot_path(const struct fsroot *root, char *out, size_t len,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * fsroot_read() - a small file (at most @cap - 1 bytes) in one piece,
 * NUL-terminated, without its trailing newline.  fsroot_read() and
 * fsroot_fopen() open through system_file_open(): what is not a regular
 * file is refused at once, and named in @refused unless it already names
 * an earlier one (struct fsroot_refusal).
 * Return: 0, or -1 with errno set (EFBIG when it did not fit, EBADMSG
 * when it holds a NUL byte; ENXIO or EISDIR when it is not a regular
 * file).
 */
int fsroot_read(const struct fsroot *root, struct fsroot_refusal *refused,
		char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * fsroot_read_fact() - fsroot_read() of a fact that is unknown when its
 * file is absent or unreadable, but whose file, when it is there and is
 * not a regular file (a FIFO, socket, device node or directory), makes
 * the root bad input: then @why says so, naming the file as opened
 * ("cannot read DIR/proc/cmdline: a FIFO, not a regular file").  @why is
 * "" after any other outcome.
 * Return: 0, or -1 with errno set as fsroot_read().
 */
int fsroot_read_fact(const struct fsroot *root, char *buf, size_t cap,
		     char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* fsroot_fopen() with fsroot_read_fact()'s @why; NULL with errno set. */
FILE *fsroot_fopen_fact(const struct fsroot *root, char *why, size_t whylen,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Whether the path exists under the root. */
bool fsroot_exists(const struct fsroot *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * fsroot_link_name() - the last component of a symbolic link's target
 * ("driver" -> ".../drivers/mlx5_core" gives "mlx5_core").
 * Return: 0, or -1 with errno set (EINVAL when it is no link).
 */
int fsroot_link_name(const struct fsroot *root, char *out, size_t len,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * fsroot_realpath() - resolve a path under the root and give it back as
 * a live-machine path ("/sys/devices/pci0000:00/...").
 * Return: 0, or -1 with errno set (EXDEV when it leaves the root).
 */
int fsroot_realpath(const struct fsroot *root, char *out, size_t len,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * fsroot_stays_inside() - whether a path that a library opens by its
 * name, out of the tool's hands (libpci's sysfs back-end), leads where
 * it leads beneath the root: the kernel's plain resolution of its links
 * must end at the same file under the root.  A path that exists neither
 * way stays inside.  (A tree changed between this look and the
 * library's open is not caught: the look is for copies, which do not
 * change.)
 * Return: 0, or -1 with errno set (EXDEV when it leads out of the root).
 */
int fsroot_stays_inside(const struct fsroot *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* fsroot_fopen() and fsroot_opendir(): NULL with errno set. */
FILE *fsroot_fopen(const struct fsroot *root, struct fsroot_refusal *refused,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
DIR *fsroot_opendir(const struct fsroot *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* P2PDIAG_PLATFORM_FSROOT_H */
