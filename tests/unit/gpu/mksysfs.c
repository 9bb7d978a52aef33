// SPDX-License-Identifier: GPL-2.0
/*
 * mksysfs FIXTURE DIR: write what the p2pdiag module would publish for the
 * topology in FIXTURE (a .topo file of tests/unit/fixtures; its "expect"
 * lines are skipped) into DIR: abi_version, generation, topology, pairs.
 * p2pdiag-check --source=module --sysfs-root DIR then judges that machine
 * while the GPU test doubles play its GPUs, so the GPU findings can be
 * tested end to end (--topology-file turns CUDA off by design).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "topology/format_text.h"
#include "topology/topology_parse.h"

static int put(const char *dir, const char *name, const char *text, size_t len)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f) {
		perror(path);
		return -1;
	}
	rc = fwrite(text, 1, len, f) == len ? 0 : -1;
	return fclose(f) || rc ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct p2pd_model m;
	char *text = NULL, *line, *topo, *pairs, err[256], gen[32];
	size_t cap = 0, len = 0, tlen, plen;
	ssize_t n;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mksysfs FIXTURE.topo DIR\n");
		return 2;
	}
	f = fopen(argv[1], "re");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	line = NULL;
	while ((n = getline(&line, &cap, f)) >= 0) {
		if (!strncmp(line, "expect ", 7))
			continue;
		text = realloc(text, len + (size_t)n + 1);
		if (!text)
			return 1;
		memcpy(text + len, line, (size_t)n);
		len += (size_t)n;
	}
	free(line);
	fclose(f);
	if (!text || topo_parse(text, len, &m, err, sizeof(err))) {
		fprintf(stderr, "mksysfs: %s: %s\n", argv[1], text ? err : "empty");
		return 1;
	}
	topo = format_text(p2pd_format_topology_file, &m, &tlen);
	pairs = format_pairs_file(&m, &plen);
	snprintf(gen, sizeof(gen), "%lu\n", m.generation);
	if (!topo || !pairs || put(argv[2], P2PD_FILE_ABI_VERSION, "2\n", 2) ||
	    put(argv[2], P2PD_FILE_GENERATION, gen, strlen(gen)) ||
	    put(argv[2], P2PD_FILE_TOPOLOGY, topo, tlen) ||
	    put(argv[2], P2PD_FILE_PAIRS, pairs, plen))
		return 1;
	free(topo);
	free(pairs);
	free(text);
	p2pd_model_free(&m);
	return 0;
}
