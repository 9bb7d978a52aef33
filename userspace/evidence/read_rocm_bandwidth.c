// SPDX-License-Identifier: GPL-2.0
/*
 * rocm_bandwidth_test (rocm-bandwidth-test from 2.6): "Device: 2,  AMD
 * Instinct MI100,  GPU-4a6f...,  23:0.0" per agent, the CPUs' and the
 * GPUs' in one numbering, then tables titled "Device Access" (2.6:
 * "Inter-Device Access"), "Unidirectional copy peak bandwidth GB/s" and
 * "Bidirectional copy peak bandwidth GB/s" (2.0: "Bdirectional"), each a
 * "D/D" header of device numbers and a row per device, blank lines
 * between rows, "N/A" where no copy ran.  Rows are sources, columns
 * destinations.
 *
 * A device with a PCI address or a GPU- UUID is a GPU; one with neither,
 * listed before the first GPU, a CPU (the test lists CPU agents first);
 * any other is of unknown kind and its figures are not used.  The GPUs
 * are numbered in the order listed, and fill what p2pBandwidthLatencyTest
 * fills:
 * - the access table between two GPUs as peer access (can_access), and
 *   its refusals as ROCm's (the GPUs no peers);
 * - the copies GPU to GPU as the P2P=Enabled tables (uni_on, bidi_on);
 * - the host path as the P2P=Disabled table (uni_off).  The test runs no
 *   copy staged through host memory; such a copy, pipelined as CUDA's
 *   staged cudaMemcpyPeer is, runs at its slower leg: GPU a to a CPU's
 *   memory, then from there to GPU b.  Of the CPUs measured, the best.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"

#define RBT_DEV_MAX 128

enum rbt_table { RBT_NONE, RBT_ACCESS, RBT_UNI, RBT_BIDI, RBT_OTHER };
enum rbt_kind { RBT_UNSEEN, RBT_CPU, RBT_GPU, RBT_UNKNOWN };

struct rbt {
	enum rbt_kind kind[RBT_DEV_MAX];
	int gpu[RBT_DEV_MAX];			/* its GPU number, or -1 */
	int bus[RBT_DEV_MAX];			/* its PCI bus, or -1 */
	char name[RBT_DEV_MAX][64];
	struct ev_ref dev_ref[RBT_DEV_MAX];	/* its Device: line */
	double access[RBT_DEV_MAX][RBT_DEV_MAX];
	double uni[RBT_DEV_MAX][RBT_DEV_MAX];
	double bidi[RBT_DEV_MAX][RBT_DEV_MAX];
	struct ev_ref row_ref[RBT_DEV_MAX];	/* the access table's rows */
	struct ev_ref uni_ref, bidi_ref;	/* the tables' titles */
	bool seen;
};

static enum rbt_table table_title(const char *s)
{
	if (!strcmp(s, "Device Access") || !strcmp(s, "Inter-Device Access"))
		return RBT_ACCESS;
	if (!strcmp(s, "Unidirectional copy peak bandwidth GB/s"))
		return RBT_UNI;
	if (!strcmp(s, "Bidirectional copy peak bandwidth GB/s") ||
	    !strcmp(s, "Bdirectional copy peak bandwidth GB/s"))
		return RBT_BIDI;
	if (ev_starts(s, "Device Numa Distance") || ev_starts(s, "Inter-Device Numa Distance"))
		return RBT_OTHER;
	return RBT_NONE;
}

/* @s without the blanks at its end, into @out. */
static const char *trimmed(const char *s, char *out, size_t len)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	return out;
}

/* A whole decimal word as a device number, or -1. */
static int dev_word(const char *w)
{
	char *end;
	unsigned long v;

	if (*w < '0' || *w > '9')
		return -1;
	v = strtoul(w, &end, 10);
	return *end || v >= RBT_DEV_MAX ? -1 : (int)v;
}

/* "Device: N,  NAME[,  GPU-uuid][,  bb:dd.f]": 1 read, 0 not one. */
static int device_line(struct rbt *t, const char *s, struct ev_ref ref, bool *gpu_seen)
{
	unsigned int d, bus, dev, fn;
	int n = 0;
	const char *name, *field;
	bool uuid = false, addr = false;

	if (sscanf(s, "Device: %u,%n", &d, &n) != 1 || !n || d >= RBT_DEV_MAX)
		return 0;
	name = ev_skip_blank(s + n);
	snprintf(t->name[d], sizeof(t->name[d]), "%.*s", (int)strcspn(name, ","), name);
	t->dev_ref[d] = ref;
	for (field = strchr(name, ','); field; field = strchr(field + 1, ',')) {
		const char *w = ev_skip_blank(field + 1);
		int used = 0;

		if (ev_starts(w, "GPU-"))
			uuid = true;
		else if (sscanf(w, "%x:%x.%x%n", &bus, &dev, &fn, &used) == 3 && used && bus < 256)
			addr = true;
	}
	if (addr || uuid) {
		t->kind[d] = RBT_GPU;
		*gpu_seen = true;
	} else {
		t->kind[d] = *gpu_seen ? RBT_UNKNOWN : RBT_CPU;
	}
	t->bus[d] = addr ? (int)bus : -1;
	return 1;
}

/*
 * The table titled at line @i into @m (RBT_DEV_MAX square, device
 * numbers), rows cited in @row_ref; the index of the line after it.
 */
static unsigned int read_table(const struct ev_file *f, unsigned int fi, unsigned int i,
			       double (*m)[RBT_DEV_MAX], struct ev_ref *row_ref, bool *read)
{
	int col[RBT_DEV_MAX];
	unsigned int n = 0, at = i + 1;
	const char *s;
	char w[32];

	while (at < f->nr_lines && !*ev_skip_blank(f->line[at]))
		at++;
	if (at >= f->nr_lines)
		return at;
	s = f->line[at];
	if (!ev_word(&s, w, sizeof(w)) || strcmp(w, "D/D"))
		return at;
	while (n < RBT_DEV_MAX && ev_word(&s, w, sizeof(w)) && (col[n] = dev_word(w)) >= 0)
		n++;
	if (!n)
		return at;
	for (at++; at < f->nr_lines; at++) {
		unsigned int c;
		int row;

		s = f->line[at];
		if (!*ev_skip_blank(s))
			continue;
		if (!ev_word(&s, w, sizeof(w)) || (row = dev_word(w)) < 0)
			break;
		for (c = 0; c < n && ev_word(&s, w, sizeof(w)); c++)
			m[row][col[c]] = strcmp(w, "N/A") ? ev_number(w) : NAN;
		if (row_ref) {
			row_ref[row].file = fi;
			row_ref[row].line = at + 1;
		}
		*read = true;
	}
	return at;
}

static void clear(struct rbt *t)
{
	unsigned int a, b;

	memset(t, 0, sizeof(*t));
	for (a = 0; a < RBT_DEV_MAX; a++) {
		t->gpu[a] = -1;
		t->bus[a] = -1;
		for (b = 0; b < RBT_DEV_MAX; b++)
			t->access[a][b] = t->uni[a][b] = t->bidi[a][b] = NAN;
	}
}

static bool figure(double v)
{
	return isfinite(v) && v > 0;
}

/*
 * The host path from GPU device @a to GPU device @b: the slower leg
 * through the best CPU measured, or NaN.
 */
static double host_path(const struct rbt *t, unsigned int a, unsigned int b)
{
	double best = NAN;
	unsigned int c;

	for (c = 0; c < RBT_DEV_MAX; c++) {
		double leg;

		if (t->kind[c] != RBT_CPU || !figure(t->uni[a][c]) || !figure(t->uni[c][b]))
			continue;
		leg = fmin(t->uni[a][c], t->uni[c][b]);
		if (!(best >= leg))
			best = leg;
	}
	return best;
}

/*
 * The CPU agents listed: the test lists one per NUMA node, so one alone
 * is a host of one socket.  Of several files, the most.
 */
static void count_cpus(struct evidence *ev, const struct rbt *t)
{
	unsigned int d, n = 0;
	struct ev_ref first = { 0, 0 };

	for (d = 0; d < RBT_DEV_MAX; d++)
		if (t->kind[d] == RBT_CPU) {
			if (!n)
				first = t->dev_ref[d];
			n++;
		}
	if (n > ev->rocm.nr_cpu_agents) {
		ev->rocm.nr_cpu_agents = n;
		ev->rocm.cpu_agent_ref = first;
	}
}

/* The GPUs' figures into the facts p2pBandwidthLatencyTest fills. */
static void fill(struct evidence *ev, const struct rbt *t, unsigned int nr_gpus)
{
	bool uni = !ev->uni_on.have, off = !ev->uni_off.have, bidi = !ev->bidi_on.have;
	unsigned int a, b;

	if (uni) {
		ev_matrix_clear(&ev->uni_on);
		ev->uni_on.n = nr_gpus;
		ev->uni_on.ref = t->uni_ref;
	}
	if (off) {
		ev_matrix_clear(&ev->uni_off);
		ev->uni_off.n = nr_gpus;
		ev->uni_off.ref = t->uni_ref;
	}
	if (bidi) {
		ev_matrix_clear(&ev->bidi_on);
		ev->bidi_on.n = nr_gpus;
		ev->bidi_on.ref = t->bidi_ref;
	}
	for (a = 0; a < RBT_DEV_MAX; a++)
		for (b = 0; b < RBT_DEV_MAX; b++) {
			int ga = t->gpu[a], gb = t->gpu[b];

			if (ga < 0 || gb < 0)
				continue;
			if (a != b && (t->access[a][b] == 0 || t->access[a][b] == 1) &&
			    ev->can_access[ga][gb] < 0) {
				ev->can_access[ga][gb] = t->access[a][b] == 1;
				ev->can_ref[ga][gb] = t->row_ref[a];
				if (t->access[a][b] == 0) {
					ev->rocm.nr_refused++;
					ev_note(&ev->rocm.refused_ref, t->row_ref[a].file,
						t->row_ref[a].line);
				}
			}
			if (uni && figure(t->uni[a][b])) {
				ev->uni_on.v[ga][gb] = t->uni[a][b];
				ev->uni_on.have = true;
			}
			if (off && a != b && figure(host_path(t, a, b))) {
				ev->uni_off.v[ga][gb] = host_path(t, a, b);
				ev->uni_off.have = true;
			}
			if (bidi && figure(t->bidi[a][b])) {
				ev->bidi_on.v[ga][gb] = t->bidi[a][b];
				ev->bidi_on.have = true;
			}
		}
}

/* The GPUs numbered in the order listed, each named as its device line. */
static unsigned int number_gpus(struct evidence *ev, struct rbt *t)
{
	unsigned int d, g = 0;

	for (d = 0; d < RBT_DEV_MAX; d++) {
		if (t->kind[d] != RBT_GPU || g >= EV_GPU_MAX)
			continue;
		t->gpu[d] = (int)g;
		ev_gpu_named(ev, g, t->bus[d], t->name[d], t->dev_ref[d]);
		g++;
	}
	return g;
}

void read_rocm_bandwidth(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct rbt *t = malloc(sizeof(*t));
	bool gpu_seen = false, tables = false;
	unsigned int i = 0, nr_gpus;

	if (!t)
		return;
	clear(t);
	while (i < f->nr_lines) {
		const char *s = ev_skip_blank(f->line[i]);
		struct ev_ref ref = { fi, i + 1 };
		char line[96];
		bool read = false;

		if (ev_starts(s, "RocmBandwidthTest Version:"))
			t->seen = true;
		if (device_line(t, s, ref, &gpu_seen)) {
			i++;
			continue;
		}
		switch (table_title(trimmed(s, line, sizeof(line)))) {
		case RBT_ACCESS:
			i = read_table(f, fi, i, t->access, t->row_ref, &read);
			break;
		case RBT_UNI:
			t->uni_ref = ref;
			i = read_table(f, fi, i, t->uni, NULL, &read);
			break;
		case RBT_BIDI:
			t->bidi_ref = ref;
			i = read_table(f, fi, i, t->bidi, NULL, &read);
			break;
		default:
			i++;
			break;
		}
		tables |= read;
	}
	if (tables)
		t->seen = true;
	if (t->seen) {
		f->formats |= EV_FMT_ROCM_BW;
		count_cpus(ev, t);
		nr_gpus = number_gpus(ev, t);
		if (nr_gpus)
			fill(ev, t, nr_gpus);
	}
	free(t);
}
