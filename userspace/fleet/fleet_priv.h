/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the fleet comparison: each report reduced to a fingerprint (its
 * group, its set of facts, its figures), the groups' references, and the
 * differences found.  A report's parsed document lives only while it is
 * reduced; what stays per server is a name, two ids and its figures.
 */
#ifndef P2PDIAG_FLEET_PRIV_H
#define P2PDIAG_FLEET_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fleet/intern.h"
#include "findings/findings.h"

/* What a fact or figure is about. */
enum fleet_kind {
	FK_FUNCTION,		/* a function is there: value "present" */
	FK_FIELD,		/* a function's field (field: enum p2pd_field) */
	FK_PAIR_VERDICT,	/* a judged pair (grouped: as the report lists it) */
	FK_PAIR_CLASS,
	FK_BW_P2P,		/* a -> b, GB/s */
	FK_BW_H2D,		/* GPU a, host to device */
	FK_BW_D2H,
};

/* A key, interned whole: keep the padding zero (memset) before it is. */
struct fleet_key {
	uint8_t kind;		/* enum fleet_kind */
	uint8_t field;
	uint8_t pad[6];
	uint64_t a, b;		/* P2PD_ADDR(); b 0 when there is none */
};

/* One fact of a server: key id -> value id (interned words). */
struct fleet_fact {
	uint32_t key, value;
};

/* One measured figure of a server. */
struct fleet_figure {
	uint32_t key;
	float gbs;
};

/* Which server a report says it is of (its system.identity). */
struct fleet_identity {
	uint32_t hostname, machine_id, serial;	/* words; 0 not said */
	int64_t run_time;	/* seconds since the epoch; 0 not said */
	uint32_t uuids;		/* interned sorted array of GPU UUID words; 0 none */
	bool present;		/* the report has an identity at all */
};

struct fleet_server {
	const char *name;	/* the file, as given or found */
	uint32_t group;		/* index into fleet_state.group */
	struct fleet_identity id;
	uint32_t facts;		/* interned array of fleet_fact, sorted by key */
	struct fleet_figure *fig;
	uint32_t nr_fig;
};

/* The reference of one key in one group. */
struct fleet_ref {
	uint32_t key, value;	/* value 0: absent on the majority */
	uint32_t servers;	/* how many have that value */
	bool split;		/* no value on more than half: no reference */
};

struct fleet_group {
	uint32_t model, bios, kernel;	/* interned words, 0 unknown */
	uint32_t nr_servers;
	struct fleet_ref *ref;		/* sorted by key */
	uint32_t nr_ref, nr_split;
	uint8_t split_worst;	/* enum finding_severity of the facts without a majority */
	uint32_t lone;		/* its one server, when it has one */
};

enum fleet_diff_kind {
	FD_MISSING,		/* a function of the reference is not here */
	FD_EXTRA,		/* here, not on the reference */
	FD_FIELD,
	FD_PAIR_MISSING,
	FD_PAIR_EXTRA,
	FD_CLASS,
	FD_VERDICT,
	FD_BW_LOW,
};

struct fleet_diff {
	uint8_t kind;		/* enum fleet_diff_kind */
	uint8_t severity;	/* enum finding_severity */
	uint32_t key;
	uint32_t value, ref;	/* words; 0 absent */
	uint32_t ref_servers;	/* how many hold the reference (of the group's) */
	float gbs, median;	/* FD_BW_LOW */
};

struct fleet_outlier {
	uint32_t server;
	uint8_t worst;		/* enum finding_severity */
	struct fleet_diff *diff;	/* worst first */
	uint32_t nr_diff;
};

/*
 * A group that differs from the majority of its model's other groups
 * (another BIOS or kernel that changed what every server running it
 * shows), by what differs.
 */
struct fleet_group_diff {
	uint32_t group;		/* index into fleet_state.group */
	uint32_t model;		/* index into fleet_state.model */
	uint32_t like;		/* the model's largest other group, to name */
	uint8_t worst;
	struct fleet_diff *diff;	/* worst first */
	uint32_t nr_diff;
};

enum fleet_identity_kind {
	FI_DUPLICATE,		/* two reports say they are of one server */
	FI_STALE,		/* made long before the fleet's newest */
};

struct fleet_identity_note {
	uint8_t kind;		/* enum fleet_identity_kind */
	uint32_t server, other;	/* other: FI_DUPLICATE's newer report */
	char what[160];		/* "machine-id 0123...", "26 hours older" */
};

struct fleet_unreadable {
	char *name;
	char *why;
};

struct fleet_state {
	struct intern words, keys, facts;
	struct fleet_server *server;
	uint32_t nr_server;
	size_t alloc_server;
	struct fleet_group *group;
	uint32_t nr_group;
	size_t alloc_group;
	struct fleet_outlier *outlier;
	uint32_t nr_outlier;
	struct fleet_group *model;	/* each model's reference over its groups */
	uint32_t nr_model;
	struct fleet_group_diff *gdiff;
	uint32_t nr_gdiff;
	struct fleet_identity_note *inote;
	uint32_t nr_inote;
	size_t alloc_inote;
	int64_t newest;		/* the newest report's run time; 0 none */
	uint32_t nr_anonymous;	/* reports without an identity */
	struct fleet_unreadable *bad;
	uint32_t nr_bad;
	size_t alloc_bad;
	bool skip_unreadable;	/* unreadable inputs leave the exit status alone */
	uint32_t present;	/* the word "present" */
	double tolerance;
	bool oom;
};

/*
 * fleet_fingerprint() - reduce the report @text (@len bytes, read from
 * @name) to a server of @st, its group found or made.
 * Return: 0; 1 when it is no report, or no JSON (@err says why); -1 when
 * memory ran out.
 */
int fleet_fingerprint(struct fleet_state *st, const char *name,
		      const char *text, size_t len, char *err, size_t errlen);

/* A distinct fact array of a group, and how many servers hold it. */
struct facts_use {
	uint32_t facts, servers;
};

struct fleet_diff_list {
	struct fleet_diff *d;
	uint32_t nr;
	size_t alloc;
};

/*
 * fleet_reference() - @gr's reference (gr->ref, nr_split, split_worst) of
 * every key the fact arrays @u have, each weighted by its servers; @gr's
 * nr_servers must be their sum.  Return: 0, or -1 when memory ran out.
 */
int fleet_reference(struct fleet_state *st, struct fleet_group *gr,
		    const struct facts_use *u, uint32_t nu);

/*
 * fleet_facts_diff() - the differences of fact array @facts from @g's
 * reference, into @l: functions first (so that what follows from them is
 * left out), then fields and pairs.  @own, where @facts is a group's own
 * reference: the keys it holds no majority on are not compared.
 * Return: 0, or -1 when memory ran out.
 */
int fleet_facts_diff(struct fleet_state *st, const struct fleet_group *g,
		     uint32_t facts, const struct fleet_group *own,
		     struct fleet_diff_list *l);

/* qsort() order of differences: worst first. */
int fleet_cmp_diff(const void *x, const void *y);

/*
 * fleet_analyse() - every group's reference, then every server's
 * differences from it, into st->outlier, worst first.
 * Return: 0, or -1 when memory ran out.
 */
int fleet_analyse(struct fleet_state *st);

/*
 * fleet_analyse_models() - after fleet_analyse(): each model's groups
 * compared with each other, into st->gdiff.  Return: 0, or -1 when
 * memory ran out.
 */
int fleet_analyse_models(struct fleet_state *st);

/*
 * fleet_identity_check() - the reports that say they are of one server,
 * and those made long before the fleet's newest, into st->inote; those
 * without an identity counted.  Return: 0, or -1 when memory ran out.
 */
int fleet_identity_check(struct fleet_state *st);

/* The value a group's reference holds, in its model's, where it has no majority. */
#define FLEET_NO_MAJORITY	"(no majority)"

/* A report older than the fleet's newest by more than this is stale. */
#define FLEET_STALE_SECONDS	(24 * 3600)

const struct fleet_key *fleet_key_of(const struct fleet_state *st, uint32_t id);
/* A word's text, or @none for 0. */
const char *fleet_word(const struct fleet_state *st, uint32_t id, const char *none);
/* The reference of @key in group @g, or NULL. */
const struct fleet_ref *fleet_ref_of(const struct fleet_group *g, uint32_t key);
/* The key id of @k when any server has it, else 0. */
uint32_t fleet_key_find(const struct fleet_state *st, const struct fleet_key *k);

/* Free everything @st holds. */
void fleet_state_free(struct fleet_state *st);

/* The exit status of a compared fleet (fleet.h says which). */
int fleet_status(const struct fleet_state *st);

/* The result, as text or JSON.  Return: 0, or -1 with errno. */
int fleet_print_text(FILE *out, const struct fleet_state *st, int status);
int fleet_print_json(FILE *out, const struct fleet_state *st, int status);

#endif /* P2PDIAG_FLEET_PRIV_H */
