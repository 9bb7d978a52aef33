// SPDX-License-Identifier: GPL-2.0
/*
 * The partial model of the machine the evidence comes from: what is not
 * in the files stays unknown (-1, NaN, EV_LINK_UNKNOWN), never a default
 * that looks like a reading.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"
#include "topology/topology_parse.h"

#define EV_FORMAT_NAME(id, name) [EV_FMT_INDEX_##id] = name,
static const char *const format_names[EV_FMT_COUNT] = { EV_FORMATS(EV_FORMAT_NAME) };
#undef EV_FORMAT_NAME

const char *ev_format_name(unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < EV_FMT_COUNT; i++)
		if (bit == 1u << i)
			return format_names[i];
	return "unknown";
}

void ev_matrix_clear(struct ev_matrix *m)
{
	unsigned int i, j;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < EV_GPU_MAX; i++)
		for (j = 0; j < EV_GPU_MAX; j++)
			m->v[i][j] = NAN;
}

void evidence_init(struct evidence *ev)
{
	unsigned int i;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < EV_GPU_MAX; i++) {
		ev->gpu_bus[i] = -1;
		ev->gpu_topo_row[i] = -1;
		ev->gpu_numa[i] = -1;
		ev->topo_numa[i] = -1;
	}
	memset(ev->can_access, -1, sizeof(ev->can_access));
	ev_matrix_clear(&ev->uni_off);
	ev_matrix_clear(&ev->uni_on);
	ev_matrix_clear(&ev->bidi_off);
	ev_matrix_clear(&ev->bidi_on);
	ev_matrix_clear(&ev->lat_off);
	ev_matrix_clear(&ev->lat_on);
	ev_matrix_clear(&ev->nvbw_d2d);
	ev_matrix_clear(&ev->nvbw_d2d_bidi);
	ev->nccl.nr_nodes = -1;
	ev->simple_p2p.gbs = NAN;
	ev->osu.mbs = NAN;
}

void evidence_free(struct evidence *ev)
{
	unsigned int i, j;

	for (i = 0; i < ev->nr_files; i++) {
		for (j = 0; j < ev->file[i].nr_lines; j++)
			free(ev->file[i].line[j]);
		free(ev->file[i].line);
		free(ev->file[i].text);
		free(ev->file[i].name);
	}
	free(ev->pci);
	if (ev->have_dump)
		p2pd_model_free(&ev->dump);
	ev->nr_files = 0;
	ev->pci = NULL;
	ev->have_dump = false;
}

void ev_note(struct ev_ref *r, unsigned int fi, unsigned int line)
{
	if (!r->line) {
		r->file = fi;
		r->line = line;
	}
}

const char *ev_file_why(const struct ev_file *f)
{
	if (f->why[0])
		return f->why;
	if (f->binary)
		return "binary data, not a pasted output";
	if (!f->len)
		return "empty";
	return "not in a format p2pdiag reads (nvidia-smi topo, -q and nvlink, p2pBandwidthLatencyTest, simpleP2P, nvbandwidth, lspci, setpci, NCCL_DEBUG=INFO, nccl-tests, CUDA errors, dmesg and /proc/cmdline, ROCm's rvs, rocm-smi --showtopo and rocm_bandwidth_test, osu_bw, PyTorch sessions and collect_env)";
}

const char *ev_file_name(const struct evidence *ev, unsigned int i)
{
	if (i >= ev->nr_files)
		return "?";
	return strcmp(ev->file[i].name, "-") ? ev->file[i].name : "stdin";
}

const char *ev_ref_str(const struct evidence *ev, struct ev_ref ref,
		       char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", ev_file_name(ev, ref.file), ref.line);
	return buf;
}

void ev_gpu_named(struct evidence *ev, unsigned int g, int bus, const char *name,
		  struct ev_ref ref)
{
	size_t n = strcspn(name, "\r\n");

	if (g >= EV_GPU_MAX)
		return;
	if (!ev->gpu_name[g][0]) {
		while (n && name[n - 1] == ' ')
			n--;
		if (n >= sizeof(ev->gpu_name[g]))
			n = sizeof(ev->gpu_name[g]) - 1;
		memcpy(ev->gpu_name[g], name, n);
		ev->gpu_name[g][n] = '\0';
		ev->gpu_ref[g] = ref;
	}
	if (ev->gpu_bus[g] < 0 && bus >= 0 && bus < 256)
		ev->gpu_bus[g] = bus;
	if (g + 1 > ev->nr_gpus)
		ev->nr_gpus = g + 1;
}

int ev_gpu_by_bus(const struct evidence *ev, unsigned int bus)
{
	unsigned int i;

	for (i = 0; i < ev->nr_gpus; i++)
		if (ev->gpu_bus[i] >= 0 && (unsigned int)ev->gpu_bus[i] == bus)
			return (int)i;
	return -1;
}
