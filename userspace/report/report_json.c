// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report, schema 1 (documented in SCHEMA.md), which is also the
 * baseline file.  Written as it is produced (json_stream.h): each member
 * is a small json-c object, so strings are escaped by the library, and
 * memory holds one pair or finding at a time, not the report.  Per-function values are the ABI's own text, exactly as
 * /sys/kernel/p2pdiag/devices/<addr>/<field> holds them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "evidence/evidence.h"
#include "judge/judge.h"
#include "judge/outcome.h"
#include "judge/results.h"
#include "judge/run_state.h"
#include "topology/format_text.h"
#include "topology/pciaddr.h"
#include "report/report.h"
#include "report/system_output.h"
#include "report/json_stream.h"
#include "report/report_json_steps.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"

/* How --json prints: pretty, spaced, "/" as it is. */
#define REPORT_JSON_FLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
				 JSON_C_TO_STRING_NOSLASHESCAPE)

static struct json_object *jstr_addr(unsigned long long addr)
{
	char a[P2PD_ADDR_STRLEN];

	return json_object_new_string(pciaddr_format(a, addr));
}

/* "6.12.95", or null for 0 (not known). */
static struct json_object *release_json(unsigned int release)
{
	char text[RELEASE_TEXT_MAX];

	return release ? json_object_new_string(release_text(text, release)) : NULL;
}

/* A number rounded to 3 decimals, or null for "not measured". */
static struct json_object *jnum(double v, int valid)
{
	if (!valid || !isfinite(v))
		return NULL;
	return json_object_new_double(round(v * 1000.0) / 1000.0);
}

static struct json_object *jfig(const struct gpu_figure *f)
{
	return jnum(f->median, f->valid);
}

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *jbuf(void (*fn)(struct p2pd_buf *,
					   const struct p2pd_model *,
					   const struct p2pd_pair *),
				const struct p2pd_model *m,
				const struct p2pd_pair *p)
{
	char tmp[JUDGE_TEXT_MAX];
	struct p2pd_buf b;

	p2pd_buf_init(&b, tmp, sizeof(tmp));
	fn(&b, m, p);
	p2pd_buf_terminate(&b);
	return json_object_new_string(tmp);
}

static struct json_object *device_json(const struct p2pd_function *f)
{
	struct json_object *o = json_object_new_object();
	int field;

	put(o, "addr", jstr_addr(f->addr));
	for (field = 0; field < P2PD_F_COUNT; field++) {
		char tmp[160];

		p2pd_field_text(tmp, sizeof(tmp), f, (enum p2pd_field)field);
		put(o, p2pd_field_name((enum p2pd_field)field),
		    json_object_new_string(tmp));
	}
	put(o, "kind", json_object_new_string(p2pd_kind_name(p2pd_device_kind(f->class_code))));
	return o;
}

/*
 * cuDeviceGetP2PAtomicCapabilities: null where the driver lacks it, else
 * the error (null when it answered) and each operation's native forms
 * and sizes ([] when not native).
 */
static struct json_object *atomic_ops_json(const struct gpu_pair *gp)
{
	struct json_object *o, *ops;
	unsigned int op, bit;

	if (gp->atomic_caps_state == GPU_ATOMIC_CAPS_ABSENT)
		return NULL;
	o = json_object_new_object();
	if (gp->atomic_caps_state == GPU_ATOMIC_CAPS_FAILED) {
		put(o, "error", json_object_new_string(gp->atomic_caps_error));
		put(o, "ops", NULL);
		return o;
	}
	put(o, "error", NULL);
	ops = json_object_new_object();
	for (op = 0; op < GPU_ATOMIC_OPS; op++) {
		struct json_object *caps = json_object_new_array();

		for (bit = 0; gpu_atomic_cap_name(bit); bit++)
			if (gp->atomic_caps[op] & (1u << bit))
				json_object_array_add(caps,
					json_object_new_string(gpu_atomic_cap_name(bit)));
		put(ops, gpu_atomic_op_name(op), caps);
	}
	put(o, "ops", ops);
	return o;
}

static struct json_object *cuda_json(const struct gpu_pair *gp)
{
	struct json_object *o;

	if (!gp || !gp->cuda_valid)
		return NULL;
	o = json_object_new_object();
	put(o, "can_access", json_object_new_int(gp->can_access));
	put(o, "perf_rank", json_object_new_int(gp->perf_rank));
	put(o, "access_supported", json_object_new_int(gp->access_supported));
	put(o, "native_atomics", json_object_new_int(gp->native_atomics));
	put(o, "array_access", json_object_new_int(gp->array_access));
	put(o, "partial_atomics", json_object_new_int(gp->partial_atomics));
	put(o, "atomic_ops", atomic_ops_json(gp));
	return o;
}

static const char *p2p_status_word(enum gpu_p2p_status s)
{
	static const char *const w[] = {
		"unknown", "ok", "chipset_not_supported", "gpu_not_supported",
		"ioh_topology_not_supported", "disabled_by_regkey", "not_supported",
	};

	return (unsigned int)s < sizeof(w) / sizeof(w[0]) ? w[s] : "unknown";
}

static struct json_object *nvml_json(const struct gpu_pair *gp)
{
	struct json_object *o;

	if (!gp || !gp->nvml_valid)
		return NULL;
	o = json_object_new_object();
	put(o, "topo_level", json_object_new_int(gp->topo_level));
	put(o, "p2p_read", json_object_new_string(p2p_status_word(gp->p2p_read)));
	put(o, "p2p_write", json_object_new_string(p2p_status_word(gp->p2p_write)));
	put(o, "p2p_nvlink", json_object_new_string(p2p_status_word(gp->p2p_nvlink)));
	put(o, "p2p_atomics", json_object_new_string(p2p_status_word(gp->p2p_atomics)));
	put(o, "nvlinks", json_object_new_int((int)gp->nvlinks));
	return o;
}

static const char *verified_word(const struct gpu_pair *gp)
{
	const struct gpu_figure *f[] = { &gp->p2p, &gp->p2p_bidir, &gp->latency_p2p };
	unsigned int i;
	int ran = 0;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i]->verify == VERIFY_NOT_RUN)
			continue;
		if (f[i]->verify != VERIFY_OK)
			return gpu_verify_name(f[i]->verify);
		ran = 1;
	}
	return ran ? "ok" : "not-run";
}

/* One direction of a GPU pair: CUDA, NVML, figures. */
static void direction_json(struct json_object *o, const struct check_run *r,
			   int k)
{
	const struct gpu_pair *gp = k < 0 ? NULL : &r->in.gpu->pair[k];
	struct json_object *bw;
	double exp;

	put(o, "cuda", cuda_json(gp));
	put(o, "nvml", nvml_json(gp));
	if (!gp) {
		put(o, "bw", NULL);
		put(o, "latency_us", NULL);
		put(o, "latency_staged_us", NULL);
		put(o, "verified", NULL);
		return;
	}
	exp = r->judged.results->gpu_pair[k].expected_gbs;
	bw = json_object_new_object();
	put(bw, "p2p_gbs", jfig(&gp->p2p));
	put(bw, "staged_gbs", jfig(&gp->staged));
	put(bw, "bidir_gbs", jfig(&gp->p2p_bidir));
	put(bw, "expected_gbs", jnum(exp, exp > 0));
	put(bw, "ratio", jnum(gp->p2p.median / exp, gp->p2p.valid && exp > 0));
	put(o, "bw", bw);
	put(o, "latency_us", jfig(&gp->latency_p2p));
	put(o, "latency_staged_us", jfig(&gp->latency_staged));
	put(o, "verified", json_object_new_string(verified_word(gp)));
	put(o, "status", json_object_new_string(gpu_status_name(gp->status)));
	put(o, "judged", report_json_pair_judged(r, k));
	put(o, "curve", report_json_pair_curve(r, k));
}

/* One endpoint group of a grouped run, with its members. */
static struct json_object *group_json(const struct check_run *r, unsigned int gi)
{
	const struct run_results *res = r->judged.results;
	struct json_object *o = json_object_new_object();
	struct json_object *members = json_object_new_array();
	int i;

	for (i = res->groups.first[gi]; i != P2PD_NO_INDEX; i = res->groups.next[i])
		json_object_array_add(members, jstr_addr(r->in.model->fn[i].addr));
	put(o, "group", json_object_new_int((int)gi));
	put(o, "members", members);
	return o;
}

static struct json_object *pair_json(const struct check_run *r, unsigned int pi)
{
	const struct p2pd_model *m = r->in.model;
	const struct p2pd_pair *p = &r->judged.pair[pi];
	const struct judged_pair *jp = &r->judged.results->pair[pi];
	struct json_object *o = json_object_new_object(), *arr, *rev;
	unsigned int i;

	put(o, "a", jstr_addr(m->fn[p->a].addr));
	put(o, "b", jstr_addr(m->fn[p->b].addr));
	/* grouped: a and b stand for every member of their groups */
	put(o, "group_a", jp->group_a < 0 ? NULL : json_object_new_int(jp->group_a));
	put(o, "group_b", jp->group_b < 0 ? NULL : json_object_new_int(jp->group_b));
	put(o, "count", json_object_new_int64((int64_t)jp->count));
	put(o, "class", json_object_new_string(p2pd_class_name(p->cls)));
	put(o, "verdict", json_object_new_string(p2pd_verdict_name(p->verdict)));
	put(o, "map", json_object_new_string(p2pd_map_name(p->map)));
	put(o, "distance", p->distance == P2PD_DISTANCE_UNKNOWN ? NULL :
			   json_object_new_int(p->distance));
	if (p->common_kind == P2PD_COMMON_BRIDGE)
		put(o, "common", jstr_addr(m->fn[p->common].addr));
	else
		put(o, "common", json_object_new_string(p2pd_common_name(p->common_kind)));
	arr = json_object_new_array();
	for (i = 0; i < p->path_len; i++)
		json_object_array_add(arr, jstr_addr(m->fn[p->path[i]].addr));
	put(o, "path", arr);
	arr = json_object_new_array();
	for (i = 0; i < p->nr_blockers; i++) {
		char tmp[64];
		struct p2pd_buf b;

		p2pd_buf_init(&b, tmp, sizeof(tmp));
		p2pd_format_blocker(&b, &m->fn[p->blocker[i]]);
		p2pd_buf_terminate(&b);
		json_object_array_add(arr, json_object_new_string(tmp));
	}
	put(o, "blockers", arr);
	put(o, "host_blocks", json_object_new_boolean(p->host_blocks));
	put(o, "fix", jbuf(p2pd_format_fix, m, p));
	put(o, "fix_detail", jp->fix ? json_object_new_string(jp->fix) : NULL);
	if (p->bottleneck_fn != P2PD_NO_INDEX) {
		char bn[32];

		snprintf(bn, sizeof(bn), "%u.%ux%u", p->bottleneck.speed / 10,
			 p->bottleneck.speed % 10, p->bottleneck.width);
		put(o, "bottleneck", json_object_new_string(bn));
	} else {
		put(o, "bottleneck", NULL);
	}
	put(o, "degraded", json_object_new_boolean(p->degraded));
	put(o, "nccl_p2p", json_object_new_boolean(p->nccl_p2p));
	arr = json_object_new_array();
	if (p->notes & P2PD_NOTE_IOMMU_A)
		json_object_array_add(arr, json_object_new_string("iommu_a"));
	if (p->notes & P2PD_NOTE_IOMMU_B)
		json_object_array_add(arr, json_object_new_string("iommu_b"));
	if (p->notes & P2PD_NOTE_ATS_A)
		json_object_array_add(arr, json_object_new_string("ats_a"));
	if (p->notes & P2PD_NOTE_ATS_B)
		json_object_array_add(arr, json_object_new_string("ats_b"));
	if (p->notes & P2PD_NOTE_DIRECT_TRANS)
		json_object_array_add(arr, json_object_new_string("direct_trans"));
	if (p->notes & P2PD_NOTE_SAME_DEVICE)
		json_object_array_add(arr, json_object_new_string("same_device"));
	put(o, "notes", arr);

	direction_json(o, r, jp->gpu_ab);
	rev = json_object_new_object();
	direction_json(rev, r, jp->gpu_ba);
	put(o, "reverse", rev);
	return o;
}

static struct json_object *link_json(const struct gpu_link_reading *l)
{
	struct json_object *o;

	if (!l->valid)
		return NULL;
	o = json_object_new_object();
	put(o, "gen", json_object_new_int((int)l->gen));
	put(o, "width", json_object_new_int((int)l->width));
	put(o, "gen_load", json_object_new_int((int)l->gen_load));
	put(o, "width_load", json_object_new_int((int)l->width_load));
	put(o, "max_gen", json_object_new_int((int)l->max_gen));
	put(o, "max_width", json_object_new_int((int)l->max_width));
	return o;
}

static struct json_object *bar1_json(const struct gpu_bar1_reading *b)
{
	struct json_object *o;

	if (!b->valid)
		return NULL;
	o = json_object_new_object();
	put(o, "total_mib", json_object_new_int64((int64_t)(b->total >> 20)));
	put(o, "used_mib", json_object_new_int64((int64_t)(b->used >> 20)));
	put(o, "memory_mib", json_object_new_int64((int64_t)(b->memory >> 20)));
	return o;
}

static struct json_object *counters_json(const struct gpu_counters *c)
{
	struct json_object *o;

	if (!c->valid)
		return NULL;
	o = json_object_new_object();
	put(o, "replay", json_object_new_int64((int64_t)c->replay));
	put(o, "ecc_corrected", json_object_new_int64((int64_t)c->ecc_corrected));
	put(o, "ecc_uncorrected", json_object_new_int64((int64_t)c->ecc_uncorrected));
	put(o, "xid", json_object_new_int64((int64_t)c->xid));
	return o;
}

static struct json_object *gpu_json(const struct check_run *r, unsigned int g)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	struct json_object *o = json_object_new_object();
	double exp = r->judged.results->gpu[g].expected_host_gbs;

	put(o, "index", json_object_new_int((int)g));
	put(o, "ordinal", json_object_new_int(d->ordinal));
	put(o, "addr", jstr_addr(d->pci_addr));
	put(o, "name", json_object_new_string(d->name));
	put(o, "numa_node", json_object_new_int(d->numa_node));
	put(o, "h2d_gbs", jfig(&d->h2d));
	put(o, "d2h_gbs", jfig(&d->d2h));
	put(o, "bidir_h2d_gbs", jfig(&d->bidir_h2d));
	put(o, "bidir_d2h_gbs", jfig(&d->bidir_d2h));
	put(o, "local_gbs", jfig(&d->local));
	put(o, "expected_gbs", jnum(exp, exp > 0));
	put(o, "latency_us", jfig(&d->latency_h2d));
	put(o, "latency_chase_us", jfig(&d->latency_chase));
	put(o, "link", link_json(&d->link));
	put(o, "bar1", bar1_json(&d->bar1));
	put(o, "nvlinks_active", json_object_new_int((int)d->nvlinks_active));
	put(o, "counters_before", counters_json(&d->before));
	put(o, "counters_after", counters_json(&d->after));
	put(o, "conditions", report_json_conditions(r, g));
	put(o, "nvml_failures", report_json_nvml_failures(r, g));
	put(o, "judged", report_json_dev_judged(r, g));
	put(o, "settings", report_json_settings(r, (int)g));
	put(o, "curves", report_json_dev_curves(r, g));
	return o;
}

/*
 * A finding's evidence, "file:line; file:line", as [{file, line}]; the
 * line is after the last colon, so a file name may hold colons.
 */
static struct json_object *evidence_refs_json(const char *refs)
{
	struct json_object *arr = json_object_new_array();
	const char *p = refs;

	while (p && *p) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *colon = NULL, *q;
		struct json_object *o = json_object_new_object();

		for (q = p; q < p + len; q++)
			if (*q == ':')
				colon = q;
		put(o, "file", json_object_new_string_len(p, (int)(colon ? colon - p : (ptrdiff_t)len)));
		put(o, "line", colon ? json_object_new_int(atoi(colon + 1)) : NULL);
		json_object_array_add(arr, o);
		p = end ? end + 2 : NULL;
	}
	return arr;
}

/* The files --evidence read, each with the formats found in it. */
static struct json_object *evidence_files_json(const struct check_run *r)
{
	struct json_object *arr = json_object_new_array();
	const struct evidence *ev = r->in.evidence;
	unsigned int i, b;

	for (i = 0; ev && i < ev->nr_files; i++) {
		const struct ev_file *f = &ev->file[i];
		struct json_object *o = json_object_new_object(), *fmts = json_object_new_array();

		put(o, "file", json_object_new_string(ev_file_name(ev, i)));
		for (b = 0; b < EV_FMT_COUNT; b++)
			if (f->formats & (1u << b))
				json_object_array_add(fmts, json_object_new_string(ev_format_name(1u << b)));
		put(o, "formats", fmts);
		put(o, "recognised", json_object_new_boolean(f->formats != 0));
		put(o, "lines", json_object_new_int64(f->nr_lines));
		put(o, "bytes", json_object_new_int64((int64_t)f->len));
		put(o, "cut_lines", json_object_new_boolean(f->cut));
		json_object_array_add(arr, o);
	}
	return arr;
}

/*
 * One entry per file named: whether it was read, in which format (the
 * formats joined by '+' where it holds several), and why not.
 */
static struct json_object *inputs_json(const struct check_run *r)
{
	struct json_object *arr = json_object_new_array();
	const struct evidence *ev = r->in.evidence;
	unsigned int i, b;

	for (i = 0; ev && i < ev->nr_files; i++) {
		const struct ev_file *f = &ev->file[i];
		struct json_object *o = json_object_new_object();
		char fmt[256] = "";
		size_t used = 0;

		for (b = 0; b < EV_FMT_COUNT && used < sizeof(fmt); b++)
			if (f->formats & (1u << b))
				used += (size_t)snprintf(fmt + used, sizeof(fmt) - used, "%s%s",
							 used ? "+" : "", ev_format_name(1u << b));
		put(o, "file", json_object_new_string(ev_file_name(ev, i)));
		put(o, "read", json_object_new_boolean(f->formats != 0));
		put(o, "format", f->formats ? json_object_new_string(fmt) : NULL);
		if (!f->formats)
			put(o, "why", json_object_new_string(ev_file_why(f)));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *suspect_json(const struct suspect *sp)
{
	struct json_object *o = json_object_new_object();
	struct json_object *pro = json_object_new_array(), *con = json_object_new_array();
	unsigned int i;

	put(o, "root_cause", json_object_new_string(root_cause_name(sp->root_cause)));
	put(o, "likelihood", json_object_new_string(likelihood_name(sp->likelihood)));
	for (i = 0; i < sp->nr_for; i++)
		json_object_array_add(pro, json_object_new_string(sp->fact_for[i]));
	for (i = 0; i < sp->nr_against; i++)
		json_object_array_add(con, json_object_new_string(sp->fact_against[i]));
	put(o, "for", pro);
	put(o, "against", con);
	put(o, "confirm", json_object_new_string(sp->confirm));
	return o;
}

static struct json_object *suspects_json(const struct check_run *r)
{
	struct json_object *arr = json_object_new_array();
	unsigned int i;

	for (i = 0; i < r->judged.diagnosis.nr_suspects; i++)
		json_object_array_add(arr, suspect_json(&r->judged.diagnosis.suspect[i]));
	return arr;
}

static struct json_object *finding_json(const struct finding *it)
{
	struct json_object *o = json_object_new_object();

	put(o, "severity", json_object_new_string(finding_severity_name(it->severity)));
	put(o, "code", json_object_new_string(it->code));
	put(o, "message", json_object_new_string(it->message));
	put(o, "fix", it->fix ? json_object_new_string(it->fix) : NULL);
	put(o, "a", it->has_pair || it->a != FINDING_NO_ADDR ? jstr_addr(it->a) : NULL);
	put(o, "b", it->has_pair ? jstr_addr(it->b) : NULL);
	put(o, "evidence", it->evidence ? evidence_refs_json(it->evidence) : NULL);
	return o;
}

/* One entry per cause, worst first; "pairs" in the cause's order. */
static void causes_stream(struct json_stream *s, const struct check_run *r)
{
	const struct causes *c = &r->judged.causes;
	size_t i, j;

	json_stream_open_array(s, "causes");
	for (i = 0; i < c->nr && json_stream_ok(s); i++) {
		const struct cause *k = &c->cause[i];
		const char *refs;

		json_stream_open_object(s, NULL);
		json_stream_put(s, "code", json_object_new_string(k->code));
		json_stream_put(s, "severity",
				json_object_new_string(finding_severity_name(k->severity)));
		json_stream_put(s, "root_cause",
				json_object_new_string(root_cause_name(k->root_cause)));
		json_stream_put(s, "findings", json_object_new_int64((int64_t)k->nr));
		json_stream_open_array(s, "pairs");
		for (j = 0; j < k->nr && json_stream_ok(s); j++) {
			const struct finding *it = &r->judged.findings.item[k->item[j]];
			struct json_object *pair;

			if (!it->has_pair)
				continue;
			pair = json_object_new_array();
			json_object_array_add(pair, jstr_addr(it->a));
			json_object_array_add(pair, jstr_addr(it->b));
			json_stream_put(s, NULL, pair);
		}
		json_stream_close(s);
		json_stream_put(s, "fix", json_object_new_string(k->machine_fix ? "machine" :
								 k->fix ? "shared" : "per_finding"));
		json_stream_put(s, "fix_text", k->fix ? json_object_new_string(k->fix) : NULL);
		refs = r->judged.findings.item[k->item[0]].evidence;
		json_stream_put(s, "evidence", refs ? evidence_refs_json(refs) : NULL);
		json_stream_close(s);
	}
	json_stream_close(s);
}

/* The machine-wide fix, or null when no port needs clearing. */
static struct json_object *machine_fix_json(const struct check_run *r)
{
	const struct p2pd_port_set *s = &r->judged.causes.ports;
	struct json_object *o, *ports;
	char tmp[JUDGE_TEXT_MAX];
	struct p2pd_buf b;
	unsigned int i;

	if (!s->nr || !r->in.model)
		return NULL;
	o = json_object_new_object();
	p2pd_buf_init(&b, tmp, sizeof(tmp));
	p2pd_format_fix_set(&b, r->in.model, s);
	p2pd_buf_terminate(&b);
	put(o, "kernel_parameter", json_object_new_string(tmp));
	p2pd_buf_init(&b, tmp, sizeof(tmp));
	p2pd_format_config_acs_set(&b, r->in.model, s);
	p2pd_buf_terminate(&b);
	put(o, "config_acs", json_object_new_string(tmp));
	ports = json_object_new_array();
	for (i = 0; i < s->nr; i++)
		json_object_array_add(ports, jstr_addr(r->in.model->fn[s->port[i]].addr));
	put(o, "ports", ports);
	put(o, "overflow", json_object_new_boolean(s->overflow));
	return o;
}

static struct json_object *status_json(const struct check_run *r)
{
	struct json_object *o = json_object_new_object();
	const struct gpu_state *st = r->in.gpu;

	put(o, "cuda", json_object_new_string(st ? gpu_status_name(st->cuda) : "skipped"));
	put(o, "nvml", json_object_new_string(st ? gpu_status_name(st->nvml) : "skipped"));
	put(o, "measure", json_object_new_string(!st ? "skipped" :
		r->in.gpu_measured ? gpu_status_name(st->measure) : "skipped"));
	put(o, "error", st && st->error[0] ? json_object_new_string(st->error) : NULL);
	put(o, "driver_version", st ? json_object_new_int(st->driver_version) : NULL);
	put(o, "nvml_driver", st && st->nvml_driver[0] ?
	    json_object_new_string(st->nvml_driver) : NULL);
	put(o, "nvml_driver_error", st && st->nvml_driver_error[0] ?
	    json_object_new_string(st->nvml_driver_error) : NULL);
	return o;
}

static struct json_object *exchange_json(const struct gpu_exchange *x)
{
	struct json_object *arr = json_object_new_array();
	unsigned int i;

	for (i = 0; x->valid && i < GPU_EXCHANGE_SIZES; i++) {
		struct json_object *o;

		if (!x->size[i])
			continue;
		o = json_object_new_object();
		put(o, "bytes", json_object_new_int64((int64_t)x->size[i]));
		put(o, "p2p_us", jnum(x->p2p_us[i], 1));
		put(o, "staged_us", jnum(x->staged_us[i], 1));
		put(o, "reduction", jnum(1 - x->p2p_us[i] / x->staged_us[i],
					 x->staged_us[i] > 0));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *summary_json(const struct check_run *r)
{
	struct json_object *sum = json_object_new_object();
	enum run_grounds grounds;
	enum run_state state = run_state(r, &grounds);
	size_t n[3] = { 0 };
	size_t i;

	for (i = 0; i < r->judged.findings.nr; i++)
		n[r->judged.findings.item[i].severity]++;
	put(sum, "errors", json_object_new_int((int)n[SEV_ERROR]));
	put(sum, "warnings", json_object_new_int((int)n[SEV_WARNING]));
	put(sum, "infos", json_object_new_int((int)n[SEV_INFO]));
	put(sum, "exit_status", json_object_new_int(outcome_exit_status(&r->judged.findings)));
	put(sum, "state", json_object_new_string(run_state_name(state)));
	put(sum, "grounds", json_object_new_string(run_grounds_name(grounds)));
	put(sum, "fix", machine_fix_json(r));
	return sum;
}

/*
 * The arrays that grow with the machine (devices, groups, pairs,
 * findings, causes) are streamed member by member; the rest are small
 * objects built whole.
 */
int report_json_write(FILE *out, const struct check_run *r, int flags)
{
	const struct run_results *res = r->judged.results;
	const struct p2pd_model *m = r->in.model;
	struct json_object *arr;
	struct json_stream s;
	unsigned int i;

	json_stream_begin(&s, out, flags);
	json_stream_open_object(&s, NULL);
	json_stream_put(&s, "schema", json_object_new_int(REPORT_SCHEMA));
	json_stream_put(&s, "tool", json_object_new_string("p2pdiag-check"));
	json_stream_put(&s, "version", json_object_new_string(report_version()));
	json_stream_put(&s, "source", json_object_new_string(r->in.source));
	json_stream_put(&s, "source_detail", json_object_new_string(r->in.source_detail));
	json_stream_put(&s, "evidence_files", evidence_files_json(r));
	json_stream_put(&s, "generation",
			m ? json_object_new_int64((int64_t)m->generation) : NULL);
	json_stream_put(&s, "cpu", !m ? NULL :
			json_object_new_string(p2pd_cpu_word(m->cpu_flags)));
	json_stream_put(&s, "kernel_release", release_json(m ? m->kernel_release : 0));
	json_stream_put(&s, "p2pdma_list", release_json(m ? p2pd_whitelist_release(m) : 0));

	json_stream_open_array(&s, "devices");
	for (i = 0; m && i < m->nr_fn && json_stream_ok(&s); i++)
		json_stream_put(&s, NULL, device_json(&m->fn[i]));
	json_stream_close(&s);
	/* the endpoint groups of a grouped run; [] otherwise */
	json_stream_open_array(&s, "groups");
	for (i = 0; res && res->grouped && i < res->groups.nr && json_stream_ok(&s); i++)
		json_stream_put(&s, NULL, group_json(r, i));
	json_stream_close(&s);
	json_stream_open_array(&s, "pairs");
	for (i = 0; i < r->judged.nr_pairs && json_stream_ok(&s); i++)
		json_stream_put(&s, NULL, pair_json(r, i));
	json_stream_close(&s);
	/* past PAIRS_LISTED_MAX judgements, the fine pairs are only counted */
	if (res && res->pairs_not_listed)
		json_stream_put(&s, "pairs_not_listed",
				json_object_new_int64((int64_t)res->pairs_not_listed));

	arr = json_object_new_array();
	for (i = 0; r->in.gpu && i < r->in.gpu->nr_dev; i++)
		if (r->judged.results->gpu[i].selected)
			json_object_array_add(arr, gpu_json(r, i));
	json_stream_put(&s, "gpus", arr);
	json_stream_put(&s, "gpu_status", status_json(r));
	json_stream_put(&s, "host_settings", report_json_settings(r, -1));
	json_stream_put(&s, "exchange", r->in.gpu ? exchange_json(&r->in.gpu->exchange) :
						 json_object_new_array());
	json_stream_put(&s, "system", system_output_json(r));
	json_stream_open_array(&s, "findings");
	for (i = 0; i < r->judged.findings.nr && json_stream_ok(&s); i++)
		json_stream_put(&s, NULL, finding_json(&r->judged.findings.item[i]));
	json_stream_close(&s);
	causes_stream(&s, r);
	json_stream_put(&s, "root_cause",
			json_object_new_string(root_cause_name(r->judged.diagnosis.root_cause)));
	json_stream_put(&s, "suspects", suspects_json(r));
	json_stream_put(&s, "inputs", inputs_json(r));
	json_stream_put(&s, "summary", summary_json(r));
	json_stream_close(&s);
	return json_stream_end(&s);
}

int report_json_print(FILE *out, const struct check_run *r)
{
	if (report_json_write(out, r, REPORT_JSON_FLAGS))
		return -1;
	errno = 0;
	if (fputc('\n', out) == EOF || fflush(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
