// SPDX-License-Identifier: GPL-2.0
/*
 * GPUDirect readiness over the fixture trees in fixtures/system/: one
 * server (server.topo: GPU, ConnectX NIC and NVMe under one switch, a
 * second GPU on its own root port) and, per tree, the files of one
 * software setup and of its broken variant.  Each finding is asserted
 * present where the tree is broken and absent where it is not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "topology/pciaddr.h"
#include "topology/topology_parse.h"
#include "system_fixture.h"
#include "judge/system_gpudirect.h"

void test_gpudirect(struct ktap *k, const char *fixtures);

/* The readiness of GPU @gpu with @peer, or NULL. */
static const struct gd_pair *pair_of(const struct fixture_run *f,
				     const char *gpu, const char *peer)
{
	unsigned long long g, p;
	unsigned int i;

	if (!f->ok || pciaddr_parse(gpu, &g) || pciaddr_parse(peer, &p))
		return NULL;
	for (i = 0; i < f->s.gd.nr_pair; i++)
		if (f->s.gd.pair[i].gpu == g && f->s.gd.pair[i].peer == p)
			return &f->s.gd.pair[i];
	return NULL;
}

static bool route_is(const struct gd_pair *p, const char *route, bool ready)
{
	return p && !strcmp(p->route, route) && p->ready == ready;
}

#define GPU_NEAR	"0000:1b:00.0"	/* under the switch with NIC and NVMe */
#define GPU_FAR		"0000:02:00.0"	/* own root port: PHB */
#define NIC		"0000:1c:00.0"
#define NVME		"0000:1d:00.0"

#define count fixture_count

/* The GPU-NIC pair's index in the run, or -1. */
static int pair_index(const struct fixture_run *f, const char *gpu, const char *nic)
{
	unsigned long long g, n;
	unsigned int i;

	if (!f->ok || pciaddr_parse(gpu, &g) || pciaddr_parse(nic, &n))
		return -1;
	for (i = 0; i < f->r.judged.nr_pairs; i++) {
		unsigned long long a = f->m.fn[f->r.judged.pair[i].a].addr;
		unsigned long long b = f->m.fn[f->r.judged.pair[i].b].addr;

		if ((a == g && b == n) || (a == n && b == g))
			return (int)i;
	}
	return -1;
}

/* NCCL's PXN and C2C cases of the GDR distance rule. */
static void nccl_cases(struct ktap *k, const char *fixtures)
{
	static struct gpu_state gpus;
	struct fixture_run f;
	char why[160] = "";
	int pi, host;

	fixture_load(&f, fixtures, "peermem");
	pi = pair_index(&f, GPU_FAR, NIC);
	CHECK(k, pi >= 0 && gpudirect_nccl_gdr(&f.r, (unsigned int)pi, why, sizeof(why)) == 0 &&
	      strstr(why, "PHB > PXB"),
	      "gpudirect: NCCL: the PHB GPU-NIC pair is beyond PXB without NVLink");
	/* the far GPU with an NVLink to the near one: PXN through it */
	memset(&gpus, 0, sizeof(gpus));
	gpus.nr_dev = 2;
	pciaddr_parse(GPU_FAR, &gpus.dev[0].pci_addr);
	pciaddr_parse(GPU_NEAR, &gpus.dev[1].pci_addr);
	gpus.dev[0].nvlink_remote[0] = gpus.dev[1].pci_addr;
	gpus.dev[1].nvlink_remote[0] = gpus.dev[0].pci_addr;
	f.r.in.gpu = &gpus;
	CHECK(k, pi >= 0 && gpudirect_nccl_gdr(&f.r, (unsigned int)pi, why, sizeof(why)) == 1 &&
	      strstr(why, "PXN through NVLink peer GPU " GPU_NEAR " (PIX to the NIC)"),
	      "gpudirect: NCCL: with an NVLink peer under the NIC's switch, PXN gives GDR");
	f.r.in.gpu = NULL;
	/* an NVIDIA CPU's host bridge: C2C, where P2C admits the PHB pair */
	host = pi >= 0 ? f.r.judged.pair[pi].host_fn : -1;
	if (host >= 0)
		f.m.fn[host].vendor = 0x10de;
	CHECK(k, host >= 0 && gpudirect_nccl_gdr(&f.r, (unsigned int)pi, why, sizeof(why)) == 1 &&
	      strstr(why, "C2C"),
	      "gpudirect: NCCL: on a C2C host (NVIDIA CPU host bridge) a PHB NIC is within P2C");
	fixture_unload(&f);
}

void test_gpudirect(struct ktap *k, const char *fixtures)
{
	struct fixture_run f;
	const struct gd_pair *p;

	nccl_cases(k, fixtures);

	fixture_load(&f, fixtures, "peermem");
	p = pair_of(&f, GPU_NEAR, NIC);
	CHECK(k, route_is(p, "peermem", true) && p->nccl_gdr == 1 &&
	      !strcmp(p->rdma, "mlx5_0") && !strcmp(p->driver, "mlx5_core"),
	      "gpudirect: peermem: registered nvidia_peermem is the route, mlx5_0, NCCL uses GDR at PIX");
	p = pair_of(&f, GPU_FAR, NIC);
	CHECK(k, route_is(p, "peermem", true) && p->nccl_gdr == 0 &&
	      count(&f, "gdr-nccl-distance") == 1,
	      "gpudirect: peermem: the PHB GPU gets no GDR from NCCL (gdr-nccl-distance)");
	CHECK(k, count(&f, "gdr-peermem-unregistered") == 0 && count(&f, "gdr-no-route") == 0,
	      "gpudirect: peermem: no route finding on a working setup");

	/* each end's ATS, PRI and PASID as the server's topology says */
	p = pair_of(&f, GPU_NEAR, NIC);
	CHECK(k, p && !strcmp(p->gpu_translation.ats, "none") &&
	      !strcmp(p->peer_translation.ats, "disabled") &&
	      !strcmp(p->peer_translation.pri, "none") &&
	      !strcmp(p->peer_translation.pasid, "none"),
	      "gpudirect: peermem: the pair shows the GPU's and the NIC's ats, pri and pasid");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "peermem-broken");
	p = pair_of(&f, GPU_NEAR, NIC);
	CHECK(k, count(&f, "gdr-peermem-unregistered") == 1 && route_is(p, "none", false) &&
	      p->nccl_gdr == 0,
	      "gpudirect: peermem-broken: loaded without memory_peers/nv_mem/version is gdr-peermem-unregistered, no route");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "dmabuf");
	p = pair_of(&f, GPU_NEAR, NIC);
	CHECK(k, route_is(p, "dma-buf", true) && p->nccl_gdr == 1 && count(&f, "gdr-no-route") == 0,
	      "gpudirect: dmabuf: open kernel modules on 6.8 give the dma-buf route");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "dmabuf-broken");
	p = pair_of(&f, GPU_NEAR, NIC);
	CHECK(k, route_is(p, "none", false) && count(&f, "gdr-no-route") == 1,
	      "gpudirect: dmabuf-broken: the proprietary module and no peermem is gdr-no-route");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "nvidia-fs");
	p = pair_of(&f, GPU_NEAR, NVME);
	CHECK(k, route_is(p, "nvidia-fs", true) && count(&f, "gds-iommu-translated") == 0 &&
	      count(&f, "gds-compat-mode") == 0,
	      "gpudirect: nvidia-fs: the storage route is nvidia-fs, identity IOMMU groups");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "nvidia-fs-broken");
	p = pair_of(&f, GPU_NEAR, NVME);
	CHECK(k, route_is(p, "nvidia-fs", false) && count(&f, "gds-iommu-translated") == 2 &&
	      strstr(p->iommu, "type DMA-FQ"),
	      "gpudirect: nvidia-fs-broken: translated groups are gds-iommu-translated for both GPUs");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "p2pdma");
	p = pair_of(&f, GPU_NEAR, NVME);
	CHECK(k, route_is(p, "p2pdma", true) && count(&f, "gds-compat-mode") == 0,
	      "gpudirect: p2pdma: every P2PDMA precondition holds");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "p2pdma-broken");
	p = pair_of(&f, GPU_NEAR, NVME);
	CHECK(k, route_is(p, "compat", false) && count(&f, "gds-compat-mode") == 1 &&
	      f.r.judged.findings.nr && findings_worst(&f.r.judged.findings) == SEV_WARNING,
	      "gpudirect: p2pdma-broken: multipath on is gds-compat-mode, a warning once static BAR1 was set");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "vmd");
	CHECK(k, count(&f, "nvme-behind-vmd") == 1 && f.s.gd.nr_vmd == 1 &&
	      !strcmp(f.s.gd.vmd[0].name, "nvme1") && !strcmp(f.s.gd.vmd[0].vmd, "0000:00:0e.0") &&
	      !strcmp(f.s.gd.vmd[0].addr, "10000:e1:00.0"),
	      "gpudirect: vmd: nvme1 behind VMD 0000:00:0e.0 is nvme-behind-vmd");
	fixture_unload(&f);

	fixture_load(&f, fixtures, "vmd-off");
	CHECK(k, count(&f, "nvme-behind-vmd") == 0,
	      "gpudirect: vmd-off: no VMD, no finding");
	fixture_unload(&f);
}
