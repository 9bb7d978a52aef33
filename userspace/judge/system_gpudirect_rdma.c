// SPDX-License-Identifier: GPL-2.0
/*
 * GPUDirect RDMA readiness of a GPU-NIC pair: its routes (nvidia-peermem's
 * peer-memory client, or dma-buf with the NVIDIA open kernel modules on
 * 5.12+), the NIC's RDMA device, and NCCL's rule by distance.  The
 * peermem module can load without registering (built against the inbox
 * ib_core); NCCL then prints "GPU Direct RDMA Disabled", so loaded and
 * registered are two checks.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judgement.h"
#include "judge/judge.h"
#include "judge/system_gpudirect.h"
#include "topology/pciaddr.h"
#include "system/function_facts.h"
#include "system/gpudirect.h"
#include "system/gpudirect_checks.h"
#include "system/gpudirect_routes.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/vendor_ids.h"
#include "p2pdiag/verdict.h"

/* The GPU at model index @fn among the CUDA devices, or -1. */
static int cuda_index(const struct check_run *r, int fn)
{
	unsigned int i;

	for (i = 0; r->in.gpu && i < r->in.gpu->nr_dev; i++)
		if (r->in.gpu->dev[i].pci_addr == r->in.model->fn[fn].addr)
			return (int)i;
	return -1;
}

/*
 * NCCL (ncclTopoCheckGdr): GDR when the GPU-NIC path type is at most
 * NCCL_NET_GDR_LEVEL, PXB by default; P2C on a C2C platform (a GPU on an
 * NVIDIA CPU's root complex reaches a NIC on that CPU); a PXN path (the
 * NIC far, an NVLink peer GPU near it) is judged by the peer's distance.
 */
int gpudirect_nccl_gdr(const struct check_run *r, unsigned int pair,
		       char *why, size_t len)
{
	const struct p2pd_model *m = r->in.model;
	const struct p2pd_pair *p = &r->judged.pair[pair];
	int gpu = p2pd_is_nvidia_gpu(&m->fn[p->a]) ? p->a : p->b;
	int nic = gpu == p->a ? p->b : p->a;
	int host = gpu == p->a ? p->host_fn : p->host_fn_b;
	bool c2c = host != P2PD_NO_INDEX && m->fn[host].vendor == P2PD_VENDOR_NVIDIA;
	int cg = cuda_index(r, gpu);
	unsigned int k;

	if (p->cls == P2PD_CLASS_UNKNOWN) {
		snprintf(why, len, "the path is not known: a bridge on it is missing from the snapshot");
		return 0;
	}
	if (p->cls <= P2PD_CLASS_PXB) {
		snprintf(why, len, "%s <= PXB, NCCL_NET_GDR_LEVEL's default",
			 p2pd_class_name(p->cls));
		return 1;
	}
	if (c2c && p->cls == P2PD_CLASS_PHB) {
		snprintf(why, len,
			 "PHB on a C2C platform (NVIDIA CPU host bridge): within P2C, the default there");
		return 1;
	}
	/* PXN: an NVLink peer of this GPU whose own path to the NIC qualifies */
	for (k = 0; cg >= 0 && k < GPU_MAX_NVLINKS; k++) {
		unsigned long long remote = r->in.gpu->dev[cg].nvlink_remote[k];
		int rf = remote ? p2pd_model_find(m, remote) : P2PD_NO_INDEX;
		int rp = rf == P2PD_NO_INDEX ? -1 : run_pair_index(r, rf, nic);
		char ga[P2PD_ADDR_STRLEN];

		if (rp < 0 || r->judged.pair[rp].cls > P2PD_CLASS_PXB)
			continue;
		snprintf(why, len,
			 "%s itself, but PXN through NVLink peer GPU %s (%s to the NIC)",
			 p2pd_class_name(p->cls), pciaddr_format(ga, remote),
			 p2pd_class_name(r->judged.pair[rp].cls));
		return 1;
	}
	snprintf(why, len, "%s > %s: NCCL sends through host memory", p2pd_class_name(p->cls),
		 c2c ? "P2C" : "PXB");
	return 0;
}

static const char *flavour_name(enum nvidia_flavour f)
{
	switch (f) {
	case NVIDIA_OPEN: return "open kernel modules";
	case NVIDIA_PROPRIETARY: return "proprietary kernel module";
	case NVIDIA_FLAVOUR_UNKNOWN: return "loaded, flavour unreadable";
	default: return "not loaded";
	}
}

void gdr_judge_pair(const struct check_run *r, const struct gpudirect_facts *f,
		    struct gd_pair *g, unsigned int pi)
{
	const struct p2pd_pair *p = &r->judged.pair[pi];
	bool registered = f->peermem_version[0];
	bool dmabuf = f->flavour == NVIDIA_OPEN && f->dmabuf_kernel == TRI_YES;

	if (f->peermem_module[0])
		gd_check_add(g, "peermem", "peermem-registered", registered ? TRI_YES : TRI_NO,
			     registered ? "%s loaded, " PEER_MEM_DIR "/version %s" :
			     "%s loaded, but no " PEER_MEM_DIR "/version%s: no peer-memory client registered",
			     f->peermem_module, f->peermem_version);
	else
		gd_check_add(g, "peermem", "peermem-registered", TRI_NO,
			     "neither nvidia_peermem nor nv_peer_mem is loaded");
	gd_check_add(g, "dma-buf", "open-kernel-modules",
		     f->flavour == NVIDIA_OPEN ? TRI_YES :
		     f->flavour == NVIDIA_FLAVOUR_UNKNOWN ? TRI_UNKNOWN : TRI_NO,
		     "NVIDIA driver %s%s%s", flavour_name(f->flavour),
		     f->nvidia_version[0] ? " " : "", f->nvidia_version);
	gd_check_add(g, "dma-buf", "dmabuf-kernel", f->dmabuf_kernel,
		     "kernel 5.12+ with CONFIG_DMA_SHARED_BUFFER: %s", tri_name(f->dmabuf_kernel));
	gd_check_add(g, NULL, "rdma-device", g->rdma[0] ? TRI_YES : TRI_NO,
		     g->rdma[0] ? "%s (driver %s)" : "none under /sys/class/infiniband%s (driver %s)",
		     g->rdma, g->driver[0] ? g->driver : "none");
	gd_path_check(g, p);
	g->route = registered ? "peermem" : dmabuf ? "dma-buf" : "none";
	g->ready = strcmp(g->route, "none") && g->rdma[0] &&
		   p->verdict != P2PD_VERDICT_BLOCKED;
	g->nccl_gdr = gpudirect_nccl_gdr(r, pi, g->nccl_why, sizeof(g->nccl_why));
	gd_check_add(g, NULL, "nccl-distance", g->nccl_gdr ? TRI_YES : TRI_NO, "%s", g->nccl_why);
	if (g->nccl_gdr && !g->ready) {
		char why[sizeof(g->nccl_why)];

		memcpy(why, g->nccl_why, sizeof(why));
		snprintf(g->nccl_why, sizeof(g->nccl_why),
			 "the distance allows it (%.100s), but the route is missing", why);
	}
	g->nccl_gdr = g->nccl_gdr && g->ready;
}

static const char *gdr_fix(const struct gpudirect_facts *f)
{
	if (f->peermem_module[0] && !f->peermem_version[0])
		return "rebuild the NVIDIA kernel modules after MLNX_OFED is installed (reinstall the driver package or `dkms autoinstall`), then `modprobe -r nvidia_peermem && modprobe nvidia_peermem`; or drop peermem and use dma-buf (NVIDIA open kernel modules, kernel 5.12+)";
	return "`modprobe nvidia_peermem` (needs MLNX_OFED's ib_core), or install the NVIDIA open kernel modules flavour of the same driver version (nvidia-open / nvidia-driver-<version>-open, kernel 5.12+) so NCCL can use dma-buf";
}

void gdr_findings(struct check_run *r, const struct gpudirect *g,
		  const struct function_facts *facts)
{
	const struct gpudirect_facts *f = &g->facts;
	char ga[P2PD_ADDR_STRLEN], na[P2PD_ADDR_STRLEN];
	bool any_rdma = false, said_route = false;
	unsigned int i, j;

	bool any_gpu = false, no_rdma;
	const char *nets = g->net_interfaces;

	for (i = 0; r->in.model && i < r->in.model->nr_fn; i++)
		any_gpu |= p2pd_is_nvidia_gpu(&r->in.model->fn[i]);
	for (i = 0; i < g->nr_pair; i++)
		any_rdma |= !g->pair[i].storage && g->pair[i].rdma[0];
	/* only where sysfs is there to say so: no /sys/class/net, no evidence */
	no_rdma = any_gpu && !any_rdma && !g->any_rdma_device && g->net_class_exists;
	if (no_rdma)
		findings_add(&r->judged.findings, SEV_INFO, FC_GDR_NO_RDMA_NIC,
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "GPUDirect RDMA needs an RDMA NIC (InfiniBand or RoCE, e.g. ConnectX with mlx5_ib) passed to this machine",
			     "no RDMA device under /sys/class/infiniband: GPUDirect RDMA has no NIC to use; network interfaces: %s",
			     nets[0] ? nets : "none with a device");
	if (f->peermem_module[0] && !f->peermem_version[0])
		findings_add(&r->judged.findings, SEV_WARNING, FC_GDR_PEERMEM_UNREGISTERED,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, gdr_fix(f),
			     "%s is loaded but " PEER_MEM_DIR "/version does not exist: it registered no peer-memory client, so NCCL prints \"GPU Direct RDMA Disabled\" and stages every network transfer through host memory",
			     f->peermem_module);
	for (i = 0; i < g->nr_pair; i++) {
		const struct gd_pair *p = &g->pair[i];
		bool first_nic = true;

		if (p->storage)
			continue;
		for (j = 0; j < i; j++)
			if (!g->pair[j].storage && g->pair[j].peer == p->peer)
				first_nic = false;
		/* the machine-wide finding already names every interface */
		if (first_nic && !p->rdma[0] && !no_rdma &&
		    facts[p2pd_model_find(r->in.model, p->peer)].present)
			findings_add(&r->judged.findings, SEV_INFO, FC_GDR_NO_RDMA_DEVICE,
				     p->peer, FINDING_NO_ADDR,
				     "GPUDirect RDMA needs an RDMA NIC with its RDMA driver loaded (mlx5_ib for ConnectX, efa, ...)",
				     "NIC %s (driver %s) has no RDMA device under /sys/class/infiniband: GPUDirect RDMA cannot use it",
				     gd_addr_text(p->peer, na), p->driver[0] ? p->driver : "none");
		if (p->rdma[0] && !strcmp(p->route, "none") && !said_route &&
		    !(f->peermem_module[0] && !f->peermem_version[0])) {
			said_route = true;
			findings_add(&r->judged.findings, SEV_INFO, FC_GDR_NO_ROUTE,
				     FINDING_NO_ADDR, FINDING_NO_ADDR, gdr_fix(f),
				     "no route for GPU memory to RDMA NICs: no nvidia-peermem, and dma-buf needs the NVIDIA open kernel modules (here: %s) on kernel 5.12+ with dma-buf (here: %s)",
				     flavour_name(f->flavour), tri_name(f->dmabuf_kernel));
		}
		if (p->ready && !p->nccl_gdr)
			findings_add(&r->judged.findings, SEV_INFO, FC_GDR_NCCL_DISTANCE,
				     p->gpu, p->peer,
				     "NCCL_NET_GDR_LEVEL=PHB lets NCCL use it across the host bridge (slower than under one switch); better, pair each GPU with a NIC under its own PCIe switch",
				     "NCCL will not use GPUDirect RDMA between GPU %s and NIC %s: %s",
				     gd_addr_text(p->gpu, ga), gd_addr_text(p->peer, na), p->nccl_why);
	}
}
