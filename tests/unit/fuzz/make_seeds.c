// SPDX-License-Identifier: GPL-2.0
/*
 * Seed corpora made from the repository's fixtures when the fuzzers run,
 * so that the seeds are always in today's formats:
 *
 *   make_seeds sysfs DIR FIXTURE.topo...   each fixture as the module
 *       publishes it (topology file, a form feed, pairs file; generation 7)
 *   make_seeds baseline DIR TOOL_FIXTURES  the baselines of the fixture
 *       servers fleet-after (fuzz_server.h) and fleet-before
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_server.h"
#include "judge/judge.h"
#include "report/baseline.h"
#include "tool_util.h"
#include "topology/format_text.h"
#include "topology/topology_parse.h"

/* The fixture's text without its "expect" lines (the parser's input). */
static char *topology_part(const char *path, size_t *len)
{
	char *text = read_whole(path, len), *in, *out;

	if (!text)
		return NULL;
	for (in = out = text; *in;) {
		size_t n = strcspn(in, "\n");

		if (in[n] == '\n')
			n++;
		if (strncmp(in, "expect ", 7)) {
			memmove(out, in, n);
			out += n;
		}
		in += n;
	}
	*out = '\0';
	*len = (size_t)(out - text);
	return text;
}

static int sysfs_seed(const char *dir, const char *fixture)
{
	char path[PATH_MAX], err[256], *text, *topo, *pairs, *name;
	size_t len, tlen, plen;
	struct p2pd_model m;
	FILE *f;
	int rc = -1;

	text = topology_part(fixture, &len);
	if (!text || topo_parse(text, len, &m, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", fixture, text ? err : "unreadable");
		free(text);
		return -1;
	}
	m.generation = 7;
	topo = format_text(p2pd_format_topology_file, &m, &tlen);
	pairs = format_text(p2pd_format_pairs_file, &m, &plen);
	name = strdup(fixture);
	snprintf(path, sizeof(path), "%s/%s", dir, basename(name));
	f = topo && pairs ? fopen(path, "we") : NULL;
	if (f) {
		fwrite(topo, 1, tlen, f);
		fputc('\f', f);
		fwrite(pairs, 1, plen, f);
		rc = fclose(f) ? -1 : 0;
	}
	if (rc)
		perror(path);
	free(name);
	free(pairs);
	free(topo);
	p2pd_model_free(&m);
	free(text);
	return rc;
}

static int baseline_seeds(const char *dir, const char *fixtures)
{
	struct fixture_run f;
	char path[PATH_MAX], err[512];
	int rc;

	if (fuzz_server_load(&f, fixtures))
		return -1;
	snprintf(path, sizeof(path), "%s/fleet-after.json", dir);
	rc = baseline_save(path, &f.r, err, sizeof(err));
	f.r.in.gpu = NULL;
	fixture_unload(&f);
	if (!rc) {
		fixture_load(&f, fixtures, "fleet-before");
		if (!f.ok)
			return -1;
		judge_topology(&f.r);
		judge_gpus(&f.r);
		snprintf(path, sizeof(path), "%s/fleet-before.json", dir);
		rc = baseline_save(path, &f.r, err, sizeof(err));
		fixture_unload(&f);
	}
	if (rc)
		fprintf(stderr, "%s\n", err);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc >= 4 && !strcmp(argv[1], "sysfs")) {
		for (i = 3; i < argc; i++)
			rc |= sysfs_seed(argv[2], argv[i]);
		return rc ? 1 : 0;
	}
	if (argc == 4 && !strcmp(argv[1], "baseline"))
		return baseline_seeds(argv[2], argv[3]) ? 1 : 0;
	fprintf(stderr, "usage: make_seeds sysfs DIR FIXTURE.topo...\n"
		"       make_seeds baseline DIR TOOL_FIXTURES\n");
	return 2;
}
