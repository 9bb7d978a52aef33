/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one run of p2pdiag-check is given, before any judgement: where
 * system files are read, the snapshot model and where it came from, what
 * the command line asked for, what the GPU side measured, the host's
 * facts and the pasted evidence.  main.c and the sources fill it (the
 * evidence reader names its files here); the judge (judge/judgement.h)
 * reads it and writes its judgement apart, so nothing below the judge
 * needs the judge's words to describe a run.
 */
#ifndef P2PDIAG_RUN_INPUTS_H
#define P2PDIAG_RUN_INPUTS_H

#include <stdbool.h>

#include "gpu/gpu.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/model.h"
#include "p2pdiag/verdict.h"

struct system_report;
struct evidence;
struct fsroot;

/* The endpoints a run is limited to (--pairs), by P2PD_ADDR(). */
#define SELECTION_MAX 64

struct selection {
	unsigned long long addr[SELECTION_MAX];
	unsigned int nr;		/* 0: every endpoint */
};

/*
 * What another machine's host bridges told of its CPU, where nobody named
 * it (run/model_input.h); @made is false where no guess was needed.
 */
struct cpu_inference {
	bool made;
	enum p2pd_cpu_guess guess;	/* P2PD_CPU_GUESS_NONE: they do not tell */
	unsigned long long addr;	/* the host bridge it went by */
	unsigned int vendor, device;
};

/* What the judgement compares with, as main.c was told it. */
struct judge_params {
	double min_ratio;		/* a figure below this share of its expectation is low */
	double timeout_s;		/* the copies' deadline, for the timeout's sentence */
};

struct run_inputs {
	const struct fsroot *root;	/* where system files are read (platform/fsroot.h) */
	const char *source;		/* "module", "pci", "file", "evidence" */
	char source_detail[256];	/* path, or why this source */
	/*
	 * The source's model, indexed by host bridge (run/model_input.h);
	 * @host_index is the index's storage.
	 */
	const struct p2pd_model *model;
	int *host_index;
	struct cpu_inference cpu_inferred;
	struct selection selection;
	bool expand_pairs;		/* every pair alone, not grouped */
	unsigned int nfd_expiry_s;	/* --nfd-features' labels hold this long */
	struct judge_params params;
	const struct gpu_state *gpu;	/* NULL: the GPU side did not run */
	bool gpu_measured;
	/*
	 * Facts under the root, or NULL; its "read" says whether the files
	 * there are the model's machine's (not for a saved topology or dump
	 * judged without --root, whose per-function facts are then NULL).
	 */
	struct system_report *system;
	/*
	 * The host's PCIe ASPM policy as its module parameter's file gives
	 * it, under the root; "" where not read, or where the topology is
	 * another machine's (a saved file or a dump without --root at that
	 * machine's files): this machine's policy is not that machine's.
	 */
	char host_aspm_policy[128];
	const struct evidence *evidence; /* --evidence: the files read, or NULL */
};

#endif /* P2PDIAG_RUN_INPUTS_H */
