/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two route judges, GPUDirect RDMA and GPUDirect Storage
 * (judge/system_gpudirect_rdma.c, system_gpudirect_storage.c), read
 * under the root beyond the machine's facts (gpudirect_rdma.c,
 * gpudirect_storage.c).
 */
#ifndef P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H
#define P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H

#include <stdbool.h>
#include <stddef.h>

#include "system/gpudirect.h"
#include "p2pdiag/verdict.h"

/* Where a registered peer-memory client (nvidia-peermem) shows itself. */
#define PEER_MEM_DIR	"/sys/kernel/mm/memory_peers/nv_mem"

/* gd_read_driver() - the kernel driver of PCI function @addr into @out, or "". */
void gd_read_driver(const struct fsroot *root, const char *addr, char *out,
		    size_t len);

/* gdr_find_rdma() - the RDMA device of NIC @addr into @out, or "". */
void gdr_find_rdma(const struct fsroot *root, const char *addr, char *out,
		   size_t len);

/*
 * gdr_net_interfaces() - the network interfaces with a device, with
 * driver and device: "eth0 (virtio_net on virtio3), ens5 (mlx5_core on
 * PCI 0000:17:00.0)", or "".
 */
void gdr_net_interfaces(const struct fsroot *root, char *buf, size_t len);

/* gdr_any_rdma_device() - whether /sys/class/infiniband has any device. */
bool gdr_any_rdma_device(const struct fsroot *root);

/* gdr_net_class_exists() - whether the root has /sys/class/net at all. */
bool gdr_net_class_exists(const struct fsroot *root);

/* gd_device_present() - whether PCI function @addr is in the root's sysfs. */
bool gd_device_present(const struct fsroot *root, const char *addr);

/*
 * gds_iommu_translated() - whether DMA through @f's IOMMU group is
 * translated, its mode said in @buf.
 */
bool gds_iommu_translated(const struct fsroot *root,
			  const struct p2pd_function *f, char *buf, size_t len);

/* gds_find_vmd_nvme() - the NVMe controllers behind a VMD domain into @g. */
void gds_find_vmd_nvme(const struct fsroot *root, struct gpudirect *g);

#endif /* P2PDIAG_SYSTEM_GPUDIRECT_ROUTES_H */
