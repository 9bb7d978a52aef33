// SPDX-License-Identifier: GPL-2.0
/*
 * The outputs of a check, one table: each with the option that asks for
 * it, its writer, when it is written and whether it owns stdout.  Adding
 * an output is a line here, its option (options.c) and its writer.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/judgement.h"
#include "judge/outcome.h"
#include "options.h"
#include "outputs.h"
#include "platform/atomic_file.h"
#include "report/baseline.h"
#include "report/report.h"

struct output_call {
	const struct check_run *run;
	const struct options *opt;
	int status;
	int graph_pair;
};

/*
 * The report on stdout, flushed.  A reader that went away (a closed pipe)
 * is a write error like a full disk, said and exit status 3, not a
 * silent death by SIGPIPE: the report is the last thing on stdout.
 */
static int write_stdout_report(const struct output_call *c, char *err, size_t errlen)
{
	const struct options *o = c->opt;
	bool colour = !o->no_color && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	int rc = 0;

	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	if (o->json)
		rc = report_json_print(stdout, c->run);
	else if (o->summary)
		rc = report_summary(stdout, c->run);
	else
		report_text(stdout, c->run, colour, o->verbose);
	if (!rc && (fflush(stdout) || ferror(stdout)))
		rc = -1;
	if (!rc)
		return 0;
	snprintf(err, errlen, "cannot write the %s report to stdout: %s",
		 o->json ? "JSON" : o->summary ? "summary" : "text",
		 strerror(errno ? errno : EIO));
	return -1;
}

static int write_journal(const struct output_call *c, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	report_journal(stderr, c->run);
	return 0;
}

static int json_to(FILE *f, const void *run)
{
	return report_json_print(f, run);
}

static int write_json_file(const struct output_call *c, char *err, size_t errlen)
{
	return atomic_file_write(c->opt->json_file, json_to, c->run, err, errlen);
}

static int write_graph(const struct output_call *c, char *err, size_t errlen)
{
	if (report_graph_write(c->opt->graph, c->run, c->graph_pair, err, errlen))
		return -1;
	fprintf(stderr, "p2pdiag-check: the PCI tree is drawn in %s\n", c->opt->graph);
	return 0;
}

static int write_baseline(const struct output_call *c, char *err, size_t errlen)
{
	return baseline_save(c->opt->baseline_file, c->run, err, errlen);
}

static int write_prometheus(const struct output_call *c, char *err, size_t errlen)
{
	return report_prom_write(c->opt->prometheus, c->run, c->status,
				 c->opt->prometheus_all_pairs ? PROM_PAIRS_ALL : PROM_PAIRS_NOT_OK,
				 err, errlen);
}

static int write_nfd(const struct output_call *c, char *err, size_t errlen)
{
	return report_nfd_write(c->opt->nfd_features, c->run, c->status, err, errlen);
}

static bool always(const struct options *o)
{
	(void)o;
	return true;
}

static bool journal_asked(const struct options *o)
{
	return o->journal;
}

static bool json_file_asked(const struct options *o)
{
	return o->json_file;
}

static bool graph_asked(const struct options *o)
{
	return o->graph;
}

static bool baseline_save_asked(const struct options *o)
{
	return o->baseline == BASELINE_SAVE;
}

static bool prometheus_asked(const struct options *o)
{
	return o->prometheus;
}

static bool nfd_asked(const struct options *o)
{
	return o->nfd_features;
}

/*
 * In the order written.  The textfiles come last and also after a failed
 * run, so that a health check sees exit status 3, not the last good
 * run's metrics.
 */
static const struct output {
	const char *option;
	bool (*asked)(const struct options *o);
	int (*write)(const struct output_call *c, char *err, size_t errlen);
	enum output_phase phase;
	bool owns_stdout;
} outputs[] = {
	{ "the report",		always,			write_stdout_report,	OUTPUT_AFTER_VERDICT, true },
	{ "--journal",		journal_asked,		write_journal,		OUTPUT_AFTER_VERDICT, false },
	{ "--json=FILE",	json_file_asked,	write_json_file,	OUTPUT_AFTER_VERDICT, false },
	{ "--graph",		graph_asked,		write_graph,		OUTPUT_AFTER_VERDICT, false },
	{ "--baseline save",	baseline_save_asked,	write_baseline,		OUTPUT_AFTER_VERDICT, false },
	{ "--prometheus",	prometheus_asked,	write_prometheus,	OUTPUT_ALWAYS, false },
	{ "--nfd-features",	nfd_asked,		write_nfd,		OUTPUT_ALWAYS, false },
};

int outputs_write(const struct check_run *r, const struct options *o,
		  enum output_phase phase, int status, int graph_pair,
		  void (*say)(const char *msg))
{
	struct output_call c = { .run = r, .opt = o, .status = status, .graph_pair = graph_pair };
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		const struct output *out = &outputs[i];

		if (out->phase != phase || !out->asked(o))
			continue;
		err[0] = '\0';
		if (!out->write(&c, err, sizeof(err)))
			continue;
		say(err[0] ? err : out->option);
		/* stdout's report is cut: exit 3 whatever the verdict */
		if (out->owns_stdout || status == EXIT_ALL_GOOD)
			status = EXIT_USAGE;
		c.status = status;
	}
	return status;
}
