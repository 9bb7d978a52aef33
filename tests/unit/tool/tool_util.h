/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the p2pdiag-check unit tests: a small PCIe tree built in
 * code, fake /sys/kernel/p2pdiag trees in a temporary directory, files.
 */
#ifndef P2PD_TOOL_UTIL_H
#define P2PD_TOOL_UTIL_H

#include "uapi/p2pdiag/abi.h"

#include <stdbool.h>
#include <stddef.h>

#include "ktap.h"
#include "judge/judgement.h"
#include "judge/results.h"
#include "options.h"
#include "p2pdiag/model.h"

/* The abi_version file of this ABI, "2\n" for version 2. */
#define ABI_TEXT_OF(v)		#v "\n"
#define ABI_TEXT(v)		ABI_TEXT_OF(v)
#define CURRENT_ABI_TEXT	ABI_TEXT(P2PD_ABI_VERSION)

#define CHECK(k, cond, ...) ktap_result((k), !!(cond), #cond, __VA_ARGS__)

/*
 * The switch tree the judgement tests use (Intel Skylake-SP host bridge
 * 8086:2020, on the kernel's P2PDMA list):
 *
 *   00:00.0 host bridge    00:01.0 root port (Gen4 x16) -> bus 01
 *   01:00.0 switch upstream port -> bus 02
 *   02:08.0 / 02:10.0 / 02:18.0 downstream ports (ACS ctrl @dsp_acs)
 *   03:00.0 / 04:00.0 / 05:00.0 GPUs 10de:2330, Gen4 x16
 *
 * @host_vendor replaces the host bridge's vendor (0x1022: not listed).
 * Free with free(m->fn).
 */
void switch_model(struct p2pd_model *m, unsigned int dsp_acs,
		  unsigned int host_vendor);

/* A fresh empty directory under $TMPDIR; the path is malloc'd. */
char *make_tmpdir(void);
/* rm -r @dir (best effort). */
void remove_tree(const char *dir);
int write_file(const char *path, const char *text, size_t len);
/*
 * A character device (the null device's numbers) at @path, inside the
 * tree being built: a link to /dev/null would lead out of a root and be
 * refused for that.  Return: 0, or -1 with errno set (EPERM unless root).
 */
int make_null_device(const char *path);
char *read_whole(const char *path, size_t *len);

/*
 * A fake /sys/kernel/p2pdiag under @dir from @m: abi_version, generation,
 * topology and pairs in the module's formats (p2pd_format_*), and
 * devices/<addr>/<field> files.  @abi replaces abi_version's text.
 */
int make_sysfs_tree(const char *dir, const struct p2pd_model *m,
		    const char *abi);

/*
 * The live machine's root of system reads, as main.c's is without --root
 * or $P2PDIAG_FSROOT: the root of the runs judge_run() makes.
 */
const struct fsroot *tool_live_root(void);

/*
 * The module's tree at @dir as main.c makes its root (fsroot_init_tree()),
 * for the module source's readers; valid until the next call.
 */
const struct fsroot *tool_tree_root(const char *dir);

/*
 * Judge every pair of @m that @o's --pairs keeps into a run, as main.c
 * would, reading system files under tool_live_root(); free with
 * judge_release().
 */
void judge_run(struct check_run *r, const struct p2pd_model *m,
	       const struct options *o);

#endif /* P2PD_TOOL_UTIL_H */
