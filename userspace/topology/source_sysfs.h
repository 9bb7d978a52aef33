/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module source: read /sys/kernel/p2pdiag (ABI version 1) into the
 * snapshot model, keeping the module's own pairs text for comparison.
 */
#ifndef P2PDIAG_SOURCE_SYSFS_H
#define P2PDIAG_SOURCE_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

#include "p2pdiag/model.h"

struct fsroot;

struct sysfs_snapshot {
	struct p2pd_model model;	/* parsed from topology */
	char *topology;			/* the files as read, NUL-terminated */
	size_t topology_len;
	char *pairs;
	size_t pairs_len;
	unsigned long generation;
	unsigned int attempts;		/* reads it took to get a stable one */
	int cpu_known;			/* the header said cpu=; else cpu_flags 0 */
};

#define SYSFS_MAX_ATTEMPTS	5
#define SYSFS_VALUE_MAX		4096		/* one-value files */
#define SYSFS_TABLE_MAX		(64UL << 20)	/* topology, pairs */

/*
 * Whether abi_version exists in the module's tree @mod (the module is
 * loaded); @mod is made by fsroot_init_tree() (platform/fsroot.h).
 */
int sysfs_module_present(const struct fsroot *mod);

/*
 * sysfs_snapshot_read() - abi_version, then generation, topology, pairs
 * and generation again; read again (at most SYSFS_MAX_ATTEMPTS times)
 * while the generation moves, from the module's files under @mod; the
 * types of the groups it names from the system files under @sys.
 * Return: 0, or -1 with the reason in @err.
 */
int sysfs_snapshot_read(const struct fsroot *sys, const struct fsroot *mod,
			struct sysfs_snapshot *s, char *err, size_t errlen);
void sysfs_snapshot_free(struct sysfs_snapshot *s);

/*
 * sysfs_root_check() - whether @dir, named by --sysfs-root, is a tree of
 * the module's files: a readable directory that holds abi_version.
 * Return: 0, or -1 with @err naming @dir and what it lacks.
 */
int sysfs_root_check(const char *dir, char *err, size_t errlen);

/*
 * sysfs_read_value() - one bounded read() of a one-value file into @buf,
 * without the trailing newline.  It and the whole-file reader of the
 * topology and pairs files open through system_file_open(): a FIFO,
 * socket, device node or directory in the tree is refused at once
 * (ENXIO, EISDIR), and *@found (NULL: not wanted) says what it is, as
 * system_file_open() does.
 * @path is a file of the module's tree @root and starts with it: it is
 * read beneath @root, never through a link out of it (EXDEV); @root NULL
 * reads @path as it is.
 * Return: 0, or -1 with errno set (EFBIG when it did not fit, EBADMSG when
 * it holds a NUL byte, EINVAL when @path is not under @root).
 */
int sysfs_read_value(const char *root, const char *path, char *buf, size_t cap,
		     mode_t *found);

/*
 * sysfs_header_generation() - the generation= of a "# p2pdiag abi=<n> ..."
 * header line, wherever among its keys.  Return: 0, or -1 when malformed,
 * of another ABI version, or without generation=.
 */
int sysfs_header_generation(const char *text, size_t len, unsigned long *gen);

/**
 * sysfs_strip_trailer() - check and cut the last line of a topology or
 * pairs text: "# p2pdiag end generation=<gen> bytes=<b>", <b> being the
 * bytes before it.
 *
 * Return: 0 with the text NUL-terminated at the line and *@len shortened to
 * <b>, or -1 (text untouched) when the line is missing, malformed, of
 * another generation or at another offset.
 */
int sysfs_strip_trailer(char *text, size_t *len, unsigned long gen);

#endif /* P2PDIAG_SOURCE_SYSFS_H */
