// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet comparison's result: the groups, the outliers worst first
 * with each difference in words, and the inputs that could not be read;
 * as text, or as JSON (SCHEMA.md, "Fleet comparison") written as it is
 * produced.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "fleet/fleet_priv.h"
#include "platform/safe_text.h"
#include "report/json_stream.h"
#include "report/report.h"
#include "topology/pciaddr.h"
#include "p2pdiag/format.h"

static const char *const diff_kind_names[] = {
	[FD_MISSING] = "function-missing",
	[FD_EXTRA] = "function-extra",
	[FD_FIELD] = "field",
	[FD_PAIR_MISSING] = "pair-missing",
	[FD_PAIR_EXTRA] = "pair-extra",
	[FD_CLASS] = "class",
	[FD_VERDICT] = "verdict",
	[FD_BW_LOW] = "bandwidth-low",
};

static const char *fleet_diff_kind_name(enum fleet_diff_kind k)
{
	return diff_kind_names[k];
}

/* Group @g's reference word of field @f of function @a, or "?". */
static const char *ref_field(const struct fleet_state *st,
			     const struct fleet_group *g, unsigned long long a,
			     enum p2pd_field f)
{
	struct fleet_key k;
	const struct fleet_ref *r;

	memset(&k, 0, sizeof(k));
	k.kind = FK_FIELD;
	k.field = (uint8_t)f;
	k.a = a;
	r = fleet_ref_of(g, fleet_key_find(st, &k));
	return r ? fleet_word(st, r->value, "?") : "?";
}

static const char *figure_name(enum fleet_kind k)
{
	return k == FK_BW_H2D ? "host to device" :
	       k == FK_BW_D2H ? "device to host" : "P2P";
}

/*
 * One difference in words, as both outputs say it; @whose: "group's" for
 * a server, "model's" for a group.
 */
static void fleet_diff_text(char *buf, size_t len, const struct fleet_state *st,
			    const struct fleet_group *g, const struct fleet_diff *d,
			    const char *whose)
{
	const struct fleet_key *k = fleet_key_of(st, d->key);
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];
	const char *have = fleet_word(st, d->value, "none");
	const char *want = fleet_word(st, d->ref, "none");
	unsigned int of = g->nr_servers, hold = d->ref_servers;

	pciaddr_format(a, k->a);
	if (k->b)
		pciaddr_format(b, k->b);
	else
		b[0] = '\0';
	switch ((enum fleet_diff_kind)d->kind) {
	case FD_MISSING:
		snprintf(buf, len, "function %s [%s:%s] is missing (%u of the %s %u servers have it)",
			 a, ref_field(st, g, k->a, P2PD_F_VENDOR),
			 ref_field(st, g, k->a, P2PD_F_DEVICE), hold, whose, of);
		break;
	case FD_EXTRA:
		snprintf(buf, len, "function %s is here, but not on %u of the %s %u servers",
			 a, hold, whose, of);
		break;
	case FD_FIELD:
		snprintf(buf, len, "%s %s is %s, the %s %s (%u of %u servers)",
			 a, p2pd_field_name((enum p2pd_field)k->field), have, whose,
			 want, hold, of);
		break;
	case FD_PAIR_MISSING:
		snprintf(buf, len, "pair %s %s is not judged here, %s on %u of the %s %u servers",
			 a, b, want, hold, whose, of);
		break;
	case FD_PAIR_EXTRA:
		snprintf(buf, len, "pair %s %s is judged here (%s), but not on %u of the %s %u servers",
			 a, b, have, hold, whose, of);
		break;
	case FD_CLASS:
		snprintf(buf, len, "pair %s %s is %s, the %s %s (%u of %u servers)",
			 a, b, have, whose, want, hold, of);
		break;
	case FD_VERDICT:
		snprintf(buf, len, "pair %s %s: verdict %s, the %s %s (%u of %u servers)",
			 a, b, have, whose, want, hold, of);
		break;
	case FD_BW_LOW:
		snprintf(buf, len, "%s %s%s%s: %.1f GB/s, %.0f%% below the group's median %.1f GB/s (of %u servers measuring it; margin %.0f%%)",
			 k->kind == FK_BW_P2P ? "P2P" : "GPU", a,
			 k->kind == FK_BW_P2P ? " -> " : " ",
			 k->kind == FK_BW_P2P ? b : figure_name((enum fleet_kind)k->kind),
			 d->gbs, 100 * (1 - d->gbs / d->median), d->median, hold,
			 100 * st->tolerance);
		break;
	}
}

/* "model 'X' BIOS 'Y' kernel 'Z'" */
static void group_text(char *buf, size_t len, const struct fleet_state *st,
		       const struct fleet_group *g)
{
	snprintf(buf, len, "model '%s', BIOS '%s', kernel '%s'",
		 fleet_word(st, g->model, "unknown"), fleet_word(st, g->bios, "unknown"),
		 fleet_word(st, g->kernel, "unknown"));
}

/* What a key is about, for the facts without a majority. */
static void key_text(char *buf, size_t len, const struct fleet_state *st,
		     uint32_t key)
{
	const struct fleet_key *k = fleet_key_of(st, key);
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];

	pciaddr_format(a, k->a);
	pciaddr_format(b, k->b);
	switch ((enum fleet_kind)k->kind) {
	case FK_FUNCTION:
		snprintf(buf, len, "function %s", a);
		break;
	case FK_FIELD:
		snprintf(buf, len, "%s %s", a, p2pd_field_name((enum p2pd_field)k->field));
		break;
	case FK_PAIR_VERDICT:
	case FK_PAIR_CLASS:
		snprintf(buf, len, "pair %s %s %s", a, b,
			 k->kind == FK_PAIR_VERDICT ? "verdict" : "class");
		break;
	default:
		snprintf(buf, len, "%s %s", a, figure_name((enum fleet_kind)k->kind));
		break;
	}
}

#define SPLIT_SHOWN 5

/* A note on the identities in words, as both outputs say it. */
static void fleet_identity_text(char *buf, size_t len,
				const struct fleet_state *st,
				const struct fleet_identity_note *n)
{
	const char *file = st->server[n->server].name;

	if (n->kind == FI_DUPLICATE)
		snprintf(buf, len, "%s is of the same server as the newer %s (%s): it counts that server twice; remove it",
			 file, st->server[n->other].name, n->what);
	else
		snprintf(buf, len, "%s is stale: %s (the server stopped reporting, or the file is left over)",
			 file, n->what);
}

/* The facts without a majority of @gr, up to SPLIT_SHOWN, on @out. */
static void print_split(FILE *out, const struct fleet_state *st,
			const struct fleet_group *gr)
{
	char line[1024], safe[4 * sizeof(line)];
	uint32_t i, shown;

	for (i = 0, shown = 0; i < gr->nr_ref && shown < SPLIT_SHOWN; i++) {
		/* a model's fact its groups hold no majority on: said per group */
		if (!gr->ref[i].split ||
		    !strcmp(fleet_word(st, gr->ref[i].value, ""), FLEET_NO_MAJORITY))
			continue;
		key_text(line, sizeof(line), st, gr->ref[i].key);
		fprintf(out, "      %s\n", safe_text(safe, sizeof(safe), line));
		shown++;
	}
	if (gr->nr_split > SPLIT_SHOWN)
		fprintf(out, "      (%u more: see --json)\n", gr->nr_split - SPLIT_SHOWN);
}

/* Whether @gr's model has other groups (compared in fleet_analyse_models()). */
static bool model_of(const struct fleet_state *st, const struct fleet_group *gr)
{
	uint32_t i;

	for (i = 0; i < st->nr_model; i++)
		if (st->model[i].model == gr->model)
			return true;
	return false;
}

int fleet_print_text(FILE *out, const struct fleet_state *st, int status)
{
	/* names and facts come from the reports: shown with safe_text() */
	char line[1024], safe[4 * sizeof(line)];
	uint32_t g, i, j;

	errno = 0;
	fprintf(out, "p2pdiag-check fleet comparison: %u report%s in %u group%s, %u outlier%s, %u unreadable input%s, %u group%s differing from its model's others\n",
		st->nr_server, st->nr_server == 1 ? "" : "s", st->nr_group,
		st->nr_group == 1 ? "" : "s", st->nr_outlier,
		st->nr_outlier == 1 ? "" : "s", st->nr_bad, st->nr_bad == 1 ? "" : "s",
		st->nr_gdiff, st->nr_gdiff == 1 ? "" : "s");
	fprintf(out, "reference: each group's majority; bandwidth: the group's median, a figure more than %.0f%% below it is low\n\n",
		100 * st->tolerance);
	for (g = 0; g < st->nr_group; g++) {
		const struct fleet_group *gr = &st->group[g];

		group_text(line, sizeof(line), st, gr);
		fprintf(out, "group %u: %s: %u server%s\n", g + 1,
			safe_text(safe, sizeof(safe), line), gr->nr_servers,
			gr->nr_servers == 1 ? "" : "s");
		if (gr->nr_servers == 1)
			fprintf(out, "    one server, %s: no majority in its group to compare it with%s\n",
				safe_text(safe, sizeof(safe), st->server[gr->lone].name), model_of(st, gr) ?
				" (compared with its model's other groups)" :
				", nor another group of its model: not compared");
		else if (gr->nr_split)
			fprintf(out, "    %-7s %u fact%s without a majority: the servers disagree and none is the reference:\n",
				finding_severity_name((enum finding_severity)gr->split_worst),
				gr->nr_split, gr->nr_split == 1 ? "" : "s");
		if (gr->nr_servers > 1)
			print_split(out, st, gr);
	}
	for (i = 0; i < st->nr_model; i++) {
		const struct fleet_group *m = &st->model[i];

		if (!m->nr_split)
			continue;
		fprintf(out, "model '%s': %-7s its groups hold no majority on %u fact%s:\n",
			safe_text(safe, sizeof(safe), fleet_word(st, m->model, "unknown")),
			finding_severity_name((enum finding_severity)m->split_worst),
			m->nr_split, m->nr_split == 1 ? "" : "s");
		print_split(out, st, m);
	}
	if (st->nr_gdiff)
		fprintf(out, "\ngroups that differ from their model's other groups, worst first:\n");
	for (i = 0; i < st->nr_gdiff; i++) {
		const struct fleet_group_diff *gd = &st->gdiff[i];
		const struct fleet_group *like = &st->group[gd->like];
		char bios[4 * 128], kernel[4 * 128];

		group_text(line, sizeof(line), st, &st->group[gd->group]);
		fprintf(out, "  %-7s group %u (%s; %u server%s): %u difference%s from the model's %u servers; its largest other group, %u, runs BIOS '%s', kernel '%s'\n",
			finding_severity_name((enum finding_severity)gd->worst), gd->group + 1,
			safe_text(safe, sizeof(safe), line), st->group[gd->group].nr_servers,
			st->group[gd->group].nr_servers == 1 ? "" : "s", gd->nr_diff,
			gd->nr_diff == 1 ? "" : "s", st->model[gd->model].nr_servers,
			gd->like + 1,
			safe_text(bios, sizeof(bios), fleet_word(st, like->bios, "unknown")),
			safe_text(kernel, sizeof(kernel), fleet_word(st, like->kernel, "unknown")));
		for (j = 0; j < gd->nr_diff; j++) {
			fleet_diff_text(line, sizeof(line), st, &st->model[gd->model],
					&gd->diff[j], "model's");
			fprintf(out, "      %-7s %s\n",
				finding_severity_name((enum finding_severity)gd->diff[j].severity),
				safe_text(safe, sizeof(safe), line));
		}
	}
	if (st->nr_outlier)
		fprintf(out, "\noutliers, worst first:\n");
	for (i = 0; i < st->nr_outlier; i++) {
		const struct fleet_outlier *o = &st->outlier[i];
		const struct fleet_server *s = &st->server[o->server];
		const struct fleet_group *gr = &st->group[s->group];

		fprintf(out, "  %-7s %s (group %u): %u difference%s\n",
			finding_severity_name((enum finding_severity)o->worst),
			safe_text(safe, sizeof(safe), s->name),
			s->group + 1, o->nr_diff, o->nr_diff == 1 ? "" : "s");
		for (j = 0; j < o->nr_diff; j++) {
			fleet_diff_text(line, sizeof(line), st, gr, &o->diff[j], "group's");
			fprintf(out, "      %-7s %s\n",
				finding_severity_name((enum finding_severity)o->diff[j].severity),
				safe_text(safe, sizeof(safe), line));
		}
	}
	if (st->nr_inote)
		fprintf(out, "\nreports of one server, and stale reports:\n");
	for (i = 0; i < st->nr_inote; i++) {
		fleet_identity_text(line, sizeof(line), st, &st->inote[i]);
		fprintf(out, "  warning %s\n", safe_text(safe, sizeof(safe), line));
	}
	if (st->nr_anonymous)
		fprintf(out, "\n%u report%s carr%s no identity (system.identity: an older p2pdiag-check, or a saved topology): not checked for duplicates or staleness\n",
			st->nr_anonymous, st->nr_anonymous == 1 ? "" : "s",
			st->nr_anonymous == 1 ? "ies" : "y");
	if (st->nr_bad)
		fprintf(out, "\nunreadable inputs (not compared%s):\n",
			st->skip_unreadable ? "; --skip-unreadable: not in the exit status" : "");
	for (i = 0; i < st->nr_bad; i++)
		fprintf(out, "  %s\n", safe_text(safe, sizeof(safe), st->bad[i].why));
	fprintf(out, "\nexit status %d\n", status);
	return ferror(out) ? -1 : 0;
}

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void put_group(struct json_stream *js, const struct fleet_state *st, uint32_t g)
{
	const struct fleet_group *gr = &st->group[g];
	struct json_object *o = json_object_new_object(), *split = json_object_new_array();
	char line[256];
	uint32_t i;

	json_object_object_add(o, "group", json_object_new_int((int)g + 1));
	json_object_object_add(o, "model", str_or_null(fleet_word(st, gr->model, NULL)));
	json_object_object_add(o, "bios_version", str_or_null(fleet_word(st, gr->bios, NULL)));
	json_object_object_add(o, "kernel_release", str_or_null(fleet_word(st, gr->kernel, NULL)));
	json_object_object_add(o, "servers", json_object_new_int64(gr->nr_servers));
	json_object_object_add(o, "lone_server", gr->nr_servers == 1 ?
			       json_object_new_string(st->server[gr->lone].name) : NULL);
	json_object_object_add(o, "no_majority_severity", gr->nr_servers > 1 && gr->nr_split ?
			       json_object_new_string(finding_severity_name(
				       (enum finding_severity)gr->split_worst)) : NULL);
	for (i = 0; gr->nr_servers > 1 && i < gr->nr_ref; i++) {
		if (!gr->ref[i].split)
			continue;
		key_text(line, sizeof(line), st, gr->ref[i].key);
		json_object_array_add(split, json_object_new_string(line));
	}
	json_object_object_add(o, "no_majority", split);
	json_stream_put(js, NULL, o);
}

static struct json_object *diff_json(const struct fleet_state *st,
				     const struct fleet_group *g,
				     const struct fleet_diff *d, const char *whose)
{
	const struct fleet_key *k = fleet_key_of(st, d->key);
	struct json_object *o = json_object_new_object();
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN], line[1024];
	bool bw = d->kind == FD_BW_LOW;

	pciaddr_format(a, k->a);
	pciaddr_format(b, k->b);
	fleet_diff_text(line, sizeof(line), st, g, d, whose);
	json_object_object_add(o, "kind", json_object_new_string(fleet_diff_kind_name(d->kind)));
	json_object_object_add(o, "severity", json_object_new_string(
		finding_severity_name((enum finding_severity)d->severity)));
	json_object_object_add(o, "a", json_object_new_string(a));
	json_object_object_add(o, "b", k->b ? json_object_new_string(b) : NULL);
	json_object_object_add(o, "field", d->kind == FD_FIELD ?
			       json_object_new_string(p2pd_field_name((enum p2pd_field)k->field)) :
			       bw ? json_object_new_string(k->kind == FK_BW_P2P ? "p2p_gbs" :
							   k->kind == FK_BW_H2D ? "h2d_gbs" : "d2h_gbs") :
			       NULL);
	json_object_object_add(o, "value", bw ? json_object_new_double(d->gbs) :
			       str_or_null(fleet_word(st, d->value, NULL)));
	json_object_object_add(o, "reference", bw ? json_object_new_double(d->median) :
			       str_or_null(fleet_word(st, d->ref, NULL)));
	json_object_object_add(o, "reference_servers", json_object_new_int64(d->ref_servers));
	json_object_object_add(o, "message", json_object_new_string(line));
	return o;
}

int fleet_print_json(FILE *out, const struct fleet_state *st, int status)
{
	struct json_stream js;
	uint32_t i, j;

	json_stream_begin(&js, out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			  JSON_C_TO_STRING_NOSLASHESCAPE);
	json_stream_open_object(&js, NULL);
	json_stream_put(&js, "schema", json_object_new_int(REPORT_SCHEMA));
	json_stream_put(&js, "tool", json_object_new_string("p2pdiag-check"));
	json_stream_put(&js, "version", json_object_new_string(report_version()));
	json_stream_put(&js, "kind", json_object_new_string("fleet"));
	json_stream_put(&js, "tolerance", json_object_new_double(st->tolerance));
	json_stream_open_array(&js, "groups");
	for (i = 0; i < st->nr_group; i++)
		put_group(&js, st, i);
	json_stream_close(&js);
	json_stream_open_array(&js, "outliers");
	for (i = 0; i < st->nr_outlier && json_stream_ok(&js); i++) {
		const struct fleet_outlier *o = &st->outlier[i];
		const struct fleet_server *s = &st->server[o->server];
		struct json_object *ob = json_object_new_object(), *arr = json_object_new_array();

		json_object_object_add(ob, "file", json_object_new_string(s->name));
		json_object_object_add(ob, "group", json_object_new_int((int)s->group + 1));
		json_object_object_add(ob, "severity", json_object_new_string(
			finding_severity_name((enum finding_severity)o->worst)));
		for (j = 0; j < o->nr_diff; j++)
			json_object_array_add(arr, diff_json(st, &st->group[s->group],
							     &o->diff[j], "group's"));
		json_object_object_add(ob, "differences", arr);
		json_stream_put(&js, NULL, ob);
	}
	json_stream_close(&js);
	json_stream_open_array(&js, "group_differences");
	for (i = 0; i < st->nr_gdiff && json_stream_ok(&js); i++) {
		const struct fleet_group_diff *gd = &st->gdiff[i];
		struct json_object *ob = json_object_new_object(), *arr = json_object_new_array();

		json_object_object_add(ob, "group", json_object_new_int((int)gd->group + 1));
		json_object_object_add(ob, "largest_other_group", json_object_new_int((int)gd->like + 1));
		json_object_object_add(ob, "model_servers",
				       json_object_new_int64(st->model[gd->model].nr_servers));
		json_object_object_add(ob, "severity", json_object_new_string(
			finding_severity_name((enum finding_severity)gd->worst)));
		for (j = 0; j < gd->nr_diff; j++)
			json_object_array_add(arr, diff_json(st, &st->model[gd->model],
							     &gd->diff[j], "model's"));
		json_object_object_add(ob, "differences", arr);
		json_stream_put(&js, NULL, ob);
	}
	json_stream_close(&js);
	json_stream_open_array(&js, "models");
	for (i = 0; i < st->nr_model; i++) {
		const struct fleet_group *m = &st->model[i];
		struct json_object *ob = json_object_new_object(), *split = json_object_new_array();
		char line[256];

		json_object_object_add(ob, "model", str_or_null(fleet_word(st, m->model, NULL)));
		json_object_object_add(ob, "servers", json_object_new_int64(m->nr_servers));
		json_object_object_add(ob, "no_majority_severity", m->nr_split ?
				       json_object_new_string(finding_severity_name(
					       (enum finding_severity)m->split_worst)) : NULL);
		for (j = 0; j < m->nr_ref; j++) {
			if (!m->ref[j].split ||
			    !strcmp(fleet_word(st, m->ref[j].value, ""), FLEET_NO_MAJORITY))
				continue;
			key_text(line, sizeof(line), st, m->ref[j].key);
			json_object_array_add(split, json_object_new_string(line));
		}
		json_object_object_add(ob, "no_majority", split);
		json_stream_put(&js, NULL, ob);
	}
	json_stream_close(&js);
	json_stream_open_array(&js, "identity");
	for (i = 0; i < st->nr_inote; i++) {
		const struct fleet_identity_note *n = &st->inote[i];
		struct json_object *ob = json_object_new_object();
		char line[1024];

		fleet_identity_text(line, sizeof(line), st, n);
		json_object_object_add(ob, "kind", json_object_new_string(
			n->kind == FI_DUPLICATE ? "duplicate" : "stale"));
		json_object_object_add(ob, "file", json_object_new_string(st->server[n->server].name));
		json_object_object_add(ob, "newer_file", n->kind == FI_DUPLICATE ?
				       json_object_new_string(st->server[n->other].name) : NULL);
		json_object_object_add(ob, "matched", json_object_new_string(n->what));
		json_object_object_add(ob, "message", json_object_new_string(line));
		json_stream_put(&js, NULL, ob);
	}
	json_stream_close(&js);
	json_stream_open_array(&js, "unreadable");
	for (i = 0; i < st->nr_bad; i++) {
		struct json_object *ob = json_object_new_object();

		json_object_object_add(ob, "file", json_object_new_string(st->bad[i].name));
		json_object_object_add(ob, "error", json_object_new_string(st->bad[i].why));
		json_stream_put(&js, NULL, ob);
	}
	json_stream_close(&js);
	{
		struct json_object *sum = json_object_new_object();

		json_object_object_add(sum, "reports", json_object_new_int64(st->nr_server));
		json_object_object_add(sum, "groups", json_object_new_int64(st->nr_group));
		json_object_object_add(sum, "outliers", json_object_new_int64(st->nr_outlier));
		json_object_object_add(sum, "unreadable", json_object_new_int64(st->nr_bad));
		json_object_object_add(sum, "group_differences", json_object_new_int64(st->nr_gdiff));
		json_object_object_add(sum, "identity_notes", json_object_new_int64(st->nr_inote));
		json_object_object_add(sum, "without_identity", json_object_new_int64(st->nr_anonymous));
		json_object_object_add(sum, "skip_unreadable", json_object_new_boolean(st->skip_unreadable));
		json_object_object_add(sum, "exit_status", json_object_new_int(status));
		json_stream_put(&js, "summary", sum);
	}
	json_stream_close(&js);
	if (json_stream_end(&js))
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}
