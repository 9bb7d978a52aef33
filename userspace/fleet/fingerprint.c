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
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fleet/fleet_priv.h"
#include "report/compare_rules.h"
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
		      unsigned long long b, struct json_object *o,
		      const char *name)
{
	uint32_t key;
	double v;

	if (!o || report_get_num(o, name, &v) || !(v > 0))
		return 0;	/* not measured */
	key = key_id(st, kind, 0, a, b);
	if (!key)
		return -1;
	if (fleet_grow(&l->f, &l->alloc, l->nr, sizeof(*l->f), 64))
		return -1;
	l->f[l->nr++] = (struct fleet_figure){ key, (float)v };
	return 0;
}

static int addr_of(struct json_object *o, const char *key,
		   unsigned long long *addr)
{
	const char *s = report_get_str(o, key);

	return s && !pciaddr_parse(s, addr) ? 0 : -1;
}

static int read_devices(struct fleet_state *st, struct json_object *devs,
			struct fact_list *l)
{
	size_t i, n = json_object_array_length(devs);
	unsigned int k;

	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);
		unsigned long long a;

		if (addr_of(d, "addr", &a))
			continue;
		if (fact_add(st, l, key_id(st, FK_FUNCTION, 0, a, 0), "present"))
			return -1;
		for (k = 0; k <= nr_same_model_fields; k++) {
			enum p2pd_field f = k < nr_same_model_fields ?
					    same_model_fields[k] : P2PD_F_LINK_WIDTH;

			if (fact_add(st, l, key_id(st, FK_FIELD, f, a, 0),
				     report_get_str(d, p2pd_field_name(f))))
				return -1;
		}
	}
	return 0;
}

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_is_type(v, json_type_object) ? v : NULL;
}

static int read_pairs(struct fleet_state *st, struct json_object *pairs,
		      struct fact_list *l, struct figure_list *fl)
{
	size_t i, n = json_object_array_length(pairs);

	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(pairs, i);
		unsigned long long a, b;

		if (addr_of(p, "a", &a) || addr_of(p, "b", &b))
			continue;
		if (fact_add(st, l, key_id(st, FK_PAIR_VERDICT, 0, a, b),
			     report_get_str(p, "verdict")) ||
		    fact_add(st, l, key_id(st, FK_PAIR_CLASS, 0, a, b),
			     report_get_str(p, "class")) ||
		    figure_add(st, fl, FK_BW_P2P, a, b, member(p, "bw"), "p2p_gbs") ||
		    figure_add(st, fl, FK_BW_P2P, b, a,
			       member(member(p, "reverse"), "bw"), "p2p_gbs"))
			return -1;
	}
	return 0;
}

static int read_gpus(struct fleet_state *st, struct json_object *gpus,
		     struct figure_list *fl)
{
	size_t i, n = json_object_array_length(gpus);

	for (i = 0; i < n; i++) {
		struct json_object *g = json_object_array_get_idx(gpus, i);
		unsigned long long a;

		if (addr_of(g, "addr", &a))
			continue;
		if (figure_add(st, fl, FK_BW_H2D, a, 0, g, "h2d_gbs") ||
		    figure_add(st, fl, FK_BW_D2H, a, 0, g, "d2h_gbs"))
			return -1;
	}
	return 0;
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

/* system.@a.@b as a string, or NULL. */
static const char *system_str(struct json_object *root, const char *a,
			      const char *b)
{
	return report_get_str(member(member(root, "system"), a), b);
}

static int server_group(struct fleet_state *st, struct json_object *root,
			uint32_t *out)
{
	const char *model = system_str(root, "virtualization", "dmi_product");
	const char *bios = system_str(root, "context", "bios_version");
	const char *kernel = system_str(root, "kernel", "release");
	uint32_t m, b, k;

	if (!kernel)
		kernel = report_get_str(root, "kernel_release");
	m = word_id(st, model);
	b = word_id(st, bios);
	k = word_id(st, kernel);
	if ((model && !m) || (bios && !b) || (kernel && !k))
		return -1;
	return group_of(st, m, b, k, out);
}

int fleet_fingerprint(struct fleet_state *st, const char *name,
		      struct json_object *root)
{
	struct fact_list l = { 0 };
	struct figure_list fl = { 0 };
	struct fleet_server *s;
	int rc = -1;

	if (fleet_grow(&st->server, &st->alloc_server, st->nr_server,
		       sizeof(*st->server), 1024))
		goto free_lists;
	s = &st->server[st->nr_server];
	memset(s, 0, sizeof(*s));
	if (server_group(st, root, &s->group) ||
	    read_devices(st, report_get_array(root, "devices"), &l) ||
	    read_pairs(st, report_get_array(root, "pairs"), &l, &fl) ||
	    read_gpus(st, report_get_array(root, "gpus"), &fl))
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
	st->group[s->group].nr_servers++;
	st->nr_server++;
	rc = 0;
free_lists:
	free(l.f);
	free(fl.f);
	return rc;
}
