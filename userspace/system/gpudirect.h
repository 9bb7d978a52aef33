/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GPUDirect readiness: for every judged GPU-NIC pair, whether the GPU's
 * memory can be registered with the NIC (nvidia-peermem's peer-memory
 * client, or dma-buf) and whether NCCL would use GPUDirect RDMA for the
 * pair; for every GPU-NVMe pair, the route GPUDirect Storage would take
 * (nvidia-fs, the kernel's P2PDMA, or compat mode through host memory)
 * and each of its preconditions.  Facts come from files under the root
 * of system reads; the pair's path comes from the verdict engine, the
 * readiness from the judge (judge/system_gpudirect.c).
 */
#ifndef P2PDIAG_SYSTEM_GPUDIRECT_H
#define P2PDIAG_SYSTEM_GPUDIRECT_H

#include <stdbool.h>
#include <stddef.h>

#include "system/kernel.h"
#include "p2pdiag/model.h"

struct fsroot;
struct fsroot_refusal;

enum nvidia_flavour {
	NVIDIA_ABSENT,		/* no nvidia module */
	NVIDIA_FLAVOUR_UNKNOWN,	/* loaded, /proc/driver/nvidia/version unreadable */
	NVIDIA_OPEN,		/* open kernel modules: dma-buf capable */
	NVIDIA_PROPRIETARY,
};

/* What the machine offers, read once. */
struct gpudirect_facts {
	enum nvidia_flavour flavour;
	char nvidia_version[64];	/* /sys/module/nvidia/version */
	enum tri static_bar1;		/* RMForceStaticBar1=1 in RegistryDwords */
	char peermem_module[16];	/* nvidia_peermem or nv_peer_mem, or "" */
	char peermem_version[64];	/* memory_peers/nv_mem/version, or "" */
	enum tri dmabuf_kernel;		/* >= 5.12 with CONFIG_DMA_SHARED_BUFFER */
	char nvfs_version[64];		/* /sys/module/nvidia_fs/version, or "" */
	bool nvfs_loaded;
	char nvfs_driver[96];		/* "NVFS Driver(version: ...)" of its stats */
	enum tri p2pdma_release;	/* kernel >= 6.2 */
	enum tri p2pdma_config;		/* CONFIG_PCI_P2PDMA */
	enum tri p2pdma_ops;		/* p2pdma_pgmap_ops in /proc/kallsyms */
	enum tri multipath_off;		/* nvme_core multipath=N */
};

#define GD_MAX_CHECKS	10
#define GD_EVIDENCE_LEN	200

/* One precondition of a route, with what showed it. */
struct gd_check {
	const char *name;		/* stable: "peermem-registered", ... */
	const char *route;		/* the route it is a precondition of, or NULL: all */
	enum tri ok;
	char evidence[GD_EVIDENCE_LEN];
};

/*
 * One end's address translation services (ats, pri, pasid), in the ABI's
 * words: whether the device can use translated addresses, fault pages in
 * and tag requests with a PASID, the features behind SVA and behind
 * DirectTrans+ P2P through a translating IOMMU.
 */
struct gd_translation {
	char ats[32];
	char pri[16];
	char pasid[32];
};

struct gd_pair {
	unsigned long long gpu, peer;	/* P2PD_ADDR() */
	int pair;			/* index into check_run.pair */
	bool storage;			/* NVMe (GPUDirect Storage), else NIC */
	const char *route;		/* peermem, dma-buf, none; nvidia-fs, p2pdma, compat */
	bool ready;			/* the route exists and every check passed */
	int nccl_gdr;			/* NCCL would use GDR (NIC pairs), else -1 */
	char nccl_why[160];
	char driver[32];		/* the peer's kernel driver, or "" */
	char rdma[32];			/* NIC: its RDMA device, or "" */
	char iommu[160];		/* NVMe: both groups' IOMMU modes */
	struct gd_translation gpu_translation, peer_translation;
	struct gd_check check[GD_MAX_CHECKS];
	unsigned int nr_check;
};

/* An NVMe controller that sits behind an Intel VMD domain. */
struct gd_vmd_nvme {
	char name[32];			/* nvme0 */
	char addr[32];			/* 10000:e1:00.0 */
	char vmd[32];			/* the VMD endpoint, 0000:00:0e.0 */
};

#define GD_MAX_VMD 32

struct gpudirect {
	struct gpudirect_facts facts;
	struct gd_pair *pair;		/* malloc'd */
	unsigned int nr_pair;
	struct gd_vmd_nvme vmd[GD_MAX_VMD];
	unsigned int nr_vmd;
	/* the machine's RDMA devices and network interfaces (gpudirect_routes.h) */
	bool any_rdma_device, net_class_exists;
	char net_interfaces[512];
};

/*
 * Read the machine-wide facts (under the root) into @f; @storage: the
 * model has an NVMe function, so the storage routes' facts are wanted too.
 */
void gpudirect_facts_read(struct gpudirect_facts *f,
			  const struct kernel_facts *k,
			  const struct fsroot *root,
			  struct fsroot_refusal *refused, bool storage);

void gpudirect_free(struct gpudirect *g);

#endif /* P2PDIAG_SYSTEM_GPUDIRECT_H */
