// SPDX-License-Identifier: GPL-2.0
/*
 * nvidia-smi nvlink -s ("Link 3: <inactive>" or "Link 0: 25.781 GB/s"),
 * -e ("Link 0: Replay Errors: 0", Recovery and CRC) and -c ("Link 0, P2P
 * is supported: true"), each under its GPU's line ("GPU 3: Tesla
 * V100-SXM2-32GB (UUID: ...)"), and NVML's "Unable to retrieve NVLink
 * information as all links are inActive": which of each GPU's links are
 * up, which count errors and which carry no P2P, as NVML's link state
 * gives a live run.  A link line before any GPU's line belongs to no GPU
 * and is not read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evidence/evidence.h"

/* "GPU 3: Tesla V100-SXM2-32GB (UUID: ...)": 3, or -1. */
static int gpu_line(const char *s)
{
	unsigned int g;
	int n = 0;

	if (sscanf(s, "GPU %u: %n", &g, &n) != 1 || !n || g >= EV_GPU_MAX)
		return -1;
	return (int)g;
}

/* Whether @s holds @word, any case. */
static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return true;
	return false;
}

/* What one link line of GPU @g says: 1 read, 0 not a link line. */
static int link_line(struct ev_nvlink *nv, unsigned int g, const char *s,
		     struct ev_ref ref)
{
	unsigned int link;
	const char *p;
	char *end;
	int n = 0;

	if (sscanf(s, "Link %u%n", &link, &n) != 1 || link >= 32 || (s[n] != ':' && s[n] != ','))
		return 0;
	p = ev_skip_blank(s + n + 1);
	if (s[n] == ',') {		/* -c */
		if (!ev_starts(p, "P2P is supported:"))
			return ev_starts(p, "Access to system memory") || ev_starts(p, "P2P atomics") ||
			       ev_starts(p, "System memory atomics") || ev_starts(p, "SLI is") ||
			       ev_starts(p, "Link is supported");
		p = ev_skip_blank(p + 17);
		if (ev_starts(p, "false"))
			nv->no_p2p[g] |= 1u << link;
		else if (!ev_starts(p, "true"))
			return 0;
		return 1;
	}
	if (ev_starts(p, "<inactive>")) {
		if (!nv->down[g])
			nv->ref[g] = ref;	/* the first link down names the GPU */
		nv->down[g] |= 1u << link;
		return 1;
	}
	if (ev_starts(p, "Replay Errors:") || ev_starts(p, "Recovery Errors:") ||
	    ev_starts(p, "CRC Errors:")) {
		unsigned long v;

		p = strchr(p, ':') + 1;
		v = strtoul(p, &end, 10);
		if (end == p)
			return 0;
		if (v) {
			nv->errors[g] |= 1u << link;
			ev_note(&nv->errors_ref[g], ref.file, ref.line);
		}
		return 1;
	}
	if (strtod(p, &end) > 0 && ev_starts(ev_skip_blank(end), "GB/s")) {
		nv->up[g] |= 1u << link;
		return 1;
	}
	return 0;
}

void read_nvlink(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_nvlink *nv = &ev->nvlink;
	unsigned int i;
	int g = -1;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]);
		struct ev_ref ref = { fi, i + 1 };
		int at;

		if ((at = gpu_line(s)) >= 0) {
			g = at;
			continue;
		}
		if (has_word(s, "all links are inActive") && has_word(s, "NVLink information")) {
			nv->all_inactive = true;
			ev_note(&nv->all_inactive_ref, fi, i + 1);
			f->formats |= EV_FMT_NVLINK;
			continue;
		}
		if (g < 0 || !link_line(nv, (unsigned int)g, s, ref))
			continue;
		if (!nv->ref[g].line)
			nv->ref[g] = ref;
		if ((unsigned int)g + 1 > nv->nr_gpus)
			nv->nr_gpus = (unsigned int)g + 1;
		f->formats |= EV_FMT_NVLINK;
	}
}
