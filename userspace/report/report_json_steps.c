// SPDX-License-Identifier: GPL-2.0
/*
 * JSON for the troubleshooting steps beyond the topology (report_text.c
 * says why they come in that order): the conditions each GPU
 * was measured under, each figure judged against its expectation with
 * the basis, the settings that change performance, the small-message
 * curve.  Findings stay structured data of their own (findings[]); these
 * are the facts behind them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "judge/results.h"
#include "report/report_json_steps.h"

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/* Rounded to 3 decimals, or null. */
static struct json_object *num(double v, bool valid)
{
	if (!valid || !isfinite(v))
		return NULL;
	return json_object_new_double(round(v * 1000.0) / 1000.0);
}

static struct json_object *str(const char *s)
{
	return json_object_new_string(s);
}

static struct json_object *reasons_json(const char *reasons)
{
	struct json_object *arr = json_object_new_array();
	char words[256], *tok, *save = NULL;

	snprintf(words, sizeof(words), "%s", reasons);
	for (tok = strtok_r(words, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		json_object_array_add(arr, str(tok[0] == ' ' ? tok + 1 : tok));
	return arr;
}

struct json_object *report_json_nvml_failures(const struct check_run *r,
					      unsigned int g)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	struct json_object *arr = json_object_new_array(), *f;
	unsigned int i;

	for (i = 0; i < d->nr_nvml_failures && i < GPU_NVML_FAILURES; i++) {
		f = json_object_new_object();
		put(f, "reading", str(d->nvml_failure[i].field));
		put(f, "call", str(d->nvml_failure[i].call));
		put(f, "error", str(d->nvml_failure[i].error));
		json_object_array_add(arr, f);
	}
	return arr;
}

struct json_object *report_json_conditions(const struct check_run *r,
					   unsigned int g)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	const struct gpu_activity *a = &d->activity;
	const struct judged_gpu *jg = &r->judged.results->gpu[g];
	struct json_object *o = json_object_new_object(), *arr, *p;
	unsigned int i;

	put(o, "busy", json_object_new_boolean(gpu_activity_busy(a)));
	arr = a->procs_valid ? json_object_new_array() : NULL;
	for (i = 0; arr && i < a->nr_procs && i < GPU_MAX_PROCS; i++) {
		p = json_object_new_object();
		put(p, "pid", json_object_new_int64(a->proc[i].pid));
		put(p, "name", a->proc[i].name[0] ? str(a->proc[i].name) : NULL);
		put(p, "used_bytes", a->proc[i].used_bytes ?
		    json_object_new_int64((int64_t)a->proc[i].used_bytes) : NULL);
		put(p, "graphics", json_object_new_boolean(a->proc[i].graphics));
		json_object_array_add(arr, p);
	}
	put(o, "processes", arr);
	put(o, "processes_total", a->procs_valid ?
	    json_object_new_int((int)a->nr_procs) : NULL);
	put(o, "utilization_gpu_pct", a->util_valid ?
	    json_object_new_int((int)a->util_gpu) : NULL);
	put(o, "utilization_memory_pct", a->util_valid ?
	    json_object_new_int((int)a->util_mem) : NULL);
	put(o, "waited_s", num(a->waited_s, true));
	put(o, "clock_reasons", a->throttle_valid ? reasons_json(jg->throttle_words) : NULL);
	put(o, "clock_reasons_mask", a->throttle_valid ?
	    json_object_new_int64((int64_t)a->throttle) : NULL);
	put(o, "clocks_held", json_object_new_boolean(jg->clocks_held));
	put(o, "sm_clock_load_mhz", a->sm_clock_load ?
	    json_object_new_int((int)a->sm_clock_load) : NULL);
	put(o, "pstate_load", a->throttle_valid && a->pstate_load >= 0 ?
	    json_object_new_int(a->pstate_load) : NULL);
	if (d->placement.valid) {
		p = json_object_new_object();
		put(p, "cpu", json_object_new_int(d->placement.cpu));
		put(p, "cpu_node", json_object_new_int(d->placement.cpu_node));
		put(p, "buffer_node", json_object_new_int(d->placement.buf_node));
		put(o, "placement", p);
	} else {
		put(o, "placement", NULL);
	}
	return o;
}

static struct json_object *judged_one(const char *key, const struct gpu_figure *f,
				      const struct judged_figure *jf)
{
	struct json_object *o = json_object_new_object();
	const struct judge_expect *e = &jf->expect;
	const double ratio = jf->ratio;
	const char *verdict = !f->valid ? "not_measured" :
			      e->value <= 0 ? "no_expectation" :
			      !jf->low ? "ok" : jf->explained ? "explained" :
			      e->ceiling ? "high" : "low";

	put(o, "figure", str(key));
	put(o, "value", num(f->median, f->valid));
	put(o, "unit", str(e->ceiling ? "us" : "GB/s"));
	put(o, "expected", num(e->value, e->value > 0));
	put(o, "expected_is", str(e->ceiling ? "ceiling" : "rate"));
	put(o, "ratio", num(ratio, f->valid && e->value > 0));
	put(o, "verdict", str(verdict));
	put(o, "basis", str(e->basis));
	return o;
}

struct json_object *report_json_dev_judged(const struct check_run *r,
					   unsigned int g)
{
	struct json_object *arr = json_object_new_array();
	const struct judged_gpu *jg = &r->judged.results->gpu[g];
	unsigned int i;

	for (i = 0; i < JF_DEV_FIGS; i++)
		json_object_array_add(arr, judged_one(judge_dev_fig_key(i),
						      judge_dev_figure(&r->in.gpu->dev[g], i),
						      &jg->fig[i]));
	return arr;
}

struct json_object *report_json_pair_judged(const struct check_run *r, int k)
{
	const struct judged_gpu_pair *jp;
	struct json_object *arr;
	unsigned int i;

	if (k < 0)
		return NULL;
	jp = &r->judged.results->gpu_pair[k];
	arr = json_object_new_array();
	for (i = 0; i < JP_PAIR_FIGS; i++)
		json_object_array_add(arr, judged_one(judge_pair_fig_key(i),
						      judge_pair_figure(&r->in.gpu->pair[k], i),
						      &jp->fig[i]));
	return arr;
}

static struct json_object *setting_json(const struct judge_setting *s)
{
	struct json_object *o = json_object_new_object();

	put(o, "key", str(s->key));
	put(o, "name", str(s->name));
	put(o, "value", s->state == SETTING_UNKNOWN ? NULL : str(s->value));
	put(o, "state", str(judge_setting_state_name(s->state)));
	put(o, "effect", str(s->effect));
	put(o, "change", str(s->change));
	return o;
}

struct json_object *report_json_settings(const struct check_run *r, int g)
{
	const struct judge_setting *set;
	struct json_object *arr = json_object_new_array();
	unsigned int i, n;

	if (!r->judged.results)	/* nothing judged: pasted evidence without a tree */
		return arr;
	if (g < 0) {
		set = &r->judged.results->host_aspm;
		n = 1;
	} else {
		set = r->judged.results->gpu[g].setting;
		n = r->judged.results->gpu[g].nr_settings;
	}
	for (i = 0; i < n; i++)
		if (set[i].key)		/* judged: not so for pasted evidence */
			json_object_array_add(arr, setting_json(&set[i]));
	return arr;
}

static struct json_object *curve_json(const struct gpu_curve *c,
				      const struct curve_fit *fit)
{
	struct json_object *o, *arr;
	const struct curve_fit f = *fit;
	unsigned int i;

	if (!c->n)
		return NULL;
	o = json_object_new_object();
	arr = json_object_new_array();
	for (i = 0; i < c->n; i++) {
		struct json_object *p = json_object_new_object();

		put(p, "bytes", json_object_new_int64((int64_t)c->bytes[i]));
		put(p, "us", num(c->us[i], true));
		json_object_array_add(arr, p);
	}
	put(o, "points", arr);
	put(o, "verified", json_object_new_boolean(c->verified));
	put(o, "fixed_us", num(f.fixed_us, f.valid));
	put(o, "peak_gbs", num(f.peak_gbs, f.valid));
	put(o, "peak_bytes", f.valid ? json_object_new_int64((int64_t)f.peak_bytes) : NULL);
	put(o, "half_peak_bytes", f.valid && f.half_peak_bytes > 0 ?
	    json_object_new_int64((int64_t)llround(f.half_peak_bytes)) : NULL);
	put(o, "bound_bytes", f.valid ? json_object_new_int64((int64_t)f.bound_bytes) : NULL);
	return o;
}

struct json_object *report_json_pair_curve(const struct check_run *r, int k)
{
	if (k < 0)
		return NULL;
	return curve_json(&r->in.gpu->pair[k].curve, &r->judged.results->gpu_pair[k].curve);
}

struct json_object *report_json_dev_curves(const struct check_run *r,
					   unsigned int g)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	static const char *const keys[CURVE_KINDS] = { "h2d", "d2h", "local" };
	struct json_object *o;
	unsigned int k, any = 0;

	for (k = 0; k < CURVE_KINDS; k++)
		any |= d->curve[k].n;
	if (!any)
		return NULL;
	o = json_object_new_object();
	for (k = 0; k < CURVE_KINDS; k++)
		put(o, keys[k], curve_json(&d->curve[k], &r->judged.results->gpu[g].curve[k]));
	return o;
}
