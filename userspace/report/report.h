/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outputs of a run: the human report, JSON (schema 1, see SCHEMA.md),
 * the node_exporter textfile and the journal's lines.  They only read the run.
 */
#ifndef P2PDIAG_REPORT_H
#define P2PDIAG_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "judge/judgement.h"

#define REPORT_SCHEMA 1

/*
 * The human report; @colour only when stdout is a terminal; @verbose adds
 * each pair's engine line and every finding with its own fix.
 */
void report_text(FILE *out, const struct check_run *r, bool colour, bool verbose);

/*
 * report_json_write() - the JSON document of schema 1, written to @out as
 * it is produced, laid out for @flags as json_stream.h defines (no
 * newline after it).
 * Return: 0, or -1 with errno set when it could not be written whole (a
 * failed write, no memory): what is in @out then is no report.
 */
int report_json_write(FILE *out, const struct check_run *r, int flags);
/*
 * report_json_print() - --json: the document, pretty and spaced, and a
 * newline, flushed.  Return: 0, or -1 with errno set.
 */
int report_json_print(FILE *out, const struct check_run *r);

/* Which pairs get series of their own in the textfile (--prometheus-pairs). */
enum prom_pairs {
	PROM_PAIRS_NOT_OK,	/* redirected, blocked or unknown only */
	PROM_PAIRS_ALL,
};

/*
 * report_prom_write() - the node_exporter textfile @path, written to
 * "@path.tmp" and renamed over @path, so the collector never reads half.
 * Return: 0, or -1 with the reason in @err.
 */
int report_prom_write(const char *path, const struct check_run *r,
		      int exit_status, enum prom_pairs pairs, char *err,
		      size_t errlen);

/* The run in one word: healthy, degraded (warnings) or broken (errors). */
const char *report_state_word(const struct check_run *r);

/*
 * report_summary() - --summary: one line, the state word, then for a
 * warning or an error the worst cause's code, how many pairs it breaks
 * and what to do ("broken: acs-redirect (1 pair): boot with pci=...").
 * Return: 0, or -1 with errno set when it could not be written.
 */
int report_summary(FILE *out, const struct check_run *r);

/*
 * report_nfd_write() - --nfd-features: the feature file of Node Feature
 * Discovery's local source at @path (written as a dot file beside it and
 * renamed over it); with @exit_status 3 only p2p=unknown.
 * Return: 0, or -1 with the reason in @err.
 */
int report_nfd_write(const char *path, const struct check_run *r,
		     int exit_status, char *err, size_t errlen);

/*
 * report_journal() - the findings, one line each (and one per line of its
 * fix), with the sd-daemon(3) priority prefix of its severity, then a
 * summary line: for stderr under systemd (--journal).
 */
void report_journal(FILE *out, const struct check_run *r);

/* --graph: what the file name asks for. */
enum graph_format { GRAPH_INVALID, GRAPH_DOT, GRAPH_SVG, GRAPH_PNG };
enum graph_format report_graph_format(const char *path);

/*
 * report_graph_check() - whether --graph @path can be written as its name
 * asks: a known extension, and dot(1) in PATH for SVG and PNG.  Checked
 * before a run measures anything.  Return: 0, or -1 with the reason in @err.
 */
int report_graph_check(const char *path, char *err, size_t errlen);

/*
 * report_graph_pair() - the pair that @name (two labels such as GPU0, or
 * PCI addresses, as --graph-pair gave them) names, as an index into
 * r->judged.pair.  Return: 0, or -1 with the reason.
 */
int report_graph_pair(const struct check_run *r, const char *const name[2],
		      int *pair, char *err, size_t errlen);

/* The picture as DOT text, pair index @pair highlighted (-1: none).  Return: 0 or -1. */
int report_graph_dot(FILE *out, const struct check_run *r, int pair);

/*
 * report_graph_write() - --graph @path: DOT text, or SVG/PNG drawn by
 * dot(1), put in place by atomic_file_write().  Return: 0, or -1 with the
 * reason in @err.
 */
int report_graph_write(const char *path, const struct check_run *r, int pair,
		       char *err, size_t errlen);

/* "1.0.0": the version of the tool, from the build. */
const char *report_version(void);

#endif /* P2PDIAG_REPORT_H */
