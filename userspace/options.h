/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of p2pdiag-check, parsed with getopt_long into plain
 * values.  Kept apart from main.c so the unit tests can feed it argv.
 */
#ifndef P2PDIAG_OPTIONS_H
#define P2PDIAG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gpu/gpu.h"

enum source_kind {
	SOURCE_AUTO,	/* module when loaded, else libpci */
	SOURCE_MODULE,	/* /sys/kernel/p2pdiag */
	SOURCE_PCI,	/* libpci walk of this machine (or of --pci-dump) */
};

enum baseline_mode { BASELINE_NONE, BASELINE_SAVE, BASELINE_CHECK };

#define OPT_MAX_PAIRS 64
/* An endpoint as typed: a label such as GPU0 or a PCI address. */
#define OPT_NAME_MAX 32

struct options {
	enum source_kind source;
	bool cross_check, json, quick, no_cuda, help, version, no_color;
	bool list_findings;
	bool journal;			/* --journal: findings to stderr */
	bool verbose;			/* --verbose: every finding, every pair line */
	const char *json_file;		/* --json=FILE: the JSON report there */
	const char *prometheus;		/* --prometheus FILE */
	bool prometheus_all_pairs;	/* --prometheus-pairs=all */
	const char *nfd_features;	/* --nfd-features FILE */
	unsigned int nfd_expiry_s;	/* --nfd-expiry: how long its labels hold */
	bool summary;			/* --summary: one line, not the report */
	enum baseline_mode baseline;
	const char *baseline_file;
	size_t size;			/* bytes per bandwidth copy */
	unsigned int iterations;
	double timeout_s, min_ratio, tolerance;
	double deadline_s;		/* --deadline: the whole run's, 0 none */
	unsigned long long pairs[OPT_MAX_PAIRS];	/* --pairs: P2PD_ADDR()s */
	unsigned int nr_pairs;
	bool expand_pairs;		/* --expand-pairs: every pair, not grouped */
	const char *sysfs_root;		/* --sysfs-root: a fake p2pdiag tree */
	const char *topology_file;	/* --topology-file: offline analysis */
	const char *pci_dump;		/* --pci-dump: lspci -xxxx output */
	const char *cpuinfo;		/* --cpuinfo: that server's /proc/cpuinfo */
	const char *root;		/* --root: system files under it, or NULL */
	const char *graph;		/* --graph FILE: the picture of the tree */
	/* --graph-pair A,B: labels (GPU0) or PCI addresses, as typed */
	char graph_pair[2][OPT_NAME_MAX];
	bool has_graph_pair;
	bool measure_busy;		/* --if-busy=measure */
	bool skip_busy;			/* --if-busy=skip */
	double wait_idle_s;		/* --wait-idle */
	bool curve;			/* --curve */
	/* --compare-fleet DIR|FILE...: the operands, in argv */
	bool compare_fleet;
	char *const *fleet_paths;
	unsigned int nr_fleet_paths;
	bool skip_unreadable;		/* --skip-unreadable */
	bool evidence;			/* --evidence: judge pasted outputs */
	char *const *evidence_files;	/* its FILEs ("-": stdin) */
	unsigned int nr_evidence;
};

/* The measurement's own defaults and limits are gpu.h's. */
#define OPT_DEFAULT_SIZE	GPU_DEFAULT_SIZE
#define OPT_DEFAULT_ITERATIONS	5
#define OPT_DEFAULT_TIMEOUT_S	GPU_DEFAULT_TIMEOUT_S
#define OPT_DEFAULT_MIN_RATIO	0.85
#define OPT_DEFAULT_TOLERANCE	0.10
/* three of the DaemonSets' hourly runs */
#define OPT_DEFAULT_NFD_EXPIRY_S	(3 * 3600)
#define OPT_MAX_NFD_EXPIRY_S	(30 * 24 * 3600)
#define OPT_MAX_WAIT_IDLE_S	3600.0

void options_defaults(struct options *o);

/*
 * options_parse() - fill @o from @argc/@argv.
 * Return: 0, or -1 with a one-line reason in @err.
 */
int options_parse(int argc, char **argv, struct options *o,
		  char *err, size_t errlen);

void options_usage(FILE *out);

#endif /* P2PDIAG_OPTIONS_H */
