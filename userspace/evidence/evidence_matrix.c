// SPDX-License-Identifier: GPL-2.0
/*
 * The GPU x GPU tables that p2pBandwidthLatencyTest and nvbandwidth
 * print: a header of column numbers (after an optional label such as
 * "D\D", "GPU" or "CPU"), then one row per GPU, its number first.  A
 * row cut short leaves the rest unknown; the table ends at the first line
 * that is not a row.
 */
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"
#include "evidence/evidence_matrix.h"

/* The number of columns a header line names (0, 1, ... n-1), or 0. */
static unsigned int ev_matrix_header(const char *s)
{
	char w[32];
	unsigned int n = 0;

	s = ev_skip_blank(s);
	if (*s && (*s < '0' || *s > '9'))
		ev_word(&s, w, sizeof(w));	/* the label */
	while (ev_word(&s, w, sizeof(w))) {
		char *end;
		unsigned long v = strtoul(w, &end, 10);

		if (*end || v != n || n >= EV_GPU_MAX)
			return 0;
		n++;
	}
	return n;
}

/* Whether @s is a row of an @n-column table: its index into *@row. */
static bool matrix_row(const char *s, unsigned int n, struct ev_matrix *m)
{
	char w[32];
	char *end;
	unsigned long row;
	unsigned int col = 0;

	if (!ev_word(&s, w, sizeof(w)))
		return false;
	row = strtoul(w, &end, 10);
	if (*end || row >= n || end == w)
		return false;
	while (col < n && ev_word(&s, w, sizeof(w)))
		m->v[row][col++] = ev_number(w);
	return col > 0;
}

unsigned int ev_matrix_read(const struct ev_file *f, unsigned int i,
			    struct ev_matrix *m, unsigned int fi)
{
	unsigned int n, at = i + 1;

	m->have = false;
	while (at < f->nr_lines && !*ev_skip_blank(f->line[at]))
		at++;
	if (at >= f->nr_lines)
		return at;
	n = ev_matrix_header(f->line[at]);
	if (!n)
		return at;
	ev_matrix_clear(m);
	m->n = n;
	m->ref.file = fi;
	m->ref.line = i + 1;
	at++;
	/* nvbandwidth's SM tables put a rule of dashes under the header */
	if (at < f->nr_lines && ev_starts(ev_skip_blank(f->line[at]), "---"))
		at++;
	while (at < f->nr_lines && matrix_row(f->line[at], n, m))
		at++;
	m->have = true;
	return at;
}
