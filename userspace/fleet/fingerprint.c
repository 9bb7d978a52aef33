// SPDX-License-Identifier: GPL-2.0
/*
 * A report reduced to what servers of one model should share: which
 * functions are there and their fields (compare_rules.h's, and the
 * current link width), each judged pair's class and verdict, and the
 * measured bandwidth.  The facts are interned as one sorted array, so
 * that servers that agree share one copy.
 *
 * The link width is compared here but not by the baseline check: a
 * majority of servers stands for the width a link trains to, where one
 * golden server could itself be the one trained down.  The current speed
 * is never compared: idle GPUs drop it on purpose.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fleet/fleet_priv.h"
#include "judge/compare_rules.h"
#include "fleet/json_scan.h"
#include "report/report.h"
#include "report/report_file.h"
#include "topology/pciaddr.h"
#include "p2pdiag/format.h"

struct fact_list {
	struct fleet_fact *f;
	size_t nr, alloc;
};

struct figure_list {
	struct fleet_figure *f;
	size_t nr, alloc;
};

static uint32_t key_id(struct fleet_state *st, enum fleet_kind kind,
		       unsigned int field, unsigned long long a,
		       unsigned long long b)
{
	struct fleet_key k;

	memset(&k, 0, sizeof(k));
	k.kind = (uint8_t)kind;
	k.field = (uint8_t)field;
	k.a = a;
	k.b = b;
	return intern_add(&st->keys, &k, sizeof(k));
}

static uint32_t word_id(struct fleet_state *st, const char *s)
{
	return s ? intern_add(&st->words, s, strlen(s) + 1) : 0;
}

static int fact_add(struct fleet_state *st, struct fact_list *l, uint32_t key,
		    const char *value)
{
	uint32_t v = word_id(st, value);

	if (!key || (value && !v))
		return -1;
	if (!value)
		return 0;	/* absent: a fact nobody has */
	if (fleet_grow(&l->f, &l->alloc, l->nr, sizeof(*l->f), 256))
		return -1;
	l->f[l->nr++] = (struct fleet_fact){ key, v };
	return 0;
}

static int figure_add(struct fleet_state *st, struct figure_list *l,
		      enum fleet_kind kind, unsigned long long a,
		      unsigned long long b, double gbs)
{
	uint32_t key;

	if (!(gbs > 0))
		return 0;	/* not measured */
	key = key_id(st, kind, 0, a, b);
	if (!key)
		return -1;
	if (fleet_grow(&l->f, &l->alloc, l->nr, sizeof(*l->f), 64))
		return -1;
	l->f[l->nr++] = (struct fleet_figure){ key, (float)gbs };
	return 0;
}

/* A string value of a report: longer ones are refused by the scanner. */
#define WORD_MAX	256

static int read_addr(struct json_scan *js, unsigned long long *addr, bool *ok)
{
	char w[WORD_MAX];
	int r = json_scan_string(js, w, sizeof(w));

	*ok = r > 0 && !pciaddr_parse(w, addr);
	return r < 0 ? -1 : 0;
}

/* The fields a device entry holds that the fingerprint keeps. */
#define DEVICE_FIELDS	16

struct device_entry {
	unsigned long long addr;
	bool has_addr;
	char value[DEVICE_FIELDS][WORD_MAX];
	bool has[DEVICE_FIELDS];
};

static enum p2pd_field kept_field(unsigned int k)
{
	return k < nr_same_model_fields ? same_model_fields[k] : P2PD_F_LINK_WIDTH;
}

static int read_device(struct fleet_state *st, struct json_scan *js,
		       struct fact_list *l, struct device_entry *d)
{
	char key[64];
	unsigned int k, n = nr_same_model_fields + 1;
	int r;

	memset(d->has, 0, sizeof(d->has));
	d->has_addr = false;
	if ((r = json_scan_object(js)) <= 0)
		return r;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0) {
		if (!strcmp(key, "addr")) {
			if (read_addr(js, &d->addr, &d->has_addr))
				return -1;
			continue;
		}
		for (k = 0; k < n; k++)
			if (!strcmp(key, p2pd_field_name(kept_field(k))))
				break;
		if (k == n) {
			if (json_scan_skip(js))
				return -1;
			continue;
		}
		r = json_scan_string(js, d->value[k], sizeof(d->value[k]));
		if (r < 0)
			return -1;
		d->has[k] = r > 0;
	}
	if (r < 0 || !d->has_addr)
		return r;
	if (fact_add(st, l, key_id(st, FK_FUNCTION, 0, d->addr, 0), "present"))
		return -2;
	for (k = 0; k < n; k++)
		if (fact_add(st, l, key_id(st, FK_FIELD, kept_field(k), d->addr, 0),
			     d->has[k] ? d->value[k] : NULL))
			return -2;
	return 0;
}

/* bw.p2p_gbs of a pair's side, into *@gbs (0 when not measured). */
static int read_bw(struct json_scan *js, double *gbs)
{
	char key[64];
	int r;

	*gbs = 0;
	if ((r = json_scan_object(js)) <= 0)
		return r;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0)
		if (!strcmp(key, "p2p_gbs") ? json_scan_number(js, gbs) < 0 :
		    json_scan_skip(js))
			return -1;
	return r;
}

/* The "reverse" object: its bw. */
static int read_reverse(struct json_scan *js, double *gbs)
{
	char key[64];
	int r;

	*gbs = 0;
	if ((r = json_scan_object(js)) <= 0)
		return r;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0)
		if (!strcmp(key, "bw") ? read_bw(js, gbs) < 0 : json_scan_skip(js))
			return -1;
	return r;
}

static int read_pair(struct fleet_state *st, struct json_scan *js,
		     struct fact_list *l, struct figure_list *fl)
{
	char key[64], verdict[WORD_MAX] = "", cls[WORD_MAX] = "";
	unsigned long long a = 0, b = 0;
	bool has_a = false, has_b = false;
	double ab = 0, ba = 0;
	int r;

	if ((r = json_scan_object(js)) <= 0)
		return r;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0) {
		if (!strcmp(key, "a"))
			r = read_addr(js, &a, &has_a);
		else if (!strcmp(key, "b"))
			r = read_addr(js, &b, &has_b);
		else if (!strcmp(key, "verdict"))
			r = json_scan_string(js, verdict, sizeof(verdict));
		else if (!strcmp(key, "class"))
			r = json_scan_string(js, cls, sizeof(cls));
		else if (!strcmp(key, "bw"))
			r = read_bw(js, &ab);
		else if (!strcmp(key, "reverse"))
			r = read_reverse(js, &ba);
		else
			r = json_scan_skip(js);
		if (r < 0)
			return -1;
	}
	if (r < 0 || !has_a || !has_b)
		return r;
	if (fact_add(st, l, key_id(st, FK_PAIR_VERDICT, 0, a, b),
		     verdict[0] ? verdict : NULL) ||
	    fact_add(st, l, key_id(st, FK_PAIR_CLASS, 0, a, b), cls[0] ? cls : NULL) ||
	    figure_add(st, fl, FK_BW_P2P, a, b, ab) ||
	    figure_add(st, fl, FK_BW_P2P, b, a, ba))
		return -2;
	return 0;
}

static int read_gpu(struct fleet_state *st, struct json_scan *js,
		    struct figure_list *fl)
{
	unsigned long long a = 0;
	bool has_a = false;
	double h2d = 0, d2h = 0;
	char key[64];
	int r;

	if ((r = json_scan_object(js)) <= 0)
		return r;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0) {
		if (!strcmp(key, "addr"))
			r = read_addr(js, &a, &has_a);
		else if (!strcmp(key, "h2d_gbs"))
			r = json_scan_number(js, &h2d);
		else if (!strcmp(key, "d2h_gbs"))
			r = json_scan_number(js, &d2h);
		else
			r = json_scan_skip(js);
		if (r < 0)
			return -1;
	}
	if (r < 0 || !has_a)
		return r;
	if (figure_add(st, fl, FK_BW_H2D, a, 0, h2d) ||
	    figure_add(st, fl, FK_BW_D2H, a, 0, d2h))
		return -2;
	return 0;
}

/* What a report names its server's group by, and its identity. */
struct group_words {
	char model[WORD_MAX], bios[WORD_MAX], kernel[WORD_MAX], kernel_release[WORD_MAX];
	char hostname[WORD_MAX], machine_id[WORD_MAX], serial[WORD_MAX], run_time[WORD_MAX];
	bool has_identity;
	uint32_t *uuid;		/* GPU UUID words */
	size_t nr_uuid, alloc_uuid;
};

/* identity.gpu_uuids: each element's "uuid", interned into @w. */
static int read_uuids(struct fleet_state *st, struct json_scan *js,
		      struct group_words *w)
{
	char key[64], uuid[WORD_MAX];
	int r, q;

	if ((r = json_scan_array(js)) <= 0)
		return r;
	while ((r = json_scan_element(js)) > 0) {
		if ((q = json_scan_object(js)) < 0)
			return -1;
		uuid[0] = '\0';
		while (q && (q = json_scan_member(js, key, sizeof(key))) > 0)
			if (!strcmp(key, "uuid") ? json_scan_string(js, uuid, sizeof(uuid)) < 0 :
			    json_scan_skip(js))
				return -1;
		if (q < 0)
			return -1;
		if (!uuid[0])
			continue;
		if (fleet_grow(&w->uuid, &w->alloc_uuid, w->nr_uuid, sizeof(*w->uuid), 8) ||
		    !(w->uuid[w->nr_uuid++] = word_id(st, uuid)))
			return -2;
	}
	return r;
}

/* system.identity's members. */
static int read_identity(struct fleet_state *st, struct json_scan *js,
			 struct group_words *w)
{
	char key[64];
	int r;

	if ((r = json_scan_object(js)) <= 0)
		return r;
	w->has_identity = true;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0) {
		char *into = !strcmp(key, "hostname") ? w->hostname :
			     !strcmp(key, "machine_id") ? w->machine_id :
			     !strcmp(key, "dmi_serial") ? w->serial :
			     !strcmp(key, "run_time") ? w->run_time : NULL;
		int e;

		if (into)
			e = json_scan_string(js, into, WORD_MAX) < 0 ? -1 : 0;
		else if (!strcmp(key, "gpu_uuids"))
			e = read_uuids(st, js, w) < 0 ? -1 : 0;
		else
			e = json_scan_skip(js);
		if (e)
			return -1;
	}
	return r;
}

/* system.@outer.@inner into @buf, for the three the group is made of; the identity. */
static int read_system(struct fleet_state *st, struct json_scan *js,
		       struct group_words *w)
{
	char key[64], inner[64];
	int r, q;

	if ((r = json_scan_object(js)) <= 0)
		return r;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0) {
		if (!strcmp(key, "identity")) {
			if (read_identity(st, js, w))
				return -1;
			continue;
		}
		const char *want = !strcmp(key, "virtualization") ? "dmi_product" :
				   !strcmp(key, "context") ? "bios_version" :
				   !strcmp(key, "kernel") ? "release" : NULL;
		char *into = !strcmp(key, "virtualization") ? w->model :
			     !strcmp(key, "context") ? w->bios : w->kernel;

		if (!want) {
			if (json_scan_skip(js))
				return -1;
			continue;
		}
		if ((q = json_scan_object(js)) < 0)
			return -1;
		while (q && (q = json_scan_member(js, inner, sizeof(inner))) > 0)
			if (!strcmp(inner, want) ?
			    json_scan_string(js, into, WORD_MAX) < 0 : json_scan_skip(js))
				return -1;
		if (q < 0)
			return -1;
	}
	return r;
}

static int cmp_fact(const void *x, const void *y)
{
	const struct fleet_fact *a = x, *b = y;

	return (a->key > b->key) - (a->key < b->key);
}

/* A key listed twice (a hand-edited report): its first value counts. */
static size_t unique_facts(struct fleet_fact *f, size_t n)
{
	size_t i, out = 0;

	for (i = 0; i < n; i++)
		if (!out || f[i].key != f[out - 1].key)
			f[out++] = f[i];
	return out;
}

/* The group of (@model, @bios, @kernel), made on first sight. */
static int group_of(struct fleet_state *st, uint32_t model, uint32_t bios,
		    uint32_t kernel, uint32_t *out)
{
	uint32_t g;

	/* a fleet has a handful of groups: a search is cheaper than a table */
	for (g = 0; g < st->nr_group; g++) {
		const struct fleet_group *gr = &st->group[g];

		if (gr->model == model && gr->bios == bios && gr->kernel == kernel) {
			*out = g;
			return 0;
		}
	}
	if (fleet_grow(&st->group, &st->alloc_group, st->nr_group,
		       sizeof(*st->group), 8))
		return -1;
	memset(&st->group[g], 0, sizeof(st->group[g]));
	st->group[g].model = model;
	st->group[g].bios = bios;
	st->group[g].kernel = kernel;
	*out = st->nr_group++;
	return 0;
}

static int server_group(struct fleet_state *st, const struct group_words *w,
			uint32_t *out)
{
	const char *kernel = w->kernel[0] ? w->kernel : w->kernel_release;
	uint32_t m = word_id(st, w->model[0] ? w->model : NULL);
	uint32_t b = word_id(st, w->bios[0] ? w->bios : NULL);
	uint32_t k = word_id(st, kernel[0] ? kernel : NULL);

	if ((w->model[0] && !m) || (w->bios[0] && !b) || (kernel[0] && !k))
		return -1;
	return group_of(st, m, b, k, out);
}

static int cmp_word(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;

	return (*a > *b) - (*a < *b);
}

/* "2026-12-05T13:50:22Z" in seconds, or 0 when it is not that. */
static int64_t parse_run_time(const char *s)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return end && !*end ? (int64_t)timegm(&tm) : 0;
}

static int server_identity(struct fleet_state *st, struct group_words *w,
			   struct fleet_identity *id)
{
	memset(id, 0, sizeof(*id));
	if (!w->has_identity)
		return 0;
	id->present = true;
	id->hostname = word_id(st, w->hostname[0] ? w->hostname : NULL);
	id->machine_id = word_id(st, w->machine_id[0] ? w->machine_id : NULL);
	id->serial = word_id(st, w->serial[0] ? w->serial : NULL);
	id->run_time = parse_run_time(w->run_time);
	if ((w->hostname[0] && !id->hostname) || (w->machine_id[0] && !id->machine_id) ||
	    (w->serial[0] && !id->serial))
		return -1;
	if (w->nr_uuid) {
		qsort(w->uuid, w->nr_uuid, sizeof(*w->uuid), cmp_word);
		id->uuids = intern_add(&st->facts, w->uuid, w->nr_uuid * sizeof(*w->uuid));
		if (!id->uuids)
			return -1;
	}
	if (id->run_time > st->newest)
		st->newest = id->run_time;
	return 0;
}

/* What the top level told: the report's identity and its arrays. */
struct top_level {
	char tool[WORD_MAX];
	double schema;
	bool has_schema, devices, pairs, gpus;
	struct group_words w;
};

/* One array of the top level, each element read by @kind's reader. */
static int read_array(struct fleet_state *st, struct json_scan *js, int kind,
		      struct fact_list *l, struct figure_list *fl,
		      struct device_entry *d)
{
	int r, e;

	if ((r = json_scan_array(js)) <= 0)
		return r;
	while ((r = json_scan_element(js)) > 0) {
		e = kind == 0 ? read_device(st, js, l, d) :
		    kind == 1 ? read_pair(st, js, l, fl) : read_gpu(st, js, fl);
		if (e < 0)
			return e;
	}
	return r < 0 ? -1 : 1;
}

/*
 * The top level.  Return: 0, -1 malformed (the scanner says why), -2 out
 * of memory.
 */
static int read_top(struct fleet_state *st, struct json_scan *js,
		    struct top_level *t, struct fact_list *l,
		    struct figure_list *fl)
{
	struct device_entry *d = malloc(sizeof(*d));
	char key[64];
	int r;

	if (!d)
		return -2;
	if ((r = json_scan_object(js)) <= 0)
		goto free_entry;
	while ((r = json_scan_member(js, key, sizeof(key))) > 0) {
		if (!strcmp(key, "tool")) {
			r = json_scan_string(js, t->tool, sizeof(t->tool));
		} else if (!strcmp(key, "schema")) {
			r = json_scan_number(js, &t->schema);
			t->has_schema = r > 0;
		} else if (!strcmp(key, "kernel_release")) {
			r = json_scan_string(js, t->w.kernel_release, WORD_MAX);
		} else if (!strcmp(key, "devices")) {
			r = read_array(st, js, 0, l, fl, d);
			t->devices = r > 0;
		} else if (!strcmp(key, "pairs")) {
			r = read_array(st, js, 1, l, fl, d);
			t->pairs = r > 0;
		} else if (!strcmp(key, "gpus")) {
			r = read_array(st, js, 2, l, fl, d);
			t->gpus = r > 0;
		} else if (!strcmp(key, "system")) {
			r = read_system(st, js, &t->w);
		} else {
			r = json_scan_skip(js);
		}
		if (r < 0)
			goto free_entry;
	}
free_entry:
	free(d);
	return r < 0 ? r : json_scan_end(js);
}

int fleet_fingerprint(struct fleet_state *st, const char *name,
		      const char *text, size_t len, char *err, size_t errlen)
{
	struct fact_list l = { 0 };
	struct figure_list fl = { 0 };
	struct top_level *t = calloc(1, sizeof(*t));
	struct json_scan js;
	struct fleet_server *s;
	int rc = -1, r;

	if (!t)
		return -1;
	json_scan_begin(&js, text, len);
	r = read_top(st, &js, t, &l, &fl);
	if (r == -1 || (!r && !len)) {
		if (json_scan_too_long(&js))
			snprintf(err, errlen, "report %s holds a value longer than %d bytes, which no report does",
				 name, WORD_MAX - 1);
		else
			snprintf(err, errlen, "report %s is not valid JSON: %s", name,
				 !len ? "the file is empty" : js.error);
		rc = 1;
		goto free_lists;
	}
	if (r)
		goto free_lists;
	if (strcmp(t->tool, "p2pdiag-check") || !t->has_schema ||
	    t->schema != REPORT_SCHEMA || !t->devices || !t->pairs || !t->gpus) {
		report_file_not_report(err, errlen, name, "report",
				       " (make one with --json or --baseline save)");
		rc = 1;
		goto free_lists;
	}
	if (fleet_grow(&st->server, &st->alloc_server, st->nr_server,
		       sizeof(*st->server), 1024))
		goto free_lists;
	s = &st->server[st->nr_server];
	memset(s, 0, sizeof(*s));
	if (server_group(st, &t->w, &s->group))
		goto free_lists;
	if (l.nr)
		qsort(l.f, l.nr, sizeof(*l.f), cmp_fact);
	l.nr = unique_facts(l.f, l.nr);
	s->facts = intern_add(&st->facts, l.f, l.nr * sizeof(*l.f));
	s->name = strdup(name);
	if (!s->facts || !s->name) {
		free((char *)s->name);
		goto free_lists;
	}
	s->fig = fl.nr ? realloc(fl.f, fl.nr * sizeof(*fl.f)) : NULL;
	if (fl.nr && !s->fig)
		s->fig = fl.f;
	if (!fl.nr)
		free(fl.f);
	fl.f = NULL;
	s->nr_fig = (uint32_t)fl.nr;
	if (server_identity(st, &t->w, &s->id))
		goto free_lists;
	st->group[s->group].nr_servers++;
	st->nr_server++;
	rc = 0;
free_lists:
	free(t->w.uuid);
	free(t);
	free(l.f);
	free(fl.f);
	return rc;
}
