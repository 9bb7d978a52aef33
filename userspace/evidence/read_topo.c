// SPDX-License-Identifier: GPL-2.0
/*
 * nvidia-smi topo -m (how each pair of GPUs connects: X, PIX, PXB, PSB,
 * PHB, NODE, SYS, the old SOC, NV# for # NVLinks; then CPU affinity and,
 * from newer drivers, NUMA affinity and GPU NUMA ID) and nvidia-smi topo
 * -p2p r|w|n|a|p (OK, CNS, GNS, TNS, NS, DR, U per pair; only r and w
 * are peer access, the mode read from the command pasted above).  Both are a
 * header naming the columns (GPU0.., NIC0.. or mlx5_0..) and one row per
 * device; which of the two a table is, its rows' words tell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"

#define TOPO_COLS_MAX 128

static bool gpu_word(const char *w, unsigned int *idx)
{
	char *end;
	unsigned long v;

	if (strncmp(w, "GPU", 3) || w[3] < '0' || w[3] > '9')
		return false;
	v = strtoul(w + 3, &end, 10);
	if (*end || v >= EV_GPU_MAX)
		return false;
	*idx = (unsigned int)v;
	return true;
}

static enum ev_link link_word(const char *w, unsigned char *nvlinks)
{
	*nvlinks = 0;
	if (!strcmp(w, "X"))
		return EV_LINK_SELF;
	if (!strcmp(w, "PIX"))
		return EV_LINK_PIX;
	if (!strcmp(w, "PXB"))
		return EV_LINK_PXB;
	if (!strcmp(w, "PSB"))
		return EV_LINK_PSB;
	if (!strcmp(w, "PHB"))
		return EV_LINK_PHB;
	if (!strcmp(w, "NODE"))
		return EV_LINK_NODE;
	if (!strcmp(w, "SYS") || !strcmp(w, "SOC"))
		return EV_LINK_SYS;
	if (w[0] == 'N' && w[1] == 'V' && w[2] >= '0' && w[2] <= '9') {
		unsigned long n = strtoul(w + 2, NULL, 10);

		*nvlinks = n > 255 ? 255 : (unsigned char)n;
		return EV_LINK_NV;
	}
	return EV_LINK_UNKNOWN;
}

static enum ev_p2p_status p2p_word(const char *w)
{
	static const struct { const char *w; enum ev_p2p_status s; } words[] = {
		{ "X", EV_P2P_SELF }, { "OK", EV_P2P_OK }, { "CNS", EV_P2P_CNS },
		{ "GNS", EV_P2P_GNS }, { "TNS", EV_P2P_TNS }, { "NS", EV_P2P_NS },
		{ "DR", EV_P2P_DR }, { "U", EV_P2P_UNKNOWN },
	};
	unsigned int i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i].w))
			return words[i].s;
	return EV_P2P_UNKNOWN;
}

static bool p2p_only_word(const char *w)
{
	return !strcmp(w, "OK") || !strcmp(w, "CNS") || !strcmp(w, "GNS") ||
	       !strcmp(w, "TNS") || !strcmp(w, "NS") || !strcmp(w, "DR") ||
	       !strcmp(w, "U");
}

struct topo_header {
	unsigned int nr_cols;
	int gpu[TOPO_COLS_MAX];		/* the GPU a column is, or -1 (a NIC) */
	bool cpus;			/* a CPU Affinity column follows */
	bool numa;			/* and a NUMA Affinity column */
};

/* A header: GPU0 first, then devices, then the affinity columns. */
static bool header_line(const char *s, struct topo_header *h)
{
	char w[64];
	unsigned int idx;

	memset(h, 0, sizeof(*h));
	if (!ev_word(&s, w, sizeof(w)) || !gpu_word(w, &idx) || idx)
		return false;
	h->gpu[h->nr_cols++] = 0;
	while (ev_word(&s, w, sizeof(w))) {
		if (!strcmp(w, "CPU") || !strcmp(w, "NUMA")) {
			h->cpus = !strcmp(w, "CPU") && ev_starts(ev_skip_blank(s), "Affinity");
			break;
		}
		if (h->nr_cols >= TOPO_COLS_MAX)
			return false;
		if (link_word(w, &(unsigned char){ 0 }) != EV_LINK_UNKNOWN ||
		    p2p_only_word(w))
			return false;	/* a row of link words, not a header */
		h->gpu[h->nr_cols++] = gpu_word(w, &idx) ? (int)idx : -1;
	}
	h->numa = strstr(s, "NUMA Affinity") != NULL;
	return true;
}

/*
 * Whether the rows after a header hold -p2p's words, or, where a single
 * GPU's row holds only X, its legend follows ("CNS  = Chipset not
 * supported"), which topo -m's does not have.
 */
static bool p2p_table(const struct ev_file *f, unsigned int i)
{
	unsigned int k;

	for (k = i + 1; k < f->nr_lines && k < i + 3; k++) {
		const char *s = f->line[k];
		char w[64];

		ev_word(&s, w, sizeof(w));
		while (ev_word(&s, w, sizeof(w)))
			if (p2p_only_word(w))
				return true;
	}
	for (k = i + 1; k < f->nr_lines && k < i + EV_GPU_MAX + 12; k++) {
		const char *s = ev_skip_blank(f->line[k]);

		if (ev_starts(s, "CNS") && strstr(s, "= Chipset not supported"))
			return true;
		if (ev_starts(s, "SYS") && strstr(s, "= Connection traversing"))
			return false;
	}
	return false;
}

/*
 * The capability a -p2p table answers for, from the command pasted just
 * above it ("nvidia-smi topo -p2p n", "--p2pstatus a"): 'n' (NVLink),
 * 'a' (atomics) or 'p' (prop), or 'r' for read, write, or no command
 * shown.  Only read and write are the peer access the judge weighs: NS
 * under n is a pair without NVLink, not a refused one.
 */
static char p2p_mode(const struct ev_file *f, unsigned int i)
{
	unsigned int k;

	for (k = i; k > 0 && k + 4 > i; k--) {
		const char *s = f->line[k - 1], *p = strstr(s, "--p2pstatus");
		size_t n = 11;

		if (!p) {
			p = strstr(s, "-p2p");
			n = 4;
		}
		if (!p || (p[n] != ' ' && p[n] != '\t' && p[n] != '='))
			continue;
		p = ev_skip_blank(p + n + (p[n] == '='));
		if ((*p == 'n' || *p == 'a' || *p == 'p') &&
		    (!p[1] || p[1] == ' ' || p[1] == '\t' || p[1] == ')' || p[1] == '`'))
			return *p;
		return 'r';
	}
	return 'r';
}

static unsigned int read_rows(struct evidence *ev, unsigned int fi, unsigned int i,
			      const struct topo_header *h, bool p2p)
{
	bool peer_access = !p2p || p2p_mode(&ev->file[fi], i) == 'r';
	const struct ev_file *f = &ev->file[fi];
	unsigned int at = i + 1;

	for (; at < f->nr_lines; at++) {
		const char *s = f->line[at];
		char w[64];
		unsigned int row, c = 0;

		if (!ev_word(&s, w, sizeof(w)))
			break;
		if (!gpu_word(w, &row)) {
			if (!strncmp(w, "NIC", 3) || !strncmp(w, "mlx", 3))
				continue;
			break;
		}
		for (c = 0; c < h->nr_cols && ev_word(&s, w, sizeof(w)); c++) {
			int col = h->gpu[c];
			unsigned char nv;

			if (col < 0 || !peer_access)
				continue;
			if (p2p) {
				ev->p2p_status[row][col] = p2p_word(w);
				continue;
			}
			ev->topo_link[row][col] = link_word(w, &nv);
			ev->topo_nvlinks[row][col] = nv;
		}
		if (p2p && !peer_access)
			continue;	/* read, but of another capability */
		if (p2p) {
			ev->p2p_ref[row].file = fi;
			ev->p2p_ref[row].line = at + 1;
			if (row + 1 > ev->p2p_gpus)
				ev->p2p_gpus = row + 1;
			continue;
		}
		ev->topo_ref[row].file = fi;
		ev->topo_ref[row].line = at + 1;
		if (row + 1 > ev->topo_gpus)
			ev->topo_gpus = row + 1;
		if (c < h->nr_cols || !h->cpus || !ev_word(&s, w, sizeof(w)))
			continue;
		snprintf(ev->topo_cpus[row], sizeof(ev->topo_cpus[row]), "%s", w);
		if (h->numa && ev_word(&s, w, sizeof(w))) {
			char *end;
			long n = strtol(w, &end, 10);

			if (!*end && n >= 0 && n < 4096)
				ev->topo_numa[row] = (int)n;
		}
	}
	return at;
}

/*
 * Whether line @i is in a table under a rocm-smi title ("Link Type
 * between two GPUs"): rocm-smi's tables name their columns GPU0.. too,
 * and read_rocm_smi_topo.c reads them.
 */
static bool rocm_smi_table(const struct ev_file *f, unsigned int i)
{
	unsigned int top = i > EV_GPU_MAX + 2 ? i - EV_GPU_MAX - 2 : 0;

	while (i > top && (!*ev_skip_blank(f->line[i - 1]) ||
			   ev_starts(ev_skip_blank(f->line[i - 1]), "GPU")))
		i--;
	return i > 0 && strstr(f->line[i - 1], " between two GPUs");
}

void read_topo(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i = 0;

	while (i < f->nr_lines) {
		struct topo_header h;
		bool p2p;

		if (!header_line(f->line[i], &h) || rocm_smi_table(f, i)) {
			i++;
			continue;
		}
		p2p = p2p_table(f, i);
		i = read_rows(ev, fi, i, &h, p2p);
		f->formats |= p2p ? EV_FMT_TOPO_P2P : EV_FMT_TOPO_MATRIX;
	}
}
