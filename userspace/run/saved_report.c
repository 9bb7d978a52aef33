// SPDX-License-Identifier: GPL-2.0
/*
 * Lookups in a saved report by type (saved_report.h): a key of another
 * type is as absent as a missing one, so a hand-edited file is never
 * misread; and the saved run read with them into the structs the judge
 * compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "run/saved_report.h"

const char *report_get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

int report_get_num(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return -1;
	*out = json_object_get_double(v);
	return 0;
}

struct json_object *report_get_array(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

const char *const saved_context_keys[SAVED_CONTEXT_KEYS] = {
	"bios_vendor", "bios_version", "bios_date", "board", "nvidia_driver",
};

static size_t array_length(struct json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

static void device_read(struct json_object *d, struct saved_device *out)
{
	int k;

	out->addr = report_get_str(d, "addr");
	out->vendor = report_get_str(d, "vendor");
	out->device = report_get_str(d, "device");
	for (k = 0; k < P2PD_F_COUNT; k++) {
		const char *name = p2pd_field_name((enum p2pd_field)k);

		out->field[k] = name ? report_get_str(d, name) : NULL;
	}
}

/* The index in @groups of the group that @g (an entry's group_a or group_b) names, or -1. */
static int group_index(struct json_object *groups, struct json_object *g)
{
	size_t i, n = array_length(groups);
	int want;

	if (!g || !json_object_is_type(g, json_type_int))
		return -1;
	want = json_object_get_int(g);
	/* groups[] lists group i at i; a hand-edited file is searched */
	for (i = 0; i < n; i++) {
		size_t k = ((size_t)want + i) % n;
		struct json_object *o = json_object_array_get_idx(groups, k), *v, *mem;

		if (json_object_object_get_ex(o, "group", &v) &&
		    json_object_is_type(v, json_type_int) &&
		    json_object_get_int(v) == want &&
		    json_object_object_get_ex(o, "members", &mem) &&
		    json_object_is_type(mem, json_type_array))
			return (int)k;
	}
	return -1;
}

static int side_read(struct json_object *entry, const char *key,
		     struct json_object *groups, struct saved_side *s)
{
	struct json_object *g = NULL, *mem;
	size_t i, n;

	json_object_object_get_ex(entry, key, &g);
	s->group = group_index(groups, g);
	if (s->group < 0)
		return 0;
	json_object_object_get_ex(json_object_array_get_idx(groups, (size_t)s->group),
				  "members", &mem);
	n = json_object_array_length(mem);
	s->member = calloc(n ? n : 1, sizeof(*s->member));
	if (!s->member)
		return -1;
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(mem, i);

		if (json_object_is_type(v, json_type_string))
			s->member[s->nr_member++] = json_object_get_string(v);
	}
	return 0;
}

static int pair_read(struct json_object *o, struct json_object *groups,
		     struct saved_pair *p)
{
	struct json_object *cnt, *bw;

	p->a = report_get_str(o, "a");
	p->b = report_get_str(o, "b");
	p->cls = report_get_str(o, "class");
	p->verdict = report_get_str(o, "verdict");
	if (json_object_object_get_ex(o, "count", &cnt) &&
	    json_object_is_type(cnt, json_type_int) && json_object_get_int64(cnt) > 0)
		p->count = (unsigned long)json_object_get_int64(cnt);
	p->have_p2p_gbs = json_object_object_get_ex(o, "bw", &bw) &&
			  json_object_is_type(bw, json_type_object) &&
			  !report_get_num(bw, "p2p_gbs", &p->p2p_gbs);
	return side_read(o, "group_a", groups, &p->side_a) ||
	       side_read(o, "group_b", groups, &p->side_b) ? -1 : 0;
}

static void gpu_read(struct json_object *o, struct saved_gpu *g)
{
	g->addr = report_get_str(o, "addr");
	g->have_h2d_gbs = !report_get_num(o, "h2d_gbs", &g->h2d_gbs);
	g->have_d2h_gbs = !report_get_num(o, "d2h_gbs", &g->d2h_gbs);
}

/* @path ("system.kernel.release") in @o, as a string, or NULL. */
static const char *str_at(struct json_object *o, const char *a, const char *b,
			  const char *c)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v) || !json_object_object_get_ex(v, b, &v) ||
	    (c && !json_object_object_get_ex(v, c, &v)) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/*
 * Slots as "name=addr name=addr", the same way for both runs.  A saved
 * file's "slots" that is no array gives none (json-c asserts on the
 * length of anything else).
 */
static void slots_text(struct json_object *slots, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	if (!json_object_is_type(slots, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(slots) && used < len; i++) {
		struct json_object *s = json_object_array_get_idx(slots, i), *n, *a;

		if (json_object_object_get_ex(s, "name", &n) &&
		    json_object_object_get_ex(s, "addr", &a))
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s",
						 used ? " " : "", json_object_get_string(n),
						 json_object_get_string(a));
	}
}

void saved_context_read(struct json_object *root, struct saved_context *c)
{
	struct json_object *v, *slots = NULL;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	if (!root)
		return;
	c->have = json_object_object_get_ex(root, "system", &v) &&
		  json_object_is_type(v, json_type_object);
	c->kernel_release = str_at(root, "system", "kernel", "release");
	c->cmdline = str_at(root, "system", "kernel", "cmdline");
	for (i = 0; i < SAVED_CONTEXT_KEYS; i++)
		c->context[i] = str_at(root, "system", "context", saved_context_keys[i]);
	if (json_object_object_get_ex(root, "system", &v) &&
	    json_object_object_get_ex(v, "context", &v))
		json_object_object_get_ex(v, "slots", &slots);
	slots_text(slots, c->slots, sizeof(c->slots));
}

int saved_report_read(struct json_object *root, struct saved_report *s)
{
	struct json_object *devs = report_get_array(root, "devices");
	struct json_object *pairs = report_get_array(root, "pairs");
	struct json_object *gpus = report_get_array(root, "gpus");
	struct json_object *groups = report_get_array(root, "groups"); /* none before grouping */
	size_t i, n;

	memset(s, 0, sizeof(*s));
	s->device = calloc(array_length(devs) + 1, sizeof(*s->device));
	s->pair = calloc(array_length(pairs) + 1, sizeof(*s->pair));
	s->gpu = calloc(array_length(gpus) + 1, sizeof(*s->gpu));
	if (!s->device || !s->pair || !s->gpu)
		goto free_report;
	for (i = 0, n = array_length(devs); i < n; i++)
		device_read(json_object_array_get_idx(devs, i), &s->device[s->nr_device++]);
	for (i = 0, n = array_length(pairs); i < n; i++) {
		struct json_object *o = json_object_array_get_idx(pairs, i);

		if (!json_object_is_type(o, json_type_object))
			continue;
		if (pair_read(o, groups, &s->pair[s->nr_pair++]))
			goto free_report;
	}
	for (i = 0, n = array_length(gpus); i < n; i++)
		gpu_read(json_object_array_get_idx(gpus, i), &s->gpu[s->nr_gpu++]);
	saved_context_read(root, &s->context);
	return 0;
free_report:
	saved_report_free(s);
	return -1;
}

void saved_report_free(struct saved_report *s)
{
	size_t i;

	for (i = 0; s->pair && i < s->nr_pair; i++) {
		free(s->pair[i].side_a.member);
		free(s->pair[i].side_b.member);
	}
	free(s->device);
	free(s->pair);
	free(s->gpu);
	memset(s, 0, sizeof(*s));
}
