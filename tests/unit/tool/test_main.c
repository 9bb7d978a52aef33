// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of p2pdiag-check's own code (options, sources, judgement,
 * reports).  Usage: test_tool FIXTURES_DIR
 *                   test_tool --make-tree DIR ok|redirect|blocked|dump:FILE|topo:FILE
 *                   test_tool --evidence-env P2PBANDWIDTHLATENCYTEST_OUTPUT
 * The second form writes a fake /sys/kernel/p2pdiag for the CLI tests;
 * the third prints the test doubles' settings that replay a measured
 * matrix (the GPU tests run the tool on them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "evidence/evidence.h"
#include "topology/source_pci.h"
#include "topology/topology_parse.h"

void test_options(struct ktap *k);
void test_sources(struct ktap *k, const char *fixtures);
void test_sysfs_vanish(struct ktap *k);
void test_judge(struct ktap *k);
void test_pair_scale(struct ktap *k);
void test_reports(struct ktap *k);
void test_fsroot(struct ktap *k);
void test_gpudirect(struct ktap *k, const char *fixtures);
void test_graph(struct ktap *k, const char *fixtures);
void test_system(struct ktap *k, const char *fixtures);
void test_causes(struct ktap *k);
void test_atomic_file(struct ktap *k);
void test_check(struct ktap *k);
void test_json_stream(struct ktap *k);
void test_fleet_scan(struct ktap *k);
void test_evidence(struct ktap *k, const char *fixtures);
void test_finding_registry(struct ktap *k);
void test_finding_registry_clean(struct ktap *k);

static int make_tree(const char *dir, const char *kind)
{
	struct p2pd_model m = { 0 };
	char err[512];
	int rc;

	if (!strncmp(kind, "dump:", 5)) {
		/* the tree the module would publish for this dump on AMD Zen */
		m.cpu_flags = P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P;
		if (pci_source_read(kind + 5, &m, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		m.generation = 3;
		rc = make_sysfs_tree(dir, &m, CURRENT_ABI_TEXT);
		p2pd_model_free(&m);
		return rc ? 1 : 0;
	}
	if (!strncmp(kind, "topo:", 5)) {
		/* the tree the module would publish for a saved topology */
		size_t len;
		char *text = read_whole(kind + 5, &len);

		rc = !text || topo_parse(text, len, &m, err, sizeof(err));
		if (rc)
			fprintf(stderr, "%s: %s\n", kind + 5, text ? err : "unreadable");
		else
			rc = make_sysfs_tree(dir, &m, CURRENT_ABI_TEXT);
		free(text);
		p2pd_model_free(&m);
		return rc ? 1 : 0;
	}
	if (!strcmp(kind, "ok"))
		switch_model(&m, 0, 0x8086);
	else if (!strcmp(kind, "redirect"))
		switch_model(&m, 0x001d, 0x8086);
	else if (!strcmp(kind, "blocked"))
		switch_model(&m, 0x001d, 0x1022);
	else
		return 2;
	rc = make_sysfs_tree(dir, &m, CURRENT_ABI_TEXT);
	free(m.fn);
	return rc ? 1 : 0;
}

/* One matrix as FAKE_CUDA_BW_*_MATRIX wants it: rows by ';', GB/s by ','. */
static void print_matrix(const char *name, const struct ev_matrix *m)
{
	unsigned int a, b;

	printf("%s=", name);
	for (a = 0; a < m->n; a++)
		for (b = 0; b < m->n; b++)
			printf("%.2f%s", a == b || m->v[a][b] != m->v[a][b] ? 0.0 : m->v[a][b],
			       b + 1 < m->n ? "," : a + 1 < m->n ? ";" : "\n");
}

/*
 * The test doubles' settings that replay a p2pBandwidthLatencyTest
 * output, read by the --evidence reader itself: per-pair P2P and staged
 * bandwidth, and the pairs CUDA refuses.
 */
static int evidence_env(const char *path)
{
	struct evidence *ev = malloc(sizeof(*ev));
	char err[256];
	unsigned int a, b, refused = 0;

	if (!ev)
		return 1;
	evidence_init(ev);
	if (evidence_load(ev, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		free(ev);
		return 1;
	}
	read_p2pbw(ev, 0);
	if (!ev->uni_on.have || !ev->uni_off.have) {
		fprintf(stderr, "%s: no P2P enabled and disabled tables\n", path);
		evidence_free(ev);
		free(ev);
		return 1;
	}
	print_matrix("FAKE_CUDA_BW_P2P_MATRIX", &ev->uni_on);
	print_matrix("FAKE_CUDA_BW_STAGED_MATRIX", &ev->uni_off);
	printf("FAKE_CUDA_NO_PEER=");
	for (a = 0; a < EV_GPU_MAX; a++)
		for (b = 0; b < EV_GPU_MAX; b++)
			if (ev->can_access[a][b] == 0)
				printf("%s%u-%u", refused++ ? "," : "", a, b);
	printf("\n");
	evidence_free(ev);
	free(ev);
	return 0;
}

int main(int argc, char **argv)
{
	struct ktap k = { 0 };

	if (argc == 4 && !strcmp(argv[1], "--make-tree"))
		return make_tree(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "--evidence-env"))
		return evidence_env(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR | --make-tree DIR ok|redirect|blocked|dump:FILE|topo:FILE | --evidence-env FILE\n",
			argv[0]);
		return 2;
	}
	ktap_start("p2pdiag-check");
	test_finding_registry(&k);
	test_options(&k);
	test_sources(&k, argv[1]);
	test_sysfs_vanish(&k);
	test_judge(&k);
	test_pair_scale(&k);
	test_reports(&k);
	test_json_stream(&k);
	test_fsroot(&k);
	test_gpudirect(&k, argv[1]);
	test_graph(&k, argv[1]);
	test_system(&k, argv[1]);
	test_causes(&k);
	test_atomic_file(&k);
	test_check(&k);
	test_fleet_scan(&k);
	test_evidence(&k, argv[1]);
	test_finding_registry_clean(&k);
	return ktap_finish(&k);
}
