// SPDX-License-Identifier: GPL-2.0
/*
 * GPUDirect readiness: the machine's facts, read once, and the pairs
 * GPUDirect serves (an NVIDIA GPU with a NIC or an NVMe drive), each
 * handed to the RDMA or the Storage judge (gpudirect_rdma.c,
 * gpudirect_storage.c), which record their preconditions as
 * gpudirect_checks.c's checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/gpudirect.h"
#include "system/gpudirect_checks.h"
#include "system/gpudirect_routes.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

static void read_flavour(struct gpudirect_facts *f, struct fsroot *root)
{
	char text[512];

	if (!module_present(root, "nvidia")) {
		f->flavour = NVIDIA_ABSENT;
		return;
	}
	if (module_value(root, "nvidia", "version", f->nvidia_version,
			 sizeof(f->nvidia_version)))
		f->nvidia_version[0] = '\0';
	/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  ..." */
	if (fsroot_read(root, text, sizeof(text), "/proc/driver/nvidia/version"))
		f->flavour = NVIDIA_FLAVOUR_UNKNOWN;
	else if (strstr(text, "Open Kernel Module"))
		f->flavour = NVIDIA_OPEN;
	else
		f->flavour = NVIDIA_PROPRIETARY;
}

/* RMForceStaticBar1=1 among the driver's registry settings. */
static enum tri read_static_bar1(struct fsroot *root)
{
	char line[1024];
	enum tri t = TRI_NO;
	FILE *p = fsroot_fopen(root, "/proc/driver/nvidia/params");

	if (!p)
		return TRI_UNKNOWN;
	while (fgets(line, sizeof(line), p)) {
		char *s;

		if (strncmp(line, "RegistryDwords", 14))
			continue;
		s = strstr(line, "RMForceStaticBar1=");
		if (s && (s[18] == '1' || !strncmp(s + 18, "0x1", 3) ||
			  !strncmp(s + 18, "0x01", 4)))
			t = TRI_YES;
	}
	fclose(p);
	return t;
}

static void read_nvfs(struct gpudirect_facts *f, struct fsroot *root)
{
	char line[256];
	FILE *s;

	f->nvfs_loaded = module_present(root, "nvidia_fs");
	if (!f->nvfs_loaded)
		return;
	if (module_value(root, "nvidia_fs", "version", f->nvfs_version,
			 sizeof(f->nvfs_version)))
		f->nvfs_version[0] = '\0';
	s = fsroot_fopen(root, "/proc/driver/nvidia-fs/stats");
	if (!s)
		return;
	while (fgets(line, sizeof(line), s)) {
		if (!strncmp(line, "NVFS Driver", 11)) {
			line[strcspn(line, "\n")] = '\0';
			gd_copy_text(f->nvfs_driver, sizeof(f->nvfs_driver), line);
			break;
		}
	}
	fclose(s);
}

void gpudirect_facts_read(struct gpudirect_facts *f, const struct kernel_facts *k,
			  struct fsroot *root, bool storage)
{
	char mp[16];
	enum tri rel;

	memset(f, 0, sizeof(*f));
	read_flavour(f, root);
	f->static_bar1 = f->flavour == NVIDIA_ABSENT ? TRI_NO : read_static_bar1(root);
	if (module_present(root, "nvidia_peermem"))
		strcpy(f->peermem_module, "nvidia_peermem");
	else if (module_present(root, "nv_peer_mem"))
		strcpy(f->peermem_module, "nv_peer_mem");
	if (fsroot_read(root, f->peermem_version, sizeof(f->peermem_version),
			PEER_MEM_DIR "/version"))
		f->peermem_version[0] = '\0';
	rel = kernel_at_least(k, 5, 12);
	f->dmabuf_kernel = rel == TRI_YES ? kernel_config(k, root, "DMA_SHARED_BUFFER") : rel;
	read_nvfs(f, root);
	f->p2pdma_release = kernel_at_least(k, 6, 2);
	f->p2pdma_config = kernel_config(k, root, "PCI_P2PDMA");
	/*
	 * /proc/kallsyms is read to its end (100,000 lines and more, tens of
	 * milliseconds): only where a GPU-NVMe pair can need the answer.
	 */
	f->p2pdma_ops = storage ? kernel_symbol(root, "p2pdma_pgmap_ops") : TRI_UNKNOWN;
	if (!module_value(root, "nvme_core", "parameters/multipath", mp, sizeof(mp)))
		f->multipath_off = mp[0] == 'N' || mp[0] == 'n' || mp[0] == '0' ?
				   TRI_YES : TRI_NO;
	else
		f->multipath_off = module_present(root, "nvme_core") ? TRI_UNKNOWN :
				   TRI_YES;	/* no nvme_core: no multipath */
}

/* ats, pri and pasid of @f, exactly as their sysfs files read. */
static void read_translation(const struct p2pd_function *f,
			     struct gd_translation *t)
{
	p2pd_field_text(t->ats, sizeof(t->ats), f, P2PD_F_ATS);
	p2pd_field_text(t->pri, sizeof(t->pri), f, P2PD_F_PRI);
	p2pd_field_text(t->pasid, sizeof(t->pasid), f, P2PD_F_PASID);
}

/*
 * Pair @i's NVIDIA GPU and its peer, when the peer is a NIC or an NVMe
 * drive (the pairs GPUDirect RDMA and Storage serve); else false.
 */
static bool gpudirect_ends(const struct check_run *r, unsigned int i,
			   const struct p2pd_function **gpu,
			   const struct p2pd_function **peer)
{
	const struct p2pd_model *m = r->in.model;
	const struct p2pd_pair *p = &r->judged.pair[i];
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	enum p2pd_kind kind;

	*gpu = p2pd_is_nvidia_gpu(fa) ? fa : p2pd_is_nvidia_gpu(fb) ? fb : NULL;
	*peer = *gpu == fa ? fb : fa;
	kind = p2pd_device_kind((*peer)->class_code);
	return *gpu && (kind == P2PD_KIND_NIC || kind == P2PD_KIND_NVME);
}

static bool is_gpudirect_pair(const struct check_run *r, unsigned int i,
			      const void *unused)
{
	const struct p2pd_function *gpu, *peer;

	(void)unused;
	return gpudirect_ends(r, i, &gpu, &peer);
}

void gpudirect_judge(struct check_run *r, struct gpudirect *g)
{
	unsigned int *served = NULL, j;
	int nr_served = 0;

	g->pair = NULL;
	g->nr_pair = 0;
	gds_find_vmd_nvme(r->in.root, g);
	if (r->in.model && r->judged.nr_pairs)
		nr_served = run_select(r, r->judged.nr_pairs, is_gpudirect_pair, NULL,
				       &served);
	if (nr_served > 0)
		g->pair = calloc((size_t)nr_served, sizeof(*g->pair));
	for (j = 0; g->pair && j < (unsigned int)nr_served; j++) {
		const unsigned int i = served[j];
		const struct p2pd_function *gpu, *peer;
		struct gd_pair *gp;
		char pa[P2PD_ADDR_STRLEN];

		gpudirect_ends(r, i, &gpu, &peer);
		gp = &g->pair[g->nr_pair++];
		gp->gpu = gpu->addr;
		gp->peer = peer->addr;
		gp->pair = (int)i;
		gp->storage = p2pd_device_kind(peer->class_code) == P2PD_KIND_NVME;
		read_translation(gpu, &gp->gpu_translation);
		read_translation(peer, &gp->peer_translation);
		pciaddr_format(pa, peer->addr);
		if (fsroot_link_name(r->in.root, gp->driver, sizeof(gp->driver),
				     "/sys/bus/pci/devices/%s/driver", pa))
			gp->driver[0] = '\0';
		if (gp->storage) {
			gds_judge_pair(r, &g->facts, gp, i);
		} else {
			gdr_find_rdma(r->in.root, pa, gp->rdma, sizeof(gp->rdma));
			gdr_judge_pair(r, &g->facts, gp, i);
		}
	}
	free(served);
	if (nr_served < 0 || (nr_served > 0 && !g->pair))
		r->judged.findings.oom = true;
	gdr_findings(r, g);
	gds_findings(r, g);
}

void gpudirect_free(struct gpudirect *g)
{
	free(g->pair);
	g->pair = NULL;
	g->nr_pair = 0;
}
