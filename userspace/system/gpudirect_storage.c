// SPDX-License-Identifier: GPL-2.0
/*
 * What GPUDirect Storage's judge (judge/system_gpudirect_storage.c)
 * reads under the root: an IOMMU group's mode, the NVMe drives behind an
 * Intel VMD domain.
 *
 * The routes: nvidia-fs, or the kernel's P2PDMA (kernel 6.2 or newer,
 * CONFIG_PCI_P2PDMA, p2pdma_pgmap_ops exported, the NVIDIA driver's
 * static BAR1 mapping, nvme_core multipath off); without either GDS runs
 * in compat mode through host memory while reporting success.
 *
 * NVMe drives behind an Intel VMD domain are named too: neither route
 * reaches them.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "platform/fsroot.h"
#include "system/gpudirect.h"
#include "system/gpudirect_checks.h"
#include "system/gpudirect_routes.h"
#include "topology/iommu_type.h"
#include "p2pdiag/format.h"

/*
 * The IOMMU mode of @f's group: from the group's type where the root has
 * it, decided by the topology's reader (iommu_group_read_type()), else
 * from the model.  A type file that is not a regular file was already
 * bad input when the topology read it; one read here only is a type the
 * snapshot stated, which then stands.
 * Return: whether DMA through the group is translated.
 */
bool gds_iommu_translated(const struct fsroot *root,
			     const struct p2pd_function *f, char *buf, size_t len)
{
	enum p2pd_iommu_domain type;
	char word[32], refused[PATH_MAX + 64];

	if (f->iommu_group < 0) {
		snprintf(buf, len, "no IOMMU group");
		return false;
	}
	if (iommu_group_read_type(root, f->iommu_group, word, sizeof(word), &type,
				  refused, sizeof(refused)) == 1) {
		snprintf(buf, len, "group %d type %s", f->iommu_group, word);
		return type == P2PD_IOMMU_TRANSLATED;
	}
	snprintf(buf, len, "group %d %s", f->iommu_group,
		 p2pd_iommu_domain_name(f->iommu_domain));
	return f->iommu_domain == P2PD_IOMMU_TRANSLATED;
}

/* NVMe controllers whose PCI path runs through a VMD domain (above 0xffff). */
void gds_find_vmd_nvme(const struct fsroot *root, struct gpudirect *g)
{
	struct dirent *e;
	DIR *d = fsroot_opendir(root, "/sys/class/nvme");

	if (!d)
		return;
	while ((e = readdir(d)) && g->nr_vmd < GD_MAX_VMD) {
		char real[4096], *s, *prev = NULL, *last;
		struct gd_vmd_nvme *v;

		if (e->d_name[0] == '.' ||
		    fsroot_realpath(root, real, sizeof(real),
				    "/sys/class/nvme/%s/device", e->d_name))
			continue;
		for (s = strtok_r(real, "/", &last); s; s = strtok_r(NULL, "/", &last)) {
			unsigned int dom, bus;

			if (sscanf(s, "pci%x:%x", &dom, &bus) == 2 && dom > 0xffff)
				break;
			prev = s;
		}
		if (!s || !prev)
			continue;
		v = &g->vmd[g->nr_vmd++];
		gd_copy_text(v->name, sizeof(v->name), e->d_name);
		gd_copy_text(v->vmd, sizeof(v->vmd), prev);
		if (fsroot_link_name(root, v->addr, sizeof(v->addr),
				     "/sys/class/nvme/%s/device", e->d_name))
			snprintf(v->addr, sizeof(v->addr), "?");
	}
	closedir(d);
}
