// SPDX-License-Identifier: GPL-2.0
/*
 * What NCCL_DEBUG=INFO says it chose between GPUs: each channel's
 * transport ("Channel 00 : 0[0] -> 1[1] via P2P/IPC", P2P/CUMEM,
 * "P2P/direct pointer", SHM/direct/direct, NET/IB/0, NET/Socket/0), the
 * node count of the communicator, what the environment set
 * (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL), NCCL's own "P2P is disabled
 * between connected GPUs", and its "Could not enable P2P between dev
 * A(=busid) and dev B(=busid)", which it logs where CUDA refuses peer
 * access between the two, and its warning that P2P is disabled between
 * NVLink-connected GPUs; and nccl-tests' table (NCCL 1.x's
 * all_reduce_test's too), whose best busbw is kept for the message and
 * whose rows are counted: a header with no row is a run that stopped
 * before its first size, or a paste cut there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"

static void channel_line(struct ev_nccl *n, const char *s, unsigned int fi,
			 unsigned int line)
{
	const char *via = strstr(s, " via ");

	if (!via || !strstr(s, "->"))
		return;
	via += 5;
	if (ev_starts(via, "P2P")) {
		n->nr_p2p++;
		ev_note(&n->p2p_ref, fi, line);
	} else if (ev_starts(via, "SHM")) {
		n->nr_shm++;
		ev_note(&n->shm_ref, fi, line);
	} else if (ev_starts(via, "NET") || ev_starts(via, "COLLNET")) {
		n->nr_net++;
		ev_note(&n->net_ref, fi, line);
	}
}

/*
 * nccl-tests' table header: the column of the first (out-of-place) busbw,
 * counted in its rows' words (newer versions add a root column); -1 when
 * @s is no header.
 */
static int busbw_column(const char *s)
{
	char w[32];
	int col = -1, k = 0;

	s = ev_skip_blank(s);
	if (*s == '#' && strstr(s, "size") && strstr(s, "algbw"))
		s++;
	else if (!ev_starts(s, "bytes ") || !strstr(s, "algbw"))
		return -1;	/* NCCL 1.x's all_reduce_test: "bytes N type op time algbw busbw" */
	while (ev_word(&s, w, sizeof(w))) {
		if (!strcmp(w, "busbw")) {
			col = k;
			break;
		}
		k++;
	}
	return col;
}

/* A row: "  8388608  2097152  float  sum  -1  123.4  67.98  118.96  0 ..." */
static bool busbw_row(struct ev_nccl *n, const char *s, int col, unsigned int fi,
		      unsigned int line)
{
	char w[32], size[32];
	const char *p = s;
	int k;
	double bus = -1;

	if (!ev_word(&p, size, sizeof(size)) || ev_number(size) != ev_number(size))
		return false;
	for (k = 1; k <= col && ev_word(&p, w, sizeof(w)); k++)
		if (k == col)
			bus = ev_number(w);
	if (k <= col || bus != bus || bus < 0)
		return false;
	if (bus > n->busbw_max) {
		n->busbw_max = bus;
		n->busbw_ref.file = fi;
		n->busbw_ref.line = line;
	}
	return true;
}

/*
 * nccl-tests' preamble: "# nThread 1 nGpus 8 ...", "# Using devices" and
 * "#  Rank  0 Group  0 Pid 28307 on gpu59 device  0 [0x16] NVIDIA ..."
 * (older: no Group), which names the GPUs and their buses.
 */
static bool devices_line(struct evidence *ev, const char *s, unsigned int fi,
			 unsigned int line)
{
	const char *p = ev_skip_blank(s), *d;
	struct ev_ref ref = { fi, line };
	unsigned int dev, bus;
	int n = 0;

	if (ev_starts(p, "Rank ") && (d = strstr(p, " uses device "))) {
		/* NCCL 1.x's all_reduce_test: "Rank  0 uses device  0 [0x05] Tesla M40" */
		if (sscanf(d, " uses device %u [0x%x] %n", &dev, &bus, &n) == 2 && n)
			ev_gpu_named(ev, dev, (int)bus, d + n, ref);
		return true;
	}
	if (*p != '#')
		return false;
	p = ev_skip_blank(p + 1);
	if (ev_starts(p, "nThread ") || ev_starts(p, "Using devices"))
		return true;
	if (!ev_starts(p, "Rank ") || !(d = strstr(p, " device ")))
		return false;
	if (sscanf(d, " device %u [0x%x] %n", &dev, &bus, &n) != 2 || !n)
		return true;
	ev_gpu_named(ev, dev, (int)bus, d + n, ref);
	return true;
}

/*
 * "Could not enable P2P between dev 1(=81000) and dev 0(=41000)": NCCL's
 * bus id is the PCI address's hex digits run together (domain, bus,
 * device, function), so the bus is bits 12-19.
 */
static void refused_line(struct evidence *ev, const char *s, unsigned int fi,
			 unsigned int line)
{
	struct ev_nccl *n = &ev->nccl;
	const char *p = strstr(s, "Could not enable P2P between dev ");
	unsigned int a, b;
	unsigned long ida, idb;
	struct ev_ref ref = { fi, line };

	if (!p)
		return;
	if (!n->nr_refused++) {
		ev_note(&n->refused_ref, fi, line);
		n->refused_bus[0] = n->refused_bus[1] = -1;
		if (sscanf(p + 33, "%u(=%lx) and dev %u(=%lx)", &a, &ida, &b, &idb) == 4) {
			n->refused_dev[0] = a;
			n->refused_dev[1] = b;
			n->refused_bus[0] = (int)((ida >> 12) & 0xff);
			n->refused_bus[1] = (int)((idb >> 12) & 0xff);
			ev_gpu_named(ev, a, n->refused_bus[0], "", ref);
			ev_gpu_named(ev, b, n->refused_bus[1], "", ref);
		} else if (sscanf(p + 33, "%u", &a) == 1) {
			n->refused_dev[0] = a;
			n->refused_dev[1] = a;
		}
	}
}

void read_nccl(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_nccl *n = &ev->nccl;
	int col = -1;
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = f->line[i], *p;
		int c = busbw_column(s);

		if (c > 0) {
			col = c;
			f->formats |= EV_FMT_NCCL_TESTS;
			n->tests_header = true;
			ev_note(&n->tests_header_ref, fi, i + 1);
			continue;
		}
		if (col > 0 && *ev_skip_blank(s) != '#' && busbw_row(n, s, col, fi, i + 1)) {
			n->tests_rows++;
			continue;
		}
		/* NCCL's warning, pasted without its prefix as often as with it */
		if (strstr(s, "P2P is disabled between NVLINK connected GPUs")) {
			n->nvlink_p2p_disabled = true;
			ev_note(&n->nvlink_disabled_ref, fi, i + 1);
			f->formats |= EV_FMT_NCCL;
			continue;
		}
		if (devices_line(ev, s, fi, i + 1)) {
			f->formats |= EV_FMT_NCCL_TESTS;
			if (strstr(s, "nThread "))
				n->tests_preamble = true;
			continue;
		}
		/* NCCL's failure as a framework's traceback quotes it */
		if (!strstr(s, "NCCL INFO") && !strstr(s, "NCCL WARN") &&
		    ((p = strstr(s, "ncclUnhandledCudaError")) ||
		     (strstr(s, "NCCL error") && (p = strstr(s, "unhandled cuda error"))))) {
			if (!n->lib_error) {
				n->lib_error = true;
				ev_note(&n->lib_error_ref, fi, i + 1);
				snprintf(n->lib_error_text, sizeof(n->lib_error_text), "%s", p);
			}
			f->formats |= EV_FMT_NCCL;
			continue;
		}
		if (!strstr(s, "NCCL INFO") && !strstr(s, "NCCL WARN"))
			continue;
		f->formats |= EV_FMT_NCCL;
		if (n->tests_preamble) {
			n->nr_log_after_preamble++;
			n->last_log_ref.file = fi;
			n->last_log_ref.line = i + 1;
		}
		if (strstr(s, " Channel "))
			channel_line(n, s, fi, i + 1);
		if ((p = strstr(s, "NCCL_P2P_DISABLE set by environment to ")) &&
		    atoi(p + 40) != 0) {
			n->env_p2p_disable = true;
			ev_note(&n->env_ref, fi, i + 1);
		}
		if ((p = strstr(s, "NCCL_P2P_LEVEL set by environment to "))) {
			sscanf(p + 37, "%15s", n->p2p_level);
			ev_note(&n->level_ref, fi, i + 1);
		}
		refused_line(ev, s, fi, i + 1);
		/* NCCL's own failures, which no peer path explains */
		if (!n->lib_error && ((p = strstr(s, "ncclMaxSharedMem")) ||
				      (p = strstr(s, "Cuda failure")) ||
				      (p = strstr(s, "unhandled cuda error")))) {
			n->lib_error = true;
			ev_note(&n->lib_error_ref, fi, i + 1);
			snprintf(n->lib_error_text, sizeof(n->lib_error_text), "%s", p);
		}
		if (strstr(s, "P2P is disabled between")) {
			n->p2p_disabled_msg = true;
			ev_note(&n->disabled_ref, fi, i + 1);
		}
		if ((p = strstr(s, " nNodes ")))
			n->nr_nodes = atoi(p + 8);
	}
}
