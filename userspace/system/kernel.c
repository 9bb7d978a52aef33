// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel as its files show it.  The build config is looked
 * for where distributions install it (/boot/config-<release>) and in the
 * module build tree; /proc/config.gz is compressed and not read, so a
 * kernel that only has that reads as "config unknown", never as "no".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/kernel.h"
#include "platform/fsroot.h"

/* where the config of release R is: before R, after R */
static const char *const config_places[][2] = {
	{ "/boot/config-", "" },
	{ "/lib/modules/", "/build/.config" },
	{ "/lib/modules/", "/config" },
};

int kernel_facts_read(struct kernel_facts *k, const struct fsroot *root,
		      char *err, size_t errlen)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	k->have_release = !fsroot_read_fact(root, k->release, sizeof(k->release),
					    err, errlen,
					    "/proc/sys/kernel/osrelease");
	if (err[0])
		return -1;
	if (k->have_release &&
	    sscanf(k->release, "%u.%u", &k->major, &k->minor) != 2)
		k->major = k->minor = 0;
	k->have_cmdline = !fsroot_read_fact(root, k->cmdline, sizeof(k->cmdline),
					    err, errlen, "/proc/cmdline");
	if (err[0])
		return -1;
	for (i = 0; k->have_release && i < sizeof(config_places) /
	     sizeof(config_places[0]); i++) {
		char live[PATH_MAX];

		snprintf(live, sizeof(live), "%s%s%s", config_places[i][0], k->release,
			 config_places[i][1]);
		if (fsroot_exists(root, "%s", live)) {
			snprintf(k->config, sizeof(k->config), "%s", live);
			break;
		}
	}
	return 0;
}

enum tri kernel_at_least(const struct kernel_facts *k, unsigned int major,
			 unsigned int minor)
{
	if (!k->major)
		return TRI_UNKNOWN;
	return k->major > major || (k->major == major && k->minor >= minor) ?
	       TRI_YES : TRI_NO;
}

enum tri kernel_config(const struct kernel_facts *k, const struct fsroot *root,
		       struct fsroot_refusal *refused, const char *name)
{
	char line[512], want[128];
	enum tri t = TRI_NO;
	size_t wlen;
	FILE *f;

	if (!k->config[0])
		return TRI_UNKNOWN;
	f = fsroot_fopen(root, refused, "%s", k->config);
	if (!f)
		return TRI_UNKNOWN;
	wlen = (size_t)snprintf(want, sizeof(want), "CONFIG_%s=", name);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, wlen)) {
			t = line[wlen] == 'y' || line[wlen] == 'm' ? TRI_YES : TRI_NO;
			break;
		}
	}
	fclose(f);
	return t;
}

enum tri kernel_symbol(const struct fsroot *root,
		       struct fsroot_refusal *refused, const char *sym)
{
	char line[512];
	size_t slen = strlen(sym);
	enum tri t = TRI_NO;
	FILE *f = fsroot_fopen(root, refused, "/proc/kallsyms");

	if (!f)
		return TRI_UNKNOWN;
	/* "<address> <type> <name>[\t[module]]" */
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, ' ');

		if (name)
			name = strchr(name + 1, ' ');
		if (name && !strncmp(name + 1, sym, slen) &&
		    strchr("\t\n", name[1 + slen]) && name[1 + slen]) {
			t = TRI_YES;
			break;
		}
	}
	fclose(f);
	return t;
}

bool module_present(const struct fsroot *root, const char *name)
{
	return fsroot_exists(root, "/sys/module/%s", name);
}

int module_value(const struct fsroot *root, struct fsroot_refusal *refused,
		 const char *name, const char *file,
		 char *buf, size_t cap)
{
	return fsroot_read(root, refused, buf, cap, "/sys/module/%s/%s", name,
			   file);
}

const char *tri_name(enum tri t)
{
	return t == TRI_YES ? "yes" : t == TRI_NO ? "no" : "unknown";
}
