// SPDX-License-Identifier: GPL-2.0
/*
 * Reading /sys/kernel/p2pdiag.
 *
 * A one-value attribute is read with a single bounded read(), as sysfs
 * serves it whole from one show() call; reading it in pieces could mix two
 * snapshots.  topology and pairs are binary attributes that hand out at
 * most a page per read(), so they are read to the end, with a size bound.
 * The module rebuilds its snapshot on hotplug: when the generation read
 * before and after differs, or a file's header names another generation,
 * the whole set is read again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topology/source_sysfs.h"
#include "platform/confined_path.h"
#include "platform/fsroot.h"
#include "platform/system_file.h"
#include "topology/iommu_type.h"
#include "topology/topology_parse.h"
#include "uapi/p2pdiag/abi.h"

/* @path beneath @root, which it starts with (source_sysfs.h) */
static const char *in_root(const char *root, const char *path)
{
	size_t n = root ? strlen(root) : 0;

	if (n && (strncmp(path, root, n) || path[n] != '/'))
		return NULL;
	return path + n;
}

int sysfs_read_value(const char *root, const char *path, char *buf, size_t cap,
		     mode_t *found)
{
	const char *rel = in_root(root, path);

	if (!rel) {
		errno = EINVAL;
		return -1;
	}
	return system_file_read_value(root, rel, buf, cap, SYSTEM_FILE_ONE_READ,
				      found);
}

/*
 * sysfs_read_table() - a whole topology or pairs file: read() to the end
 * (a binary attribute hands out at most a page per call), at most
 * SYSFS_TABLE_MAX bytes, NUL-terminated, in a malloc'd *@out; @root and
 * @path as sysfs_read_value().
 * Return: 0, or -1 with errno set.
 */
static int sysfs_read_table(const char *root, const char *path, char **out,
			    size_t *len, mode_t *found)
{
	const char *rel = in_root(root, path);

	if (!rel) {
		errno = EINVAL;
		return -1;
	}
	return system_file_read_all(root, rel, SYSFS_TABLE_MAX, out, len, found);
}

/* Digits at *@i of @text (up to @len) into *@v; *@i moves past them. */
static int read_decimal(const char *text, size_t len, size_t *i,
			unsigned long *v)
{
	size_t start = *i;

	*v = 0;
	for (; *i < len && text[*i] >= '0' && text[*i] <= '9'; (*i)++) {
		if (*v > (ULONG_MAX - 9) / 10)
			return -1;
		*v = *v * 10 + (unsigned long)(text[*i] - '0');
	}
	return *i == start ? -1 : 0;
}

/* "2" for P2PD_ABI_VERSION 2 */
#define ABI_WORD_OF(v)	#v
#define ABI_WORD(v)	ABI_WORD_OF(v)

int sysfs_header_generation(const char *text, size_t len, unsigned long *gen)
{
	static const char prefix[] = P2PD_HEADER_PREFIX;
	static const char gen_key[] = " " P2PD_HEADER_GENERATION "=";
	const char *nl = memchr(text, '\n', len);
	size_t end = nl ? (size_t)(nl - text) : 0, i;
	unsigned long abi, g;

	if (!nl || end < sizeof(prefix) - 1 ||
	    memcmp(text, prefix, sizeof(prefix) - 1))
		return -1;
	i = sizeof(prefix) - 1;
	if (read_decimal(text, end, &i, &abi) || abi != P2PD_ABI_VERSION ||
	    (i < end && text[i] != ' '))
		return -1;
	/* generation= wherever the header has it: keys may be added */
	for (; i < end; i++) {
		if (end - i < sizeof(gen_key) - 1 ||
		    memcmp(text + i, gen_key, sizeof(gen_key) - 1))
			continue;
		i += sizeof(gen_key) - 1;
		if (read_decimal(text, end, &i, &g) ||
		    (i < end && text[i] != ' '))
			return -1;
		*gen = g;
		return 0;
	}
	return -1;
}

int sysfs_strip_trailer(char *text, size_t *len, unsigned long gen)
{
	static const char prefix[] = P2PD_TRAILER_PREFIX;
	static const char bytes_key[] = P2PD_TRAILER_BYTES;
	unsigned long tgen = 0, bytes = 0;
	size_t start, i;

	if (!*len || text[*len - 1] != '\n')
		return -1;
	for (start = *len - 1; start > 0 && text[start - 1] != '\n'; start--)
		;
	if (*len - start < sizeof(prefix) ||
	    memcmp(text + start, prefix, sizeof(prefix) - 1))
		return -1;
	i = start + sizeof(prefix) - 1;
	if (read_decimal(text, *len, &i, &tgen) ||
	    *len - i < sizeof(bytes_key) ||
	    memcmp(text + i, bytes_key, sizeof(bytes_key) - 1))
		return -1;
	i += sizeof(bytes_key) - 1;
	if (read_decimal(text, *len, &i, &bytes) || i != *len - 1)
		return -1;
	if (tgen != gen || bytes != start)
		return -1;
	text[start] = '\0';
	*len = start;
	return 0;
}

/* Whether @root/abi_version exists: the module's tree as named. */
static int module_present(const char *root)
{
	int fd = confined_open(root, "/" P2PD_FILE_ABI_VERSION, O_PATH);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int sysfs_module_present(const struct fsroot *mod)
{
	return module_present(fsroot_get(mod));
}

int sysfs_root_check(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (stat(dir, &st)) {
		snprintf(err, errlen, "--sysfs-root %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "--sysfs-root %s is not a directory (it names a copy of %s)",
			 dir, P2PD_SYSFS_ROOT);
		return -1;
	}
	if (access(dir, R_OK | X_OK)) {
		snprintf(err, errlen, "--sysfs-root %s: %s", dir, strerror(errno));
		return -1;
	}
	fd = confined_open(dir, "/" P2PD_FILE_ABI_VERSION, O_PATH);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == ENOENT)
		snprintf(err, errlen,
			 "--sysfs-root %s holds no %s: it is not a copy of %s",
			 dir, P2PD_FILE_ABI_VERSION, P2PD_SYSFS_ROOT);
	else if (errno == EXDEV)
		snprintf(err, errlen,
			 "--sysfs-root %s: its %s is a symbolic link out of it: not followed",
			 dir, P2PD_FILE_ABI_VERSION);
	else
		snprintf(err, errlen, "--sysfs-root %s: %s: %s", dir,
			 P2PD_FILE_ABI_VERSION, strerror(errno));
	return -1;
}

/* Why a read failed with @e, for a message; @found as system_file_open(). */
static const char *read_error(int e, mode_t found)
{
	switch (e) {
	case EFBIG:
		return "larger than any file of the module";
	case EBADMSG:
		return "it holds a NUL byte, which no file of the module does";
	case EXDEV:
		return "a symbolic link on its way leads out of the tree: not followed";
	default:
		return system_file_strerror(e, found);
	}
}

/*
 * A read of @path under @root failed with @e.  A file that vanished
 * (ENOENT; ENODEV from a file that was open) while abi_version is gone
 * too means the module was unloaded between the reads: say so.
 */
static void read_failed(const char *root, const char *path, int e,
			mode_t found, char *err, size_t errlen)
{
	if ((e == ENOENT || e == ENODEV) && !module_present(root))
		snprintf(err, errlen,
			 "%s went away: the p2pdiag module was unloaded while it was read; run again once it is loaded, or with --source=pci",
			 path);
	else
		snprintf(err, errlen, "cannot read %s: %s", path,
			 read_error(e, found));
}

static int read_generation(const char *root, unsigned long *gen,
			   char *err, size_t errlen)
{
	char path[PATH_MAX], val[64], *end;
	mode_t found;

	snprintf(path, sizeof(path), "%s/%s", root, P2PD_FILE_GENERATION);
	if (sysfs_read_value(root, path, val, sizeof(val), &found)) {
		read_failed(root, path, errno, found, err, errlen);
		return -1;
	}
	errno = 0;
	*gen = strtoul(val, &end, 10);
	if (!val[0] || *end || errno || val[0] == '-') {
		snprintf(err, errlen, "%s holds '%.20s', not a generation number",
			 path, val);
		return -1;
	}
	return 0;
}

static int read_table(const char *root, const char *name, char **out,
		      size_t *len, char *err, size_t errlen)
{
	char path[PATH_MAX];
	mode_t found;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (sysfs_read_table(root, path, out, len, &found)) {
		if (errno == EFBIG)
			snprintf(err, errlen, "cannot read %s: larger than 64 MiB", path);
		else
			read_failed(root, path, errno, found, err, errlen);
		return -1;
	}
	return 0;
}

static void drop_tables(struct sysfs_snapshot *s)
{
	free(s->topology);
	free(s->pairs);
	s->topology = s->pairs = NULL;
	s->topology_len = s->pairs_len = 0;
}

int sysfs_snapshot_read(const struct fsroot *sys, const struct fsroot *mod,
			struct sysfs_snapshot *s, char *err, size_t errlen)
{
	const char *root = fsroot_get(mod);
	char path[PATH_MAX], val[64];
	unsigned long g1 = 0, g2 = 0, gt = 0, gp = 0;
	struct topo_header hdr;
	char perr[256];
	mode_t found;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/%s", root, P2PD_FILE_ABI_VERSION);
	if (sysfs_read_value(root, path, val, sizeof(val), &found)) {
		int e = errno;

		snprintf(err, errlen, "cannot read %s: %s%s", path,
			 read_error(e, found),
			 e == ENOENT ? " (is the p2pdiag module loaded?)" : "");
		return -1;
	}
	if (strcmp(val, ABI_WORD(P2PD_ABI_VERSION))) {
		snprintf(err, errlen,
			 "%s says ABI version '%.20s'; this p2pdiag-check reads version %d: install matching versions of the module and the tool",
			 path, val, P2PD_ABI_VERSION);
		return -1;
	}

	for (s->attempts = 1; s->attempts <= SYSFS_MAX_ATTEMPTS; s->attempts++) {
		drop_tables(s);
		if (read_generation(root, &g1, err, errlen) ||
		    read_table(root, P2PD_FILE_TOPOLOGY, &s->topology,
			       &s->topology_len, err, errlen) ||
		    read_table(root, P2PD_FILE_PAIRS, &s->pairs, &s->pairs_len,
			       err, errlen) ||
		    read_generation(root, &g2, err, errlen))
			goto fail;
		if (sysfs_header_generation(s->topology, s->topology_len, &gt)) {
			snprintf(err, errlen,
				 "%s/%s does not start with a '" P2PD_HEADER_PREFIX ABI_WORD(P2PD_ABI_VERSION) " generation=<n>' header (truncated or another ABI?)",
				 root, P2PD_FILE_TOPOLOGY);
			goto fail;
		}
		if (sysfs_header_generation(s->pairs, s->pairs_len, &gp)) {
			snprintf(err, errlen,
				 "%s/%s does not start with a '" P2PD_HEADER_PREFIX ABI_WORD(P2PD_ABI_VERSION) " generation=<n>' header (truncated or another ABI?)",
				 root, P2PD_FILE_PAIRS);
			goto fail;
		}
		if (g1 == g2 && gt == g1 && gp == g1)
			break;
	}
	if (s->attempts > SYSFS_MAX_ATTEMPTS) {
		snprintf(err, errlen,
			 "the snapshot changed while it was read, %d times in a row (generation %lu, files at %lu and %lu, then %lu): PCI devices are still coming and going; run again when they settle",
			 SYSFS_MAX_ATTEMPTS, g1, gt, gp, g2);
		s->attempts = SYSFS_MAX_ATTEMPTS;
		goto fail;
	}
	/*
	 * Equal generations before, in both headers and after mean one
	 * snapshot throughout; the trailers say nothing was cut off.
	 */
	if (sysfs_strip_trailer(s->topology, &s->topology_len, g1) ||
	    sysfs_strip_trailer(s->pairs, &s->pairs_len, g1)) {
		snprintf(err, errlen,
			 "%s/%s or %s does not end with its '%s%lu%s<bytes>' line: cut short, or a module from before the trailer (install matching versions of the module and the tool)",
			 root, P2PD_FILE_TOPOLOGY, P2PD_FILE_PAIRS,
			 P2PD_TRAILER_PREFIX, g1, P2PD_TRAILER_BYTES);
		goto fail;
	}
	s->generation = g1;
	if (topo_parse_ex(s->topology, s->topology_len, &s->model, &hdr, perr,
			  sizeof(perr))) {
		snprintf(err, errlen, "%s/%s: %s", root, P2PD_FILE_TOPOLOGY, perr);
		p2pd_model_free(&s->model);
		goto fail;
	}
	s->cpu_known = hdr.cpu_known;
	/* the module names groups; their types are in the groups' files */
	if (iommu_fill_group_types(sys, &s->model, err, errlen)) {
		p2pd_model_free(&s->model);
		goto fail;
	}
	return 0;
fail:
	drop_tables(s);
	return -1;
}

void sysfs_snapshot_free(struct sysfs_snapshot *s)
{
	drop_tables(s);
	p2pd_model_free(&s->model);
	memset(s, 0, sizeof(*s));
}
