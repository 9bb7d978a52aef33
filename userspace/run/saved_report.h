/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved run, the JSON report (SCHEMA.md) that --baseline save and
 * --json write, as the comparisons with it read it: the lookups of its
 * keys by type.  Below the judge, which compares a run with a saved one
 * (judge/baseline_compare.c); report/report_file.c reads the file.
 */
#ifndef P2PDIAG_RUN_SAVED_REPORT_H
#define P2PDIAG_RUN_SAVED_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "p2pdiag/format.h"

struct json_object;

/*
 * A saved run as plain structs, for the judge's comparison with it
 * (judge/baseline_compare.h), read by saved_report_read().  A key of
 * another type than the report writes reads as absent (NULL, or its
 * have_ false).  The strings are the JSON tree's own: the tree outlives
 * the struct.
 */

/* One function of "devices". */
struct saved_device {
	const char *addr, *vendor, *device;
	const char *field[P2PD_F_COUNT];	/* by p2pd_field_name() */
};

/* One end of a "pairs" entry: the members of the group it names. */
struct saved_side {
	int group;		/* index into "groups", -1: the entry names none found */
	const char **member;	/* that group's members that are strings, malloc'd */
	size_t nr_member;
};

/* One "pairs" entry (entries that are not objects are left out). */
struct saved_pair {
	const char *a, *b, *cls, *verdict;
	struct saved_side side_a, side_b;	/* group_a, group_b */
	unsigned long count;	/* "count" where an integer above 0, else 0 */
	bool have_p2p_gbs;	/* "bw": { "p2p_gbs" } */
	double p2p_gbs;
};

/* One entry of "gpus". */
struct saved_gpu {
	const char *addr;
	bool have_h2d_gbs, have_d2h_gbs;
	double h2d_gbs, d2h_gbs;
};

/* The keys of "system"."context" that a run's context compares. */
#define SAVED_CONTEXT_KEYS 5
extern const char *const saved_context_keys[SAVED_CONTEXT_KEYS];

/* A run's context: its "system" object's kernel, firmware, driver and slots. */
struct saved_context {
	bool have;		/* "system" is an object */
	const char *kernel_release, *cmdline;
	const char *context[SAVED_CONTEXT_KEYS];	/* by saved_context_keys[] */
	char slots[1024];	/* "name=addr name=addr", "" for none */
};

struct saved_report {
	struct saved_device *device;
	size_t nr_device;
	struct saved_pair *pair;
	size_t nr_pair;
	struct saved_gpu *gpu;
	size_t nr_gpu;
	struct saved_context context;
};

/*
 * saved_report_read() - the saved run @root (as report_file_read() gives
 * it) into @s.  Return: 0, or -1 when out of memory (@s then holds
 * nothing to free).
 */
int saved_report_read(struct json_object *root, struct saved_report *s);
/* saved_context_read() - the context of the report @root (see struct saved_context). */
void saved_context_read(struct json_object *root, struct saved_context *c);
void saved_report_free(struct saved_report *s);

/* @key of object @o as a string, or NULL (absent, null or another type). */
const char *report_get_str(struct json_object *o, const char *key);
/* @key of @o as a number into *@out.  Return: 0, or -1 when it is none. */
int report_get_num(struct json_object *o, const char *key, double *out);
/* @key of @o when it is an array, or NULL. */
struct json_object *report_get_array(struct json_object *o, const char *key);

#endif /* P2PDIAG_RUN_SAVED_REPORT_H */
