// SPDX-License-Identifier: GPL-2.0
/*
 * GPUDirect readiness's facts: the machine's, read once, and a peer's
 * driver; judge/system_gpudirect.c judges the pairs GPUDirect serves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/gpudirect.h"
#include "system/gpudirect_checks.h"
#include "system/gpudirect_routes.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

static void read_flavour(struct gpudirect_facts *f, const struct fsroot *root,
			 struct fsroot_refusal *refused)
{
	char text[512];

	if (!module_present(root, "nvidia")) {
		f->flavour = NVIDIA_ABSENT;
		return;
	}
	if (module_value(root, refused, "nvidia", "version", f->nvidia_version,
			 sizeof(f->nvidia_version)))
		f->nvidia_version[0] = '\0';
	/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  ..." */
	if (fsroot_read(root, refused, text, sizeof(text),
			"/proc/driver/nvidia/version"))
		f->flavour = NVIDIA_FLAVOUR_UNKNOWN;
	else if (strstr(text, "Open Kernel Module"))
		f->flavour = NVIDIA_OPEN;
	else
		f->flavour = NVIDIA_PROPRIETARY;
}

/* RMForceStaticBar1=1 among the driver's registry settings. */
static enum tri read_static_bar1(const struct fsroot *root,
				 struct fsroot_refusal *refused)
{
	char line[1024];
	enum tri t = TRI_NO;
	FILE *p = fsroot_fopen(root, refused, "/proc/driver/nvidia/params");

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

static void read_nvfs(struct gpudirect_facts *f, const struct fsroot *root,
		      struct fsroot_refusal *refused)
{
	char line[256];
	FILE *s;

	f->nvfs_loaded = module_present(root, "nvidia_fs");
	if (!f->nvfs_loaded)
		return;
	if (module_value(root, refused, "nvidia_fs", "version", f->nvfs_version,
			 sizeof(f->nvfs_version)))
		f->nvfs_version[0] = '\0';
	s = fsroot_fopen(root, refused, "/proc/driver/nvidia-fs/stats");
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

void gpudirect_facts_read(struct gpudirect_facts *f,
			  const struct kernel_facts *k,
			  const struct fsroot *root,
			  struct fsroot_refusal *refused, bool storage)
{
	char mp[16];
	enum tri rel;

	memset(f, 0, sizeof(*f));
	read_flavour(f, root, refused);
	f->static_bar1 = f->flavour == NVIDIA_ABSENT ? TRI_NO :
			 read_static_bar1(root, refused);
	if (module_present(root, "nvidia_peermem"))
		strcpy(f->peermem_module, "nvidia_peermem");
	else if (module_present(root, "nv_peer_mem"))
		strcpy(f->peermem_module, "nv_peer_mem");
	if (fsroot_read(root, refused, f->peermem_version,
			sizeof(f->peermem_version),
			PEER_MEM_DIR "/version"))
		f->peermem_version[0] = '\0';
	rel = kernel_at_least(k, 5, 12);
	f->dmabuf_kernel = rel == TRI_YES ?
			   kernel_config(k, root, refused, "DMA_SHARED_BUFFER") :
			   rel;
	read_nvfs(f, root, refused);
	f->p2pdma_release = kernel_at_least(k, 6, 2);
	f->p2pdma_config = kernel_config(k, root, refused, "PCI_P2PDMA");
	/*
	 * /proc/kallsyms is read to its end (100,000 lines and more, tens of
	 * milliseconds): only where a GPU-NVMe pair can need the answer.
	 */
	f->p2pdma_ops = storage ?
			kernel_symbol(root, refused, "p2pdma_pgmap_ops") :
			TRI_UNKNOWN;
	if (!module_value(root, refused, "nvme_core", "parameters/multipath",
			  mp, sizeof(mp)))
		f->multipath_off = mp[0] == 'N' || mp[0] == 'n' || mp[0] == '0' ?
				   TRI_YES : TRI_NO;
	else
		f->multipath_off = module_present(root, "nvme_core") ? TRI_UNKNOWN :
				   TRI_YES;	/* no nvme_core: no multipath */
}

void gd_read_driver(const struct fsroot *root, const char *addr, char *out,
		    size_t len)
{
	if (fsroot_link_name(root, out, len, "/sys/bus/pci/devices/%s/driver", addr))
		out[0] = '\0';
}

void gpudirect_free(struct gpudirect *g)
{
	free(g->pair);
	g->pair = NULL;
	g->nr_pair = 0;
}
