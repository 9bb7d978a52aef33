// SPDX-License-Identifier: GPL-2.0
/*
 * engine_scale: what one module rebuild costs after the walk, measured in
 * userspace with the module's own engine: group the endpoints, size and
 * fill the grouped pairs file (the two passes snapshot.c makes, with its
 * limit), then read one endpoint's own pairs file in 4 KiB read() calls as
 * sysfs serves devices/<addr>/pairs.  Prints figures; asserts nothing (a
 * benchmark: tests/bench/README.md holds what it printed).
 *
 *   engine_scale SWITCHES NICS VFS [LIMIT_BYTES [VF_LINK]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "p2pdiag/endpoint_groups.h"
#include "p2pdiag/format.h"
#include "sriov_model.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double peak_mib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

int main(int argc, char **argv)
{
	struct sriov_spec spec = { 0 };
	unsigned long limit = argc > 4 ? strtoul(argv[4], NULL, 10) : 16ul << 20;
	struct p2pd_model m;
	struct p2pd_groups g;
	struct p2pd_buf b;
	double t0, t_group, t_text, t_view;
	unsigned long view_bytes = 0, reads = 0;
	char *text, page[4096];
	int *storage, x;

	if (argc < 4) {
		fprintf(stderr, "usage: engine_scale SWITCHES NICS VFS [LIMIT_BYTES [VF_LINK]]\n");
		return 2;
	}
	spec.switches = (unsigned int)atoi(argv[1]);
	spec.nics = (unsigned int)atoi(argv[2]);
	spec.vfs = (unsigned int)atoi(argv[3]);
	spec.vf_link = argc > 5 && atoi(argv[5]);
	if (sriov_model(&spec, &m)) {
		fprintf(stderr, "engine_scale: that server does not fit the builder\n");
		return 2;
	}
	printf("functions %u, pairs %lu, peak before %.1f MiB\n", m.nr_fn,
	       p2pd_count_pairs(&m), peak_mib());

	t0 = now();
	storage = malloc(sizeof(int) * P2PD_GROUP_INTS_PER_FN * m.nr_fn);
	if (!storage)
		return 1;
	p2pd_groups_attach(&g, storage, m.nr_fn);
	p2pd_group_endpoints(&m, &g);
	t_group = now() - t0;

	t0 = now();
	p2pd_buf_init_cap(&b, limit);
	p2pd_format_pairs_grouped_file(&b, &m, &g);
	if (p2pd_buf_full(&b)) {
		printf("grouped pairs file: more than the limit, %lu bytes: status=limit-exceeded\n",
		       limit);
		text = NULL;
	} else {
		text = malloc(b.len + 1);
		if (!text)
			return 1;
		p2pd_buf_init(&b, text, b.len + 1);
		p2pd_format_pairs_grouped_file(&b, &m, &g);
		p2pd_buf_terminate(&b);
	}
	t_text = now() - t0;
	printf("groups %u, group pairs %lu; grouping %.1f ms, pairs file %lu bytes in %.1f ms (two passes)\n",
	       g.nr, p2pd_count_group_pairs(&g), t_group * 1e3,
	       text ? b.len : 0ul, t_text * 1e3);

	/* the last endpoint's own file, a page a read() */
	for (x = (int)m.nr_fn - 1; x >= 0 && !m.fn[x].p2p_endpoint; x--)
		;
	t0 = now();
	for (;;) {
		unsigned long got;

		p2pd_buf_init_window(&b, page, sizeof(page), view_bytes);
		p2pd_format_endpoint_pairs_file(&b, &m, &g, x);
		got = b.len > view_bytes ? b.len - view_bytes : 0;
		if (got > sizeof(page))
			got = sizeof(page);
		if (!got)
			break;
		view_bytes += got;
		reads++;
	}
	t_view = now() - t0;
	printf("one endpoint's pairs file: %lu bytes in %lu reads, %.1f ms (%.2f ms a read)\n",
	       view_bytes, reads, t_view * 1e3, reads ? t_view * 1e3 / (double)reads : 0.0);
	printf("rebuild after the walk: %.1f ms; peak memory %.1f MiB\n",
	       (t_group + t_text) * 1e3, peak_mib());
	free(text);
	free(storage);
	free(m.fn);
	return 0;
}
