// SPDX-License-Identifier: GPL-2.0
/*
 * The reports' identities.  Two reports of one server (the same
 * machine-id, DMI serial or GPU UUID) count it twice in its group's
 * majority, and the older one says what the server was, not what it is:
 * each such pair is named, the newer report first.  A report made more
 * than FLEET_STALE_SECONDS before the fleet's newest one describes a
 * server that stopped reporting, or a copy left behind: named too.  Both
 * are warnings.  A GPU UUID in two reports is also what a GPU moved to
 * another server looks like; the note says which identity matched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_priv.h"

/* One identity word of one server. */
struct claim {
	uint32_t word, server;
};

static int cmp_claim(const void *x, const void *y)
{
	const struct claim *a = x, *b = y;

	if (a->word != b->word)
		return a->word < b->word ? -1 : 1;
	return (a->server > b->server) - (a->server < b->server);
}

/* Whether server @a's report is newer than @b's (later run, else later name). */
static bool newer(const struct fleet_state *st, uint32_t a, uint32_t b)
{
	const struct fleet_server *x = &st->server[a], *y = &st->server[b];

	if (x->id.run_time != y->id.run_time)
		return x->id.run_time > y->id.run_time;
	return strcmp(x->name, y->name) > 0;
}

static int note_add(struct fleet_state *st, enum fleet_identity_kind kind,
		    uint32_t server, uint32_t other, const char *what)
{
	struct fleet_identity_note *n;
	uint32_t i;

	for (i = 0; kind == FI_DUPLICATE && i < st->nr_inote; i++)
		if (st->inote[i].kind == FI_DUPLICATE && st->inote[i].server == server &&
		    st->inote[i].other == other)
			return 0;	/* said by another identity already */
	if (fleet_grow(&st->inote, &st->alloc_inote, st->nr_inote, sizeof(*st->inote), 16))
		return -1;
	n = &st->inote[st->nr_inote++];
	n->kind = (uint8_t)kind;
	n->server = server;
	n->other = other;
	snprintf(n->what, sizeof(n->what), "%s", what);
	return 0;
}

/* The duplicates among @c (@n claims of @label): every older one, against the newest. */
static int duplicates(struct fleet_state *st, struct claim *c, size_t n,
		      const char *label)
{
	char what[160];
	size_t i, j, k;

	qsort(c, n, sizeof(*c), cmp_claim);
	for (i = 0; i < n; i = j) {
		uint32_t best = c[i].server;

		for (j = i + 1; j < n && c[j].word == c[i].word; j++)
			if (newer(st, c[j].server, best))
				best = c[j].server;
		if (j - i < 2)
			continue;
		snprintf(what, sizeof(what), "%s %.120s", label,
			 fleet_word(st, c[i].word, "?"));
		for (k = i; k < j; k++)
			if (c[k].server != best && (k == i || c[k].server != c[k - 1].server) &&
			    note_add(st, FI_DUPLICATE, c[k].server, best, what))
				return -1;
	}
	return 0;
}

int fleet_identity_check(struct fleet_state *st)
{
	struct claim *c;
	size_t n = 0, alloc = 0, len;
	uint32_t i, k;
	char what[160];
	int kind, rc = -1;

	for (kind = 0; kind < 3; kind++) {
		c = NULL;
		n = alloc = 0;
		for (i = 0; i < st->nr_server; i++) {
			const struct fleet_identity *id = &st->server[i].id;
			const uint32_t *u = kind == 2 ? intern_get(&st->facts, id->uuids, &len) : NULL;
			uint32_t w = kind == 0 ? id->machine_id : kind == 1 ? id->serial : 0;

			for (k = 0; kind == 2 && u && k < len / sizeof(*u); k++) {
				if (fleet_grow(&c, &alloc, n, sizeof(*c), 64))
					goto free_claims;
				c[n++] = (struct claim){ u[k], i };
			}
			if (!w)
				continue;
			if (fleet_grow(&c, &alloc, n, sizeof(*c), 64))
				goto free_claims;
			c[n++] = (struct claim){ w, i };
		}
		if (n && duplicates(st, c, n, kind == 0 ? "machine-id" :
				    kind == 1 ? "DMI serial" : "GPU UUID"))
			goto free_claims;
		free(c);
	}
	c = NULL;
	for (i = 0; i < st->nr_server; i++) {
		const struct fleet_identity *id = &st->server[i].id;

		if (!id->present) {
			st->nr_anonymous++;
			continue;
		}
		if (!id->run_time || st->newest - id->run_time <= FLEET_STALE_SECONDS)
			continue;
		snprintf(what, sizeof(what), "made %lld hours before the newest report",
			 (long long)((st->newest - id->run_time) / 3600));
		if (note_add(st, FI_STALE, i, i, what))
			goto free_claims;
	}
	rc = 0;
free_claims:
	free(c);
	return rc;
}
