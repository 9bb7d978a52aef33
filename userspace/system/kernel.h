/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts about the running kernel, read under the root of system reads:
 * its release and command line, its build configuration, whether it
 * exports a symbol, and the state of its modules and their parameters.
 */
#ifndef P2PDIAG_SYSTEM_KERNEL_H
#define P2PDIAG_SYSTEM_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>

/* A fact that may be unreadable: not the same as "no". */
enum tri { TRI_UNKNOWN = -1, TRI_NO = 0, TRI_YES = 1 };

#define KERNEL_CMDLINE_MAX 4096

struct fsroot;
struct fsroot_refusal;

struct kernel_facts {
	bool have_release;
	char release[128];		/* /proc/sys/kernel/osrelease */
	unsigned int major, minor;	/* 0.0 when not parsed */
	bool have_cmdline;
	char cmdline[KERNEL_CMDLINE_MAX];	/* /proc/cmdline */
	char config[PATH_MAX];		/* live path of the config, or "" */
};

/*
 * kernel_facts_read() - release, command line and where the build config
 * is.  An absent or unreadable release or command line is unknown.
 * Return: 0, or -1 when the file of either is there but is not a regular
 * file (bad input, fsroot_read_fact()): @err names it.
 */
int kernel_facts_read(struct kernel_facts *k, const struct fsroot *root,
		      char *err, size_t errlen);

/* Whether the release is at least @major.@minor (TRI_UNKNOWN: unparsed). */
enum tri kernel_at_least(const struct kernel_facts *k, unsigned int major,
			 unsigned int minor);

/*
 * kernel_config() - CONFIG_@name in the kernel's build config: TRI_YES for
 * y or m, TRI_NO for "is not set" or absent, TRI_UNKNOWN without a config.
 */
enum tri kernel_config(const struct kernel_facts *k, const struct fsroot *root,
		       struct fsroot_refusal *refused, const char *name);

/*
 * kernel_symbol() - whether /proc/kallsyms lists @sym (a name is listed
 * even where addresses read as zeros).  TRI_UNKNOWN when unreadable.
 */
enum tri kernel_symbol(const struct fsroot *root,
		       struct fsroot_refusal *refused, const char *sym);

/* Whether /sys/module/@name exists (loaded, or built in with parameters). */
bool module_present(const struct fsroot *root, const char *name);
/*
 * module_value() - /sys/module/@name/@file ("version",
 * "parameters/multipath") into @buf.  Return: 0, or -1 when unreadable.
 */
int module_value(const struct fsroot *root, struct fsroot_refusal *refused,
		 const char *name, const char *file,
		 char *buf, size_t cap);

const char *tri_name(enum tri t);

#endif /* P2PDIAG_SYSTEM_KERNEL_H */
