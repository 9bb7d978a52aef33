// SPDX-License-Identifier: GPL-2.0
/*
 * What GPUDirect RDMA's judge (judge/system_gpudirect_rdma.c) reads
 * under the root: a NIC's RDMA device, the network interfaces.
 *
 * A NIC reaches GPU memory through a peer-memory client that the
 * NVIDIA driver registers with MLNX_OFED's ib_core (nvidia-peermem, shown
 * as /sys/kernel/mm/memory_peers/nv_mem/version), or through dma-buf
 * (ibv_reg_dmabuf_mr: kernel 5.12 or newer with dma-buf support, and the
 * NVIDIA open kernel modules, the flavour that exports GPU memory as
 * dma-buf).  Either needs the NIC's RDMA device.  The peermem module can
 * load without registering (built against the inbox ib_core); NCCL then
 * prints "GPU Direct RDMA Disabled", so loaded and registered are two
 * checks.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/gpudirect.h"
#include "system/gpudirect_checks.h"
#include "system/gpudirect_routes.h"

/* The RDMA device of NIC @addr: its infiniband/ directory, else a class scan. */
void gdr_find_rdma(const struct fsroot *root, const char *addr, char *out,
		   size_t len)
{
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	d = fsroot_opendir(root, "/sys/bus/pci/devices/%s/infiniband", addr);
	if (d) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.') {
				gd_copy_text(out, len, e->d_name);
				break;
			}
		closedir(d);
		if (out[0])
			return;
	}
	d = fsroot_opendir(root, "/sys/class/infiniband");
	if (!d)
		return;
	while ((e = readdir(d))) {
		char dev[64];

		if (e->d_name[0] == '.' ||
		    fsroot_link_name(root, dev, sizeof(dev),
				     "/sys/class/infiniband/%s/device", e->d_name) ||
		    strcmp(dev, addr))
			continue;
		gd_copy_text(out, len, e->d_name);
		break;
	}
	closedir(d);
}

/* "eth0 (virtio_net, not PCI), ens5 (mlx5_core, 0000:17:00.0)" */
void gdr_net_interfaces(const struct fsroot *root, char *buf, size_t len)
{
	size_t used = 0;
	struct dirent *e;
	DIR *d = fsroot_opendir(root, "/sys/class/net");

	buf[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) && used < len) {
		char drv[64], dev[64];
		unsigned long long addr;
		bool pci;

		if (e->d_name[0] == '.' ||
		    fsroot_link_name(root, dev, sizeof(dev), "/sys/class/net/%s/device",
				     e->d_name))
			continue;	/* lo, bridges, tunnels: no device */
		if (fsroot_link_name(root, drv, sizeof(drv),
				     "/sys/class/net/%s/device/driver", e->d_name))
			strcpy(drv, "no driver");
		pci = !pciaddr_parse(dev, &addr);
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s on %s%s)",
					 used ? ", " : "", e->d_name, drv,
					 pci ? "PCI " : "", dev);
	}
	closedir(d);
}

/* Whether /sys/class/infiniband has any RDMA device. */
bool gdr_any_rdma_device(const struct fsroot *root)
{
	struct dirent *e;
	DIR *d = fsroot_opendir(root, "/sys/class/infiniband");
	bool found = false;

	if (!d)
		return false;
	while ((e = readdir(d)))
		found |= e->d_name[0] != '.';
	closedir(d);
	return found;
}

bool gdr_net_class_exists(const struct fsroot *root)
{
	return fsroot_exists(root, "/sys/class/net");
}

bool gd_device_present(const struct fsroot *root, const char *addr)
{
	return fsroot_exists(root, "/sys/bus/pci/devices/%s", addr);
}
