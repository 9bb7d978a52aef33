// SPDX-License-Identifier: GPL-2.0
/*
 * cuda-samples' simpleP2P (and HIP's port of it): "> Peer access from
 * NAME (GPU0) -> NAME (GPU1) : Yes" for every pair, which is
 * cudaDeviceCanAccessPeer's answer; "cudaMemcpyPeer / cudaMemcpy between
 * GPU0 and GPU1: 19.87GB/s", its copy figure for the first two GPUs with
 * peer access; "Verification error @ element N: val = ..., ref = ...",
 * what its kernels wrote through the peer mapping read back wrong; and
 * "Test passed", all of it read back right (counted only after lines of
 * simpleP2P's own, for other tests end the same way).
 */
#include <stdio.h>
#include <string.h>

#include "evidence/evidence.h"

/* "NAME (GPU3) ": the GPU's number after @s, its name before it in @name. */
static const char *gpu_named(const char *s, int *g, char *name, size_t len)
{
	const char *p = strstr(s, "(GPU");
	unsigned int v;
	size_t n;
	int used = 0;

	if (!p || sscanf(p, "(GPU%u)%n", &v, &used) != 1 || !used || v >= EV_GPU_MAX)
		return NULL;
	n = (size_t)(p - s);
	while (n && s[n - 1] == ' ')
		n--;
	while (n && *s == ' ')
		s++, n--;
	if (n >= len)
		n = len - 1;
	memcpy(name, s, n);
	name[n] = '\0';
	*g = (int)v;
	return p + used;
}

/* A peer access line into can_access: 1 read, 0 not one. */
static int peer_line(struct evidence *ev, const char *s, struct ev_ref ref)
{
	char na[64], nb[64];
	const char *p;
	int a, b;

	if (!(p = strstr(s, "Peer access from ")) || !(p = gpu_named(p + 17, &a, na, sizeof(na))) ||
	    !ev_starts(ev_skip_blank(p), "->") ||
	    !(p = gpu_named(ev_skip_blank(p) + 2, &b, nb, sizeof(nb))) || a == b)
		return 0;
	p = ev_skip_blank(p);
	if (*p != ':')
		return 0;
	p = ev_skip_blank(p + 1);
	if (ev_starts(p, "Yes"))
		ev->can_access[a][b] = 1;
	else if (ev_starts(p, "No"))
		ev->can_access[a][b] = 0;
	else
		return 0;
	ev_note(&ev->can_ref[a][b], ref.file, ref.line);
	ev_gpu_named(ev, (unsigned int)a, -1, na, ref);
	ev_gpu_named(ev, (unsigned int)b, -1, nb, ref);
	return 1;
}

void read_simple_p2p(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_simple_p2p *sp = &ev->simple_p2p;
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]), *p;
		struct ev_ref ref = { fi, i + 1 };
		unsigned int a, b, el;
		double gbs;
		int n = 0;

		if (peer_line(ev, s, ref)) {
			f->formats |= EV_FMT_SIMPLE_P2P;
			continue;
		}
		if ((p = strstr(s, "MemcpyPeer / ")) && (p = strstr(p, " between GPU")) &&
		    sscanf(p, " between GPU%u and GPU%u: %lfGB/s%n", &a, &b, &gbs, &n) == 3 && n &&
		    a < EV_GPU_MAX && b < EV_GPU_MAX && a != b && gbs > 0 && gbs < 1e6) {
			sp->gbs = gbs;
			sp->gpu[0] = a;
			sp->gpu[1] = b;
			sp->gbs_ref = ref;
			f->formats |= EV_FMT_SIMPLE_P2P;
			continue;
		}
		if ((f->formats & EV_FMT_SIMPLE_P2P) && ev_starts(s, "Test passed")) {
			sp->passed_ref = ref;
			continue;
		}
		if (ev_starts(s, "Verification error @ element ") &&
		    sscanf(s + 29, "%u: val =%n", &el, &n) == 1 && n) {
			sp->nr_verify_errors++;
			ev_note(&sp->verify_ref, fi, i + 1);
			f->formats |= EV_FMT_SIMPLE_P2P;
		}
	}
}
