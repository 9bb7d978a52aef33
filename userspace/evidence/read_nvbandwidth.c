// SPDX-License-Identifier: GPL-2.0
/*
 * nvbandwidth: its text output (per test case, "Running NAME." and a
 * table titled "memcpy CE|SM GPU(row) -> GPU(column) bandwidth (GB/s)",
 * "<->" for the bidirectional cases, or "Waiving NAME." when peer mapping
 * failed) and its --json output (nvbandwidth.testcases[]: name, status,
 * bandwidth_matrix of strings such as "26.34" and "N/A").  The
 * device-to-device cases concern P2P; the host copies of each GPU alone
 * ("memcpy CE CPU(row) -> GPU(column)", one row, the host) are what its
 * PCIe link carries.  The first of each kind is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "evidence/evidence.h"
#include "evidence/evidence_matrix.h"

static bool d2d_name(const char *s)
{
	return strstr(s, "device_to_device") != NULL;
}

/*
 * Which host copy the case @name (its "Running" line; "" when not pasted)
 * or its table's @title measured, or -1.  The case's name decides: the
 * two bidirectional ones share one title, and all_to_host or host_to_all
 * copy with every GPU at once, which is not one GPU's link.
 */
static int host_copy_kind(const char *name, const char *title)
{
	bool bidir = strstr(name, "bidirectional") || strstr(title, "<->");

	if (name[0]) {
		if (ev_starts(name, "host_to_device_"))
			return bidir ? EV_HOST_BIDIR_H2D : EV_HOST_H2D;
		if (ev_starts(name, "device_to_host_"))
			return bidir ? EV_HOST_BIDIR_D2H : EV_HOST_D2H;
		return -1;
	}
	if (bidir)
		return -1;
	if (strstr(title, "CPU(row) ->"))
		return EV_HOST_H2D;
	if (strstr(title, "CPU(row) <-"))
		return EV_HOST_D2H;
	return -1;
}

/* Keep row 0 of @rows (the host's) as host copy @kind by @method, unless kept. */
static void keep_host_row(struct evidence *ev, int method, int kind,
			  const double *row, unsigned int n, struct ev_ref ref)
{
	struct ev_host_copies *h;
	unsigned int g;

	if (kind < 0 || !n)
		return;
	h = &ev->nvbw_host[method][kind];
	if (h->have)
		return;
	h->have = true;
	h->n = n;
	for (g = 0; g < EV_GPU_MAX; g++)
		h->gbs[g] = g < n ? row[g] : __builtin_nan("");
	h->ref = ref;
}

static void read_text(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i = 0;
	char running[96] = "";
	unsigned int running_line = 0;

	while (i < f->nr_lines) {
		const char *s = ev_skip_blank(f->line[i]);

		unsigned int dev, dom, bus;
		int n = 0;

		if (ev_starts(s, "nvbandwidth Version:"))
			f->formats |= EV_FMT_NVBW_TEXT;
		/* "Device 0: NVIDIA A100-SXM4-80GB (00000000:34:00)", or no bus */
		if (sscanf(s, "Device %u: %n", &dev, &n) == 1 && n) {
			const char *bus_at = strrchr(s, '(');
			struct ev_ref ref = { fi, i + 1 };
			char name[64];
			size_t len = bus_at ? (size_t)(bus_at - (s + n)) : strlen(s + n);

			snprintf(name, sizeof(name), "%.*s", (int)len, s + n);
			ev_gpu_named(ev, dev, bus_at && sscanf(bus_at, "(%x:%x:", &dom, &bus) == 2 ?
				     (int)bus : -1, name, ref);
		}
		if (ev_starts(s, "Running ")) {
			snprintf(running, sizeof(running), "%.*s",
				 (int)strcspn(s + 8, ". \t"), s + 8);
			running_line = i + 1;
		}
		if (ev_starts(s, "memcpy ") && strstr(s, "CPU(row)") &&
		    strstr(s, "GPU(column)")) {
			int kind = host_copy_kind(running, s);
			struct ev_ref ref = { fi, running[0] ? running_line : i + 1 };
			struct ev_matrix tmp;
			unsigned int next;

			next = ev_matrix_read(f, i, &tmp, fi);
			if (tmp.have) {
				f->formats |= EV_FMT_NVBW_TEXT;
				keep_host_row(ev, ev_starts(s, "memcpy SM") ? EV_COPY_SM :
					      EV_COPY_CE, kind, tmp.v[0], tmp.n, ref);
			}
			running[0] = '\0';
			i = next > i ? next : i + 1;
			continue;
		}
		if (ev_starts(s, "Waiving ") && d2d_name(s)) {
			f->formats |= EV_FMT_NVBW_TEXT;
			if (!ev->nvbw_waived) {
				ev->nvbw_waived = true;
				ev->nvbw_waived_ref.file = fi;
				ev->nvbw_waived_ref.line = i + 1;
			}
		}
		if (ev_starts(s, "memcpy ") && strstr(s, "GPU(row)") &&
		    strstr(s, "GPU(column)")) {
			struct ev_matrix *m = strstr(s, "<->") ? &ev->nvbw_d2d_bidi :
					      &ev->nvbw_d2d;
			struct ev_matrix tmp;
			unsigned int next;

			next = ev_matrix_read(f, i, &tmp, fi);
			if (tmp.have) {
				f->formats |= EV_FMT_NVBW_TEXT;
				if (!m->have)
					*m = tmp;
			}
			running[0] = '\0';
			i = next > i ? next : i + 1;
			continue;
		}
		i++;
	}
}

static double json_figure(struct json_object *v)
{
	if (json_object_is_type(v, json_type_double) ||
	    json_object_is_type(v, json_type_int))
		return json_object_get_double(v);
	if (json_object_is_type(v, json_type_string))
		return ev_number(json_object_get_string(v));
	return __builtin_nan("");
}

static void json_matrix(struct json_object *rows, struct ev_matrix *m,
			unsigned int fi, unsigned int line)
{
	size_t i, j, n = json_object_array_length(rows);

	if (m->have || !n)
		return;
	ev_matrix_clear(m);
	if (n > EV_GPU_MAX)
		n = EV_GPU_MAX;
	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		size_t c;

		if (!json_object_is_type(row, json_type_array))
			continue;
		c = json_object_array_length(row);
		for (j = 0; j < c && j < EV_GPU_MAX; j++)
			m->v[i][j] = json_figure(json_object_array_get_idx(row, j));
	}
	m->n = (unsigned int)n;
	m->ref.file = fi;
	m->ref.line = line;
	m->have = true;
}

/* The line of @f where the test case @name is named, for its evidence. */
static unsigned int name_line(const struct ev_file *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++)
		if (strstr(f->line[i], name))
			return i + 1;
	return 1;
}

/* A host copy case of --json: its matrix's first row, the host's. */
static void json_host_row(struct evidence *ev, struct json_object *c,
			  const char *name, unsigned int fi, unsigned int line)
{
	struct json_object *bw, *row;
	struct ev_ref ref = { fi, line };
	double v[EV_GPU_MAX];
	size_t g, n;

	if (!json_object_object_get_ex(c, "bandwidth_matrix", &bw) ||
	    !json_object_is_type(bw, json_type_array) ||
	    !json_object_array_length(bw) ||
	    !(row = json_object_array_get_idx(bw, 0)) ||
	    !json_object_is_type(row, json_type_array))
		return;
	n = json_object_array_length(row);
	if (n > EV_GPU_MAX)
		n = EV_GPU_MAX;
	for (g = 0; g < n; g++)
		v[g] = json_figure(json_object_array_get_idx(row, g));
	keep_host_row(ev, strstr(name, "_sm") ? EV_COPY_SM : EV_COPY_CE,
		      host_copy_kind(name, ""), v, (unsigned int)n, ref);
}

static void read_json(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct json_object *root, *top, *cases;
	struct json_tokener *tok;
	const char *brace = memchr(f->text, '{', f->len);
	size_t i, n;

	if (!brace)
		return;
	tok = json_tokener_new_ex(64);
	if (!tok)
		return;
	root = json_tokener_parse_ex(tok, brace, (int)(f->len - (size_t)(brace - f->text) > 0x7fffffff ?
				     0x7fffffff : f->len - (size_t)(brace - f->text)));
	json_tokener_free(tok);
	if (!root)
		return;
	if (!json_object_object_get_ex(root, "nvbandwidth", &top) ||
	    !json_object_object_get_ex(top, "testcases", &cases) ||
	    !json_object_is_type(cases, json_type_array))
		goto out;
	f->formats |= EV_FMT_NVBW_JSON;
	n = json_object_array_length(cases);
	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cases, i);
		struct json_object *name, *status, *bw;
		const char *nm;

		if (!json_object_object_get_ex(c, "name", &name))
			continue;
		nm = json_object_get_string(name);
		if (nm && host_copy_kind(nm, "") >= 0)
			json_host_row(ev, c, nm, fi, name_line(f, nm));
		if (!nm || !d2d_name(nm))
			continue;
		if (json_object_object_get_ex(c, "status", &status) &&
		    json_object_get_string(status) &&
		    !strcmp(json_object_get_string(status), "Waived")) {
			if (!ev->nvbw_waived) {
				ev->nvbw_waived = true;
				ev->nvbw_waived_ref.file = fi;
				ev->nvbw_waived_ref.line = name_line(f, nm);
			}
			continue;
		}
		if (!json_object_object_get_ex(c, "bandwidth_matrix", &bw) ||
		    !json_object_is_type(bw, json_type_array))
			continue;
		json_matrix(bw, strstr(nm, "bidirectional") ? &ev->nvbw_d2d_bidi :
			    &ev->nvbw_d2d, fi, name_line(f, nm));
	}
out:
	json_object_put(root);
}

void read_nvbandwidth(struct evidence *ev, unsigned int fi)
{
	read_json(ev, fi);
	if (!(ev->file[fi].formats & EV_FMT_NVBW_JSON))
		read_text(ev, fi);
}
