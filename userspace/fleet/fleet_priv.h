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
#include "judge/findings.h"

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

struct fleet_server {
	const char *name;	/* the file, as given or found */
	uint32_t group;		/* index into fleet_state.group */
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
	struct fleet_unreadable *bad;
	uint32_t nr_bad;
	size_t alloc_bad;
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

/*
 * fleet_analyse() - every group's reference, then every server's
 * differences from it, into st->outlier, worst first.
 * Return: 0, or -1 when memory ran out.
 */
int fleet_analyse(struct fleet_state *st);

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
/* One difference in words, as both outputs say it. */
void fleet_diff_text(char *buf, size_t len, const struct fleet_state *st,
		     const struct fleet_group *g, const struct fleet_diff *d);
const char *fleet_diff_kind_name(enum fleet_diff_kind k);

#endif /* P2PDIAG_FLEET_PRIV_H */
