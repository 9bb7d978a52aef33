// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for options_parse(): the input is a command line, its
 * arguments separated by NUL bytes (argv[0] is added).  Every command line
 * is either refused with a reason or gives options the rest of the tool
 * can trust: values within their documented ranges, --pairs within its
 * bound, every file name one of the arguments.  A crash, a sanitizer
 * report, an exit or a broken promise aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "options.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file name the options hold points into one of @argv's strings. */
static int from_argv(const char *name, char **argv, int argc)
{
	int i;

	if (!name)
		return 1;
	for (i = 1; i < argc; i++)
		if (name >= argv[i] && name <= argv[i] + strlen(argv[i]))
			return 1;
	return 0;
}

static void check_options(const struct options *o, char **argv, int argc)
{
	unsigned int i;

	if (o->size == 0 || o->size > (1ULL << 40) ||
	    o->iterations < GPU_MIN_SAMPLES || o->iterations > GPU_MAX_SAMPLES ||
	    !(o->timeout_s >= 1 && o->timeout_s <= 86400) ||
	    !(o->min_ratio > 0 && o->min_ratio <= 1) ||
	    !(o->tolerance >= 0 && o->tolerance < 1) ||
	    !(o->wait_idle_s >= 0 && o->wait_idle_s <= OPT_MAX_WAIT_IDLE_S) ||
	    o->nr_pairs > OPT_MAX_PAIRS) {
		fprintf(stderr, "a value outside its range was accepted\n");
		abort();
	}
	if (!from_argv(o->prometheus, argv, argc) ||
	    !from_argv(o->baseline_file, argv, argc) ||
	    !from_argv(o->sysfs_root, argv, argc) ||
	    !from_argv(o->topology_file, argv, argc) ||
	    !from_argv(o->pci_dump, argv, argc) ||
	    !from_argv(o->cpuinfo, argv, argc) ||
	    !from_argv(o->root, argv, argc) ||
	    !from_argv(o->graph, argv, argc)) {
		fprintf(stderr, "a file name is not one of the arguments\n");
		abort();
	}
	if ((o->baseline != BASELINE_NONE) != !!o->baseline_file ||
	    (o->topology_file && o->pci_dump) ||
	    (o->has_graph_pair && !o->graph) ||
	    (o->cross_check && o->source != SOURCE_AUTO)) {
		fprintf(stderr, "options that exclude each other were accepted\n");
		abort();
	}
	for (i = 0; i < 2; i++)
		if (o->has_graph_pair &&
		    (!o->graph_pair[i][0] ||
		     !memchr(o->graph_pair[i], '\0', OPT_NAME_MAX))) {
			fprintf(stderr, "--graph-pair kept an empty or unterminated name\n");
			abort();
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 2], err[512];
	struct options o;
	int argc = 0;
	size_t at = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = "p2pdiag-check";
	while (at <= size && argc <= MAX_ARGS) {
		argv[argc++] = copy + at;
		at += strlen(copy + at) + 1;
	}
	argv[argc] = NULL;

	err[0] = '\0';
	if (options_parse(argc, argv, &o, err, sizeof(err))) {
		if (!err[0] || !memchr(err, '\0', sizeof(err))) {
			fprintf(stderr, "refused without a reason\n");
			abort();
		}
	} else {
		check_options(&o, argv, argc);
	}
	free(copy);
	return 0;
}
