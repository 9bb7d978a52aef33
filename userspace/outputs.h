/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a check writes, from one table (outputs.c): the report on stdout,
 * the journal's lines, and the file each output option names.
 */
#ifndef P2PDIAG_OUTPUTS_H
#define P2PDIAG_OUTPUTS_H

struct check_run;
struct options;

/* When an output is written. */
enum output_phase {
	OUTPUT_AFTER_VERDICT,	/* once the run is judged */
	OUTPUT_ALWAYS,		/* last, a failed run too: a health check reads exit 3 */
};

/**
 * outputs_write() - write every output of @phase that @o asks for.
 * @r:		the run (judged, for OUTPUT_AFTER_VERDICT)
 * @o:		the options that name the outputs
 * @phase:	which outputs
 * @status:	the exit status so far (the verdict's, or EXIT_USAGE)
 * @graph_pair:	the pair --graph-pair named, or -1
 * @say:	called with each output's error message
 *
 * An output that fails is said through @say and the others are still
 * written.  A failure on stdout leaves the report there cut: exit status
 * EXIT_USAGE whatever the verdict.  A file that cannot be written turns
 * an all-good run into EXIT_USAGE, but never hides a verdict: a broken
 * machine whose textfile directory is gone still exits 2.
 * Return: the exit status after the outputs.
 */
int outputs_write(const struct check_run *r, const struct options *o,
		  enum output_phase phase, int status, int graph_pair,
		  void (*say)(const char *msg));

#endif /* P2PDIAG_OUTPUTS_H */
