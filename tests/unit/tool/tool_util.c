// SPDX-License-Identifier: GPL-2.0
/* Helpers for the p2pdiag-check unit tests (see tool_util.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tool_util.h"
#include "platform/fsroot.h"
#include "topology/format_text.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

static struct p2pd_function port(unsigned long long addr, enum p2pd_role role,
				 int has_parent, unsigned long long parent,
				 unsigned int acs_ctrl)
{
	struct p2pd_function f = { 0 };

	f.addr = addr;
	f.role = role;
	f.has_parent = has_parent;
	f.parent = parent;
	f.host_bridge = P2PD_HOST_BRIDGE(0, 0);
	f.numa_node = 0;
	f.vendor = 0x10b5;		/* PLX/Broadcom switch */
	f.device = 0x9797;
	f.class_code = 0x060400;
	f.acs = P2PD_PRESENT;
	f.acs_cap = 0x005f;
	f.acs_ctrl = acs_ctrl;
	f.ats = f.pri = f.pasid = P2PD_ABSENT;
	f.link = (struct p2pd_link){ P2PD_PRESENT, 160, 16, 160, 16 };
	f.iommu_group = -1;
	f.iommu_domain = P2PD_IOMMU_NONE;
	return f;
}

void switch_model(struct p2pd_model *m, unsigned int dsp_acs,
		  unsigned int host_vendor)
{
	struct p2pd_function *fn = calloc(10, sizeof(*fn));
	unsigned int i, n = 0;

	if (!fn)
		abort();
	memset(m, 0, sizeof(*m));
	fn[n] = port(P2PD_ADDR(0, 0, 0, 0), P2PD_ROLE_PCI_DEVICE, 0, 0, 0);
	fn[n].acs = P2PD_ABSENT;
	fn[n].link.state = P2PD_ABSENT;
	fn[n].vendor = host_vendor;
	fn[n].device = 0x2020;
	fn[n++].class_code = 0x060000;
	fn[n] = port(P2PD_ADDR(0, 0, 1, 0), P2PD_ROLE_ROOT_PORT, 0, 0, 0);
	fn[n].vendor = 0x8086;
	fn[n++].device = 0x2030;
	fn[n++] = port(P2PD_ADDR(0, 1, 0, 0), P2PD_ROLE_UPSTREAM_PORT, 1,
		       P2PD_ADDR(0, 0, 1, 0), 0);
	for (i = 0; i < 3; i++)
		fn[n++] = port(P2PD_ADDR(0, 2, 8 * (i + 1), 0),
			       P2PD_ROLE_DOWNSTREAM_PORT, 1,
			       P2PD_ADDR(0, 1, 0, 0), dsp_acs);
	for (i = 0; i < 3; i++) {
		struct p2pd_function *g = &fn[n++];

		*g = port(P2PD_ADDR(0, 3 + i, 0, 0), P2PD_ROLE_ENDPOINT, 1,
			  P2PD_ADDR(0, 2, 8 * (i + 1), 0), 0);
		g->acs = P2PD_ABSENT;
		g->vendor = 0x10de;
		g->device = 0x2330;
		g->class_code = 0x030200;
		g->p2p_endpoint = 1;
	}
	m->fn = fn;
	m->nr_fn = n;
	m->cpu_flags = 0;
	m->kernel_release = 0;
	m->generation = 7;
}

char *make_tmpdir(void)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *path = malloc(PATH_MAX);

	if (!path)
		abort();
	snprintf(path, PATH_MAX, "%s/p2pdiag-tool-XXXXXX", base);
	if (!mkdtemp(path)) {
		perror("mkdtemp");
		abort();
	}
	return path;
}

void remove_tree(const char *dir)
{
	char cmd[PATH_MAX + 16];

	if (!dir || !strstr(dir, "p2pdiag-tool-"))
		return;		/* never anything but our own */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", dir);
}

int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = fwrite(text, 1, len, f) == len ? 0 : -1;
	return fclose(f) || rc ? -1 : 0;
}

char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, 4096, f);

		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int make_sysfs_tree(const char *dir, const struct p2pd_model *m,
		    const char *abi)
{
	char path[PATH_MAX], gen[32], *text;
	size_t len;
	unsigned int i;
	int field, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, P2PD_FILE_ABI_VERSION);
	rc |= write_file(path, abi, strlen(abi));
	snprintf(gen, sizeof(gen), "%lu\n", m->generation);
	snprintf(path, sizeof(path), "%s/%s", dir, P2PD_FILE_GENERATION);
	rc |= write_file(path, gen, strlen(gen));
	text = format_text(p2pd_format_topology_file, m, &len);
	if (!text)
		abort();
	snprintf(path, sizeof(path), "%s/%s", dir, P2PD_FILE_TOPOLOGY);
	rc |= write_file(path, text, len);
	free(text);
	text = format_pairs_file(m, &len);
	if (!text)
		abort();
	snprintf(path, sizeof(path), "%s/%s", dir, P2PD_FILE_PAIRS);
	rc |= write_file(path, text, len);
	free(text);
	snprintf(path, sizeof(path), "%s/%s", dir, P2PD_DIR_DEVICES);
	mkdir(path, 0755);
	for (i = 0; i < m->nr_fn; i++) {
		char a[P2PD_ADDR_STRLEN], val[200];
		struct p2pd_buf b;

		p2pd_buf_init(&b, a, sizeof(a));
		p2pd_put_addr(&b, m->fn[i].addr);
		p2pd_buf_terminate(&b);
		snprintf(path, sizeof(path), "%s/%s/%s", dir, P2PD_DIR_DEVICES, a);
		mkdir(path, 0755);
		for (field = 0; field < P2PD_F_COUNT; field++) {
			p2pd_buf_init(&b, val, sizeof(val) - 1);
			p2pd_format_field(&b, &m->fn[i], field);
			p2pd_put_char(&b, '\n');
			p2pd_buf_terminate(&b);
			snprintf(path, sizeof(path), "%s/%s/%s/%s", dir,
				 P2PD_DIR_DEVICES, a, p2pd_field_name(field));
			rc |= write_file(path, val, strlen(val));
		}
	}
	return rc;
}

const struct fsroot *tool_live_root(void)
{
	static struct fsroot live;
	static bool made;
	char err[64];

	if (!made)
		made = !fsroot_init(&live, NULL, err, sizeof(err));
	return &live;
}

const struct fsroot *tool_tree_root(const char *dir)
{
	static struct fsroot tree;

	if (fsroot_init_tree(&tree, dir)) {
		fprintf(stderr, "# tool_tree_root %s: %s\n", dir, strerror(errno));
		abort();
	}
	return &tree;
}

void judge_run(struct check_run *r, const struct p2pd_model *m,
	       const struct options *o)
{
	char err[256];
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->in.root = tool_live_root();
	r->in.model = m;
	for (i = 0; i < o->nr_pairs; i++)
		r->in.selection.addr[i] = o->pairs[i];
	r->in.selection.nr = o->nr_pairs;
	r->in.params.min_ratio = o->min_ratio;
	r->in.params.timeout_s = o->timeout_s;
	r->in.source = "test";
	snprintf(r->in.source_detail, sizeof(r->in.source_detail), "unit test");
	if (judge_pairs(r, err, sizeof(err))) {
		fprintf(stderr, "# judge_pairs: %s\n", err);
		abort();
	}
}

int make_null_device(const char *path)
{
	return mknod(path, S_IFCHR | 0600, makedev(1, 3));
}
