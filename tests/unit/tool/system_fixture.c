// SPDX-License-Identifier: GPL-2.0
/* Loading the system fixture trees for the unit tests. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system_fixture.h"
#include "tool_util.h"
#include "judge/system_checks.h"
#include "topology/topology_parse.h"

void fixture_load(struct fixture_run *f, const char *fixtures, const char *tree)
{
	char path[PATH_MAX], err[256];
	size_t len;
	char *text;

	memset(f, 0, sizeof(*f));
	options_defaults(&f->o);
	snprintf(path, sizeof(path), "%s/system/%s/p2pdiag.topo", fixtures, tree);
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "%s/system/server.topo", fixtures);
	text = read_whole(path, &len);
	if (!text || topo_parse(text, len, &f->m, err, sizeof(err))) {
		fprintf(stderr, "# %s: %s\n", path, text ? err : "unreadable");
		free(text);
		return;
	}
	free(text);
	snprintf(path, sizeof(path), "%s/system/%s", fixtures, tree);
	if (fsroot_init(&f->root, path, err, sizeof(err))) {
		fprintf(stderr, "# %s\n", err);
		p2pd_model_free(&f->m);
		return;
	}
	judge_run(&f->r, &f->m, &f->o);
	f->r.in.root = &f->root;
	if (system_begin(&f->r.in, &f->s, true, err, sizeof(err))) {
		fprintf(stderr, "# %s\n", err);
		findings_free(&f->r.judged.findings);
		judge_release(&f->r);
		p2pd_model_free(&f->m);
		return;
	}
	system_judge_before(&f->r, &f->s);
	system_before_copies(&f->r.in, &f->s);
	system_inspect(&f->r.in, &f->s);
	system_judge(&f->r, &f->s);
	f->ok = true;
}

void fixture_unload(struct fixture_run *f)
{
	if (!f->ok)
		return;
	system_report_free(&f->s);
	findings_free(&f->r.judged.findings);
	judge_release(&f->r);
	p2pd_model_free(&f->m);
	f->ok = false;
}

size_t fixture_count(const struct fixture_run *f, const char *code)
{
	return f->ok ? findings_count_code(&f->r.judged.findings, code) : (size_t)-1;
}

const char *fixture_message(const struct fixture_run *f, const char *code)
{
	size_t i;

	for (i = 0; f->ok && i < f->r.judged.findings.nr; i++)
		if (!strcmp(f->r.judged.findings.item[i].code, code))
			return f->r.judged.findings.item[i].message;
	return "";
}
