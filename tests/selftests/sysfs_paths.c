// SPDX-License-Identifier: GPL-2.0
/* Roots and file helpers of the p2pdiag selftests (see sysfs_paths.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "../../include/uapi/p2pdiag/abi.h"
#include "sysfs_paths.h"

#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

const char *st_p2pdiag_root(void)
{
	return env_or("P2PDIAG_SYSFS", "/sys/kernel/p2pdiag");
}

const char *st_pci_root(void)
{
	return env_or("PCI_SYSFS", "/sys/bus/pci/devices");
}

const char *st_iommu_root(void)
{
	return env_or("IOMMU_SYSFS", "/sys/kernel/iommu_groups");
}

const char *st_params_root(void)
{
	return env_or("P2PDIAG_PARAMS", "/sys/module/p2pdiag/parameters");
}

const char *st_topo_path(void)
{
	return env_or("LAB_TOPO", "/lab/topo");
}

const char *st_cmdline_path(void)
{
	return env_or("PROC_CMDLINE", "/proc/cmdline");
}

int st_module_loaded(void)
{
	struct stat st;

	return stat(st_p2pdiag_root(), &st) == 0 && S_ISDIR(st.st_mode);
}

char *st_read_file(const char *path, size_t block, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap + 1);
	int fd, saved;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		goto free_buf;
	for (;;) {
		ssize_t n;

		if (cap - used < block) {
			char *bigger;

			cap = 2 * cap + block;
			bigger = realloc(buf, cap + 1);
			if (!bigger)
				goto close_fd;
			buf = bigger;
		}
		n = read(fd, buf + used, block);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto close_fd;
		}
		if (n == 0)
			break;
		used += n;
	}
	close(fd);
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;

close_fd:
	saved = errno;
	close(fd);
	errno = saved;
free_buf:
	saved = errno;
	free(buf);
	errno = saved;
	return NULL;
}

int st_read_value(const char *path, char *out, size_t size, int *nl)
{
	size_t len;
	char *text = st_read_file(path, 4096, &len);

	if (!text)
		return -1;
	*nl = len > 0 && text[len - 1] == '\n' && memchr(text, '\n', len) == text + len - 1;
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	snprintf(out, size, "%s", text);
	free(text);
	return 0;
}

int st_check_trailer(char *text, size_t len, char *why, size_t size)
{
	static const char gen_key[] = " generation=";
	unsigned long long head_gen, tail_gen, bytes;
	char *last, *g, *p, *e;

	if (!len || text[len - 1] != '\n' || strlen(text) != len) {
		snprintf(why, size, "does not end in a newline (%zu bytes)", len);
		return -1;
	}
	text[len - 1] = '\0';
	last = strrchr(text, '\n');
	last = last ? last + 1 : text;
	text[len - 1] = '\n';
	g = strstr(text, gen_key);
	if (!g || g > strchr(text, '\n') ||
	    sscanf(g + strlen(gen_key), "%llu", &head_gen) != 1) {
		snprintf(why, size, "no generation= in the header line");
		return -1;
	}
	p = last + strlen(P2PD_TRAILER_PREFIX);
	if (strncmp(last, P2PD_TRAILER_PREFIX, strlen(P2PD_TRAILER_PREFIX)))
		goto bad_form;
	tail_gen = strtoull(p, &e, 10);
	if (e == p || strncmp(e, P2PD_TRAILER_BYTES, strlen(P2PD_TRAILER_BYTES)))
		goto bad_form;
	p = e + strlen(P2PD_TRAILER_BYTES);
	bytes = strtoull(p, &e, 10);
	if (e == p || strcmp(e, "\n"))
		goto bad_form;
	if (tail_gen != head_gen || bytes != (unsigned long long)(last - text)) {
		snprintf(why, size,
			 "trailer says generation %llu, %llu bytes; the header says generation %llu and the trailer starts at byte %zu: spliced or cut",
			 tail_gen, bytes, head_gen, (size_t)(last - text));
		return -1;
	}
	*last = '\0';
	return 0;

bad_form:
	snprintf(why, size, "last line '%.80s' is not '%s<n>%s<b>'", last,
		 P2PD_TRAILER_PREFIX, P2PD_TRAILER_BYTES);
	return -1;
}

/* Lower-case hex digits only, @n of them. */
static int lower_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The domain's digits: four, or five to eight without a leading zero. */
static size_t domain_len(const char *s)
{
	size_t n = strcspn(s, ":");

	return n >= 4 && n <= 8 && (n == 4 || s[0] != '0') ? n : 0;
}

int st_is_addr(const char *s)
{
	static const char shape[] = ":xx:xx.x";
	size_t d = domain_len(s), i;

	if (!d || !lower_hex(s, d) || strlen(s + d) != sizeof(shape) - 1)
		return 0;
	s += d;
	for (i = 0; shape[i]; i++) {
		if (shape[i] == 'x') {
			if (!lower_hex(s + i, 1))
				return 0;
		} else if (s[i] != shape[i]) {
			return 0;
		}
	}
	/* device 0..1f, function 0..7 */
	return strtoul(s + 4, NULL, 16) <= 0x1f && s[7] <= '7';
}

/*
 * Address order, as the module sorts: a longer domain is a larger one
 * (no leading zeros past four digits), and within a length text order is
 * numeric order.
 */
static int cmp_addr(const void *a, const void *b)
{
	size_t la = strcspn(a, ":"), lb = strcspn(b, ":");

	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a, b);
}

int st_list_addrs(const char *dir, char (*addrs)[ST_ADDR_LEN], int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!st_is_addr(e->d_name))
			continue;
		if (n == max)
			break;
		snprintf(addrs[n++], ST_ADDR_LEN, "%s", e->d_name);
	}
	closedir(d);
	qsort(addrs, n, ST_ADDR_LEN, cmp_addr);
	return n;
}

int st_all_endpoints(void)
{
	char path[512], v[64];
	int nl;

	snprintf(path, sizeof(path), "%s/endpoints", st_params_root());
	if (st_read_value(path, v, sizeof(v), &nl))
		return 0;
	return strcmp(v, "all") == 0;
}

int st_on_sysfs(const char *path)
{
	struct statfs sfs;

	return statfs(path, &sfs) == 0 && sfs.f_type == SYSFS_MAGIC;
}
