// SPDX-License-Identifier: GPL-2.0
/*
 * CUDA's p2pBandwidthLatencyTest: the device list with PCI bus numbers,
 * what cudaDeviceCanAccessPeer answered for each pair, and the tables:
 * unidirectional and bidirectional bandwidth with peer access disabled
 * (copies staged through host memory) and enabled, and the GPU latency
 * with both (the CPU latency tables only time the launch: not kept).
 * Newer versions print a P2P Writes and a P2P Reads table for enabled:
 * the writes are kept, as older versions measured writes only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"
#include "evidence/evidence_matrix.h"

/* "Device: 0, NVIDIA GeForce RTX 4090, pciBusID: 2, pciDeviceID: 0, ..." */
static bool device_line(struct evidence *ev, const char *s, unsigned int fi,
			unsigned int line)
{
	unsigned int d, bus;
	const char *name, *b;
	size_t len;

	if (sscanf(s, "Device: %u,", &d) != 1 || d >= EV_GPU_MAX)
		return false;
	b = strstr(s, "pciBusID:");
	name = strchr(s, ',');
	/* the name lies between the number's comma and pciBusID: */
	if (!b || !name || name > b)
		return false;
	if (sscanf(b, "pciBusID: %x", &bus) == 1 && bus < 256)
		ev->gpu_bus[d] = (int)bus;
	name = ev_skip_blank(name + 1);
	len = (size_t)(b - name);
	while (len && (name[len - 1] == ',' || name[len - 1] == ' '))
		len--;
	if (len >= sizeof(ev->gpu_name[d]))
		len = sizeof(ev->gpu_name[d]) - 1;
	memcpy(ev->gpu_name[d], name, len);
	ev->gpu_name[d][len] = '\0';
	ev->gpu_ref[d].file = fi;
	ev->gpu_ref[d].line = line;
	if (d + 1 > ev->nr_gpus)
		ev->nr_gpus = d + 1;
	return true;
}

/* "Device=0 CAN Access Peer Device=1", or CANNOT. */
static bool peer_line(struct evidence *ev, const char *s, unsigned int fi,
		      unsigned int line)
{
	unsigned int a, b;
	char word[8];

	if (sscanf(s, "Device=%u %7s Access Peer Device=%u", &a, word, &b) != 3 ||
	    a >= EV_GPU_MAX || b >= EV_GPU_MAX)
		return false;
	if (strcmp(word, "CAN") && strcmp(word, "CANNOT"))
		return false;
	ev->can_access[a][b] = !strcmp(word, "CAN");
	ev->can_ref[a][b].file = fi;
	ev->can_ref[a][b].line = line;
	if (a + 1 > ev->nr_gpus)
		ev->nr_gpus = a + 1;
	if (b + 1 > ev->nr_gpus)
		ev->nr_gpus = b + 1;
	return true;
}

/* The table a title line introduces, or NULL. */
static struct ev_matrix *title_matrix(struct evidence *ev, const char *s)
{
	bool on = strstr(s, "P2P=Enabled") != NULL;

	if (!on && !strstr(s, "P2P=Disabled"))
		return NULL;
	if (strstr(s, "P2P Reads"))
		return NULL;
	if (strstr(s, "Latency"))
		return on ? &ev->lat_on : &ev->lat_off;
	if (!strstr(s, "Bandwidth"))
		return NULL;
	if (strstr(s, "Bidirectional"))
		return on ? &ev->bidi_on : &ev->bidi_off;
	if (strstr(s, "Unidirectional"))
		return on ? &ev->uni_on : &ev->uni_off;
	return NULL;
}

/*
 * "P2P Connectivity Matrix": 1 or 0 per pair, what the Device=N lines
 * say one by one; it counts where those lines are missing from a paste.
 */
static unsigned int connectivity(struct evidence *ev, const struct ev_file *f,
				 unsigned int i, unsigned int fi)
{
	struct ev_matrix *m = malloc(sizeof(*m));
	unsigned int next, a, b;

	if (!m)
		return i + 1;
	next = ev_matrix_read(f, i, m, fi);
	for (a = 0; m->have && a < m->n; a++)
		for (b = 0; b < m->n; b++) {
			double v = m->v[a][b];

			if (a == b || ev->can_access[a][b] >= 0 || (v != 0 && v != 1))
				continue;
			ev->can_access[a][b] = v == 1;
			ev->can_ref[a][b] = m->ref;
			if (m->n > ev->nr_gpus)
				ev->nr_gpus = m->n;
		}
	free(m);
	return next;
}

void read_p2pbw(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i = 0;
	bool seen = false;

	while (i < f->nr_lines) {
		const char *s = ev_skip_blank(f->line[i]);
		struct ev_matrix *m;

		if (device_line(ev, s, fi, i + 1) || peer_line(ev, s, fi, i + 1) ||
		    strstr(s, "P2P (Peer-to-Peer) GPU Bandwidth Latency Test"))
			seen = true;
		if (ev_starts(s, "P2P Connectivity Matrix")) {
			unsigned int next = connectivity(ev, f, i, fi);

			seen = true;
			i = next > i ? next : i + 1;
			continue;
		}
		m = title_matrix(ev, s);
		if (m) {
			unsigned int next = ev_matrix_read(f, i, m, fi);

			seen |= m->have;
			i = next > i ? next : i + 1;
			continue;
		}
		i++;
	}
	if (seen)
		f->formats |= EV_FMT_P2PBW;
}
