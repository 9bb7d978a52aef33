// SPDX-License-Identifier: GPL-2.0
/*
 * GPUDirect RDMA and Storage readiness.
 *
 * RDMA: a NIC reaches GPU memory through a peer-memory client that the
 * NVIDIA driver registers with MLNX_OFED's ib_core (nvidia-peermem, shown
 * as /sys/kernel/mm/memory_peers/nv_mem/version), or through dma-buf
 * (ibv_reg_dmabuf_mr: kernel 5.12 or newer with dma-buf support, and the
 * NVIDIA open kernel modules, the flavour that exports GPU memory as
 * dma-buf).  Either needs the NIC's RDMA device.  The peermem module can
 * load without registering (built against the inbox ib_core); NCCL then
 * prints "GPU Direct RDMA Disabled", so loaded and registered are two
 * checks.
 *
 * Storage: nvidia-fs, or the kernel's P2PDMA (kernel 6.2 or newer,
 * CONFIG_PCI_P2PDMA, p2pdma_pgmap_ops exported, the NVIDIA driver's
 * static BAR1 mapping, nvme_core multipath off); without either GDS runs
 * in compat mode through host memory while reporting success.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "judge/judge.h"
#include "topology/pciaddr.h"
#include "system/fsroot.h"
#include "system/gpudirect.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

#define NVIDIA_VENDOR	0x10de
#define PEER_MEM_DIR	"/sys/kernel/mm/memory_peers/nv_mem"

/* @src into @dst, cut to fit: names and report lines, never paths. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void read_flavour(struct gpudirect_facts *f)
{
	char text[512];

	if (!module_present("nvidia")) {
		f->flavour = NVIDIA_ABSENT;
		return;
	}
	if (module_value("nvidia", "version", f->nvidia_version,
			 sizeof(f->nvidia_version)))
		f->nvidia_version[0] = '\0';
	/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  ..." */
	if (fsroot_read(text, sizeof(text), "/proc/driver/nvidia/version"))
		f->flavour = NVIDIA_FLAVOUR_UNKNOWN;
	else if (strstr(text, "Open Kernel Module"))
		f->flavour = NVIDIA_OPEN;
	else
		f->flavour = NVIDIA_PROPRIETARY;
}

/* RMForceStaticBar1=1 among the driver's registry settings. */
static enum tri read_static_bar1(void)
{
	char line[1024];
	enum tri t = TRI_NO;
	FILE *p = fsroot_fopen("/proc/driver/nvidia/params");

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

static void read_nvfs(struct gpudirect_facts *f)
{
	char line[256];
	FILE *s;

	f->nvfs_loaded = module_present("nvidia_fs");
	if (!f->nvfs_loaded)
		return;
	if (module_value("nvidia_fs", "version", f->nvfs_version,
			 sizeof(f->nvfs_version)))
		f->nvfs_version[0] = '\0';
	s = fsroot_fopen("/proc/driver/nvidia-fs/stats");
	if (!s)
		return;
	while (fgets(line, sizeof(line), s)) {
		if (!strncmp(line, "NVFS Driver", 11)) {
			line[strcspn(line, "\n")] = '\0';
			copy_text(f->nvfs_driver, sizeof(f->nvfs_driver), line);
			break;
		}
	}
	fclose(s);
}

void gpudirect_facts_read(struct gpudirect_facts *f, const struct kernel_facts *k,
			  bool storage)
{
	char mp[16];
	enum tri rel;

	memset(f, 0, sizeof(*f));
	read_flavour(f);
	f->static_bar1 = f->flavour == NVIDIA_ABSENT ? TRI_NO : read_static_bar1();
	if (module_present("nvidia_peermem"))
		strcpy(f->peermem_module, "nvidia_peermem");
	else if (module_present("nv_peer_mem"))
		strcpy(f->peermem_module, "nv_peer_mem");
	if (fsroot_read(f->peermem_version, sizeof(f->peermem_version),
			PEER_MEM_DIR "/version"))
		f->peermem_version[0] = '\0';
	rel = kernel_at_least(k, 5, 12);
	f->dmabuf_kernel = rel == TRI_YES ? kernel_config(k, "DMA_SHARED_BUFFER") : rel;
	read_nvfs(f);
	f->p2pdma_release = kernel_at_least(k, 6, 2);
	f->p2pdma_config = kernel_config(k, "PCI_P2PDMA");
	/*
	 * /proc/kallsyms is read to its end (100,000 lines and more, tens of
	 * milliseconds): only where a GPU-NVMe pair can need the answer.
	 */
	f->p2pdma_ops = storage ? kernel_symbol("p2pdma_pgmap_ops") : TRI_UNKNOWN;
	if (!module_value("nvme_core", "parameters/multipath", mp, sizeof(mp)))
		f->multipath_off = mp[0] == 'N' || mp[0] == 'n' || mp[0] == '0' ?
				   TRI_YES : TRI_NO;
	else
		f->multipath_off = module_present("nvme_core") ? TRI_UNKNOWN :
				   TRI_YES;	/* no nvme_core: no multipath */
}

static struct gd_check *check(struct gd_pair *p, const char *route,
			      const char *name, enum tri ok, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static struct gd_check *check(struct gd_pair *p, const char *route,
			      const char *name, enum tri ok, const char *fmt, ...)
{
	struct gd_check *c;
	va_list ap;

	if (p->nr_check >= GD_MAX_CHECKS)
		return NULL;
	c = &p->check[p->nr_check++];
	c->name = name;
	c->route = route;
	c->ok = ok;
	va_start(ap, fmt);
	vsnprintf(c->evidence, sizeof(c->evidence), fmt, ap);
	va_end(ap);
	return c;
}

static const char *evidence_of(const struct gd_pair *p, const char *name)
{
	unsigned int c;

	for (c = 0; c < p->nr_check; c++)
		if (!strcmp(p->check[c].name, name))
			return p->check[c].evidence;
	return "";
}

/* The RDMA device of NIC @addr: its infiniband/ directory, else a class scan. */
static void find_rdma(const char *addr, char *out, size_t len)
{
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	d = fsroot_opendir("/sys/bus/pci/devices/%s/infiniband", addr);
	if (d) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.') {
				copy_text(out, len, e->d_name);
				break;
			}
		closedir(d);
		if (out[0])
			return;
	}
	d = fsroot_opendir("/sys/class/infiniband");
	if (!d)
		return;
	while ((e = readdir(d))) {
		char dev[64];

		if (e->d_name[0] == '.' ||
		    fsroot_link_name(dev, sizeof(dev), "/sys/class/infiniband/%s/device",
				     e->d_name) || strcmp(dev, addr))
			continue;
		copy_text(out, len, e->d_name);
		break;
	}
	closedir(d);
}

/* The GPU at model index @fn among the CUDA devices, or -1. */
static int cuda_index(const struct check_run *r, int fn)
{
	unsigned int i;

	for (i = 0; r->gpu && i < r->gpu->nr_dev; i++)
		if (r->gpu->dev[i].pci_addr == r->model->fn[fn].addr)
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
	const struct p2pd_model *m = r->model;
	const struct p2pd_pair *p = &r->pair[pair];
	int gpu = p2pd_is_nvidia_gpu(&m->fn[p->a]) ? p->a : p->b;
	int nic = gpu == p->a ? p->b : p->a;
	int host = gpu == p->a ? p->host_fn : p->host_fn_b;
	bool c2c = host != P2PD_NO_INDEX && m->fn[host].vendor == NVIDIA_VENDOR;
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
		unsigned long long remote = r->gpu->dev[cg].nvlink_remote[k];
		int rf = remote ? p2pd_model_find(m, remote) : P2PD_NO_INDEX;
		int rp = rf == P2PD_NO_INDEX ? -1 : run_pair_index(r, rf, nic);
		char ga[P2PD_ADDR_STRLEN];

		if (rp < 0 || r->pair[rp].cls > P2PD_CLASS_PXB)
			continue;
		snprintf(why, len,
			 "%s itself, but PXN through NVLink peer GPU %s (%s to the NIC)",
			 p2pd_class_name(p->cls), pciaddr_format(ga, remote),
			 p2pd_class_name(r->pair[rp].cls));
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

static void path_check(struct gd_pair *g, const struct p2pd_pair *p)
{
	check(g, NULL, "path", p->verdict == P2PD_VERDICT_BLOCKED ? TRI_NO : TRI_YES,
	      "%s, verdict %s%s", p2pd_class_name(p->cls),
	      p2pd_verdict_name(p->verdict),
	      p->verdict == P2PD_VERDICT_REDIRECTED ?
	      " (works, but every transfer turns at the root complex)" : "");
}

static void judge_nic(const struct check_run *r, const struct gpudirect_facts *f,
		      struct gd_pair *g, unsigned int pi)
{
	const struct p2pd_pair *p = &r->pair[pi];
	bool registered = f->peermem_version[0];
	bool dmabuf = f->flavour == NVIDIA_OPEN && f->dmabuf_kernel == TRI_YES;

	if (f->peermem_module[0])
		check(g, "peermem", "peermem-registered", registered ? TRI_YES : TRI_NO,
		      registered ? "%s loaded, " PEER_MEM_DIR "/version %s" :
		      "%s loaded, but no " PEER_MEM_DIR "/version%s: no peer-memory client registered",
		      f->peermem_module, f->peermem_version);
	else
		check(g, "peermem", "peermem-registered", TRI_NO,
		      "neither nvidia_peermem nor nv_peer_mem is loaded");
	check(g, "dma-buf", "open-kernel-modules",
	      f->flavour == NVIDIA_OPEN ? TRI_YES :
	      f->flavour == NVIDIA_FLAVOUR_UNKNOWN ? TRI_UNKNOWN : TRI_NO,
	      "NVIDIA driver %s%s%s", flavour_name(f->flavour),
	      f->nvidia_version[0] ? " " : "", f->nvidia_version);
	check(g, "dma-buf", "dmabuf-kernel", f->dmabuf_kernel,
	      "kernel 5.12+ with CONFIG_DMA_SHARED_BUFFER: %s", tri_name(f->dmabuf_kernel));
	check(g, NULL, "rdma-device", g->rdma[0] ? TRI_YES : TRI_NO,
	      g->rdma[0] ? "%s (driver %s)" : "none under /sys/class/infiniband%s (driver %s)",
	      g->rdma, g->driver[0] ? g->driver : "none");
	path_check(g, p);
	g->route = registered ? "peermem" : dmabuf ? "dma-buf" : "none";
	g->ready = strcmp(g->route, "none") && g->rdma[0] &&
		   p->verdict != P2PD_VERDICT_BLOCKED;
	g->nccl_gdr = gpudirect_nccl_gdr(r, pi, g->nccl_why, sizeof(g->nccl_why));
	check(g, NULL, "nccl-distance", g->nccl_gdr ? TRI_YES : TRI_NO, "%s", g->nccl_why);
	if (g->nccl_gdr && !g->ready) {
		char why[sizeof(g->nccl_why)];

		memcpy(why, g->nccl_why, sizeof(why));
		snprintf(g->nccl_why, sizeof(g->nccl_why),
			 "the distance allows it (%.100s), but the route is missing", why);
	}
	g->nccl_gdr = g->nccl_gdr && g->ready;
}

/*
 * The IOMMU mode of @f's group: from the group's type where the root has
 * it (DMA, DMA-FQ and unmanaged translate), else from the model.
 * Return: whether DMA through the group is translated.
 */
static bool iommu_translated(const struct p2pd_function *f, char *buf, size_t len)
{
	char type[32];

	if (f->iommu_group < 0) {
		snprintf(buf, len, "no IOMMU group");
		return false;
	}
	if (!fsroot_read(type, sizeof(type), "/sys/kernel/iommu_groups/%d/type",
			 f->iommu_group)) {
		snprintf(buf, len, "group %d type %s", f->iommu_group, type);
		return !strcmp(type, "DMA") || !strcmp(type, "DMA-FQ") ||
		       !strcmp(type, "unmanaged");
	}
	snprintf(buf, len, "group %d %s", f->iommu_group,
		 p2pd_iommu_domain_name(f->iommu_domain));
	return f->iommu_domain == P2PD_IOMMU_TRANSLATED;
}

static void judge_nvme(const struct check_run *r, const struct gpudirect_facts *f,
		       struct gd_pair *g, unsigned int pi)
{
	const struct p2pd_pair *p = &r->pair[pi];
	const struct p2pd_function *fg = &r->model->fn[p2pd_model_find(r->model, g->gpu)];
	const struct p2pd_function *fn = &r->model->fn[p2pd_model_find(r->model, g->peer)];
	char ig[64], in[64];
	bool p2pdma, tg = iommu_translated(fg, ig, sizeof(ig));
	bool tn = iommu_translated(fn, in, sizeof(in));

	check(g, "nvidia-fs", "nvidia-fs", f->nvfs_loaded ? TRI_YES : TRI_NO,
	      f->nvfs_loaded ? "nvidia_fs %s%s%s" : "no /sys/module/nvidia_fs%s%s%s",
	      f->nvfs_version, f->nvfs_driver[0] ? ", stats: " : "", f->nvfs_driver);
	snprintf(g->iommu, sizeof(g->iommu), "GPU %s, NVMe %s", ig, in);
	check(g, "nvidia-fs", "iommu", tg || tn ? TRI_NO : TRI_YES, "%s", g->iommu);
	check(g, "p2pdma", "kernel-6.2", f->p2pdma_release, "P2PDMA needs 6.2+: %s",
	      tri_name(f->p2pdma_release));
	check(g, "p2pdma", "config-pci-p2pdma", f->p2pdma_config, "CONFIG_PCI_P2PDMA: %s",
	      tri_name(f->p2pdma_config));
	check(g, "p2pdma", "p2pdma-pgmap-ops", f->p2pdma_ops, "p2pdma_pgmap_ops in /proc/kallsyms: %s",
	      tri_name(f->p2pdma_ops));
	check(g, "p2pdma", "static-bar1", f->static_bar1, "NVIDIA RMForceStaticBar1=1: %s",
	      f->flavour == NVIDIA_ABSENT ? "no nvidia module" : tri_name(f->static_bar1));
	check(g, "p2pdma", "nvme-multipath-off", f->multipath_off, "nvme_core multipath=N: %s",
	      tri_name(f->multipath_off));
	path_check(g, p);
	p2pdma = f->p2pdma_release == TRI_YES && f->p2pdma_config == TRI_YES &&
		 f->p2pdma_ops == TRI_YES && f->static_bar1 == TRI_YES &&
		 f->multipath_off == TRI_YES && p->verdict != P2PD_VERDICT_BLOCKED;
	g->route = f->nvfs_loaded ? "nvidia-fs" : p2pdma ? "p2pdma" : "compat";
	/* nvidia-fs wants the IOMMU off or in pass-through for both ends */
	g->ready = p2pdma || (f->nvfs_loaded && !tg && !tn &&
			      p->verdict != P2PD_VERDICT_BLOCKED);
	g->nccl_gdr = -1;
}

/* ats, pri and pasid of @f, exactly as their sysfs files read. */
static void read_translation(const struct p2pd_function *f,
			     struct gd_translation *t)
{
	p2pd_field_text(t->ats, sizeof(t->ats), f, P2PD_F_ATS);
	p2pd_field_text(t->pri, sizeof(t->pri), f, P2PD_F_PRI);
	p2pd_field_text(t->pasid, sizeof(t->pasid), f, P2PD_F_PASID);
}

static const char *addr_text(unsigned long long addr, char buf[P2PD_ADDR_STRLEN])
{
	return pciaddr_format(buf, addr);
}

/* NVMe controllers whose PCI path runs through a VMD domain (above 0xffff). */
static void find_vmd_nvme(struct gpudirect *g)
{
	struct dirent *e;
	DIR *d = fsroot_opendir("/sys/class/nvme");

	if (!d)
		return;
	while ((e = readdir(d)) && g->nr_vmd < GD_MAX_VMD) {
		char real[4096], *s, *prev = NULL, *last;
		struct gd_vmd_nvme *v;

		if (e->d_name[0] == '.' ||
		    fsroot_realpath(real, sizeof(real), "/sys/class/nvme/%s/device",
				    e->d_name))
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
		copy_text(v->name, sizeof(v->name), e->d_name);
		copy_text(v->vmd, sizeof(v->vmd), prev);
		if (fsroot_link_name(v->addr, sizeof(v->addr), "/sys/class/nvme/%s/device",
				     e->d_name))
			snprintf(v->addr, sizeof(v->addr), "?");
	}
	closedir(d);
}

static const char *gdr_fix(const struct gpudirect_facts *f)
{
	if (f->peermem_module[0] && !f->peermem_version[0])
		return "rebuild the NVIDIA kernel modules after MLNX_OFED is installed (reinstall the driver package or `dkms autoinstall`), then `modprobe -r nvidia_peermem && modprobe nvidia_peermem`; or drop peermem and use dma-buf (NVIDIA open kernel modules, kernel 5.12+)";
	return "`modprobe nvidia_peermem` (needs MLNX_OFED's ib_core), or install the NVIDIA open kernel modules flavour of the same driver version (nvidia-open / nvidia-driver-<version>-open, kernel 5.12+) so NCCL can use dma-buf";
}

/* "eth0 (virtio_net, not PCI), ens5 (mlx5_core, 0000:17:00.0)" */
static void net_interfaces(char *buf, size_t len)
{
	size_t used = 0;
	struct dirent *e;
	DIR *d = fsroot_opendir("/sys/class/net");

	buf[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) && used < len) {
		char drv[64], dev[64];
		unsigned long long addr;
		bool pci;

		if (e->d_name[0] == '.' ||
		    fsroot_link_name(dev, sizeof(dev), "/sys/class/net/%s/device", e->d_name))
			continue;	/* lo, bridges, tunnels: no device */
		if (fsroot_link_name(drv, sizeof(drv), "/sys/class/net/%s/device/driver",
				     e->d_name))
			strcpy(drv, "no driver");
		pci = !pciaddr_parse(dev, &addr);
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s on %s%s)",
					 used ? ", " : "", e->d_name, drv,
					 pci ? "PCI " : "", dev);
	}
	closedir(d);
}

static bool any_rdma_device(void)
{
	struct dirent *e;
	DIR *d = fsroot_opendir("/sys/class/infiniband");
	bool found = false;

	if (!d)
		return false;
	while ((e = readdir(d)))
		found |= e->d_name[0] != '.';
	closedir(d);
	return found;
}

static void nic_findings(struct check_run *r, const struct gpudirect *g)
{
	const struct gpudirect_facts *f = &g->facts;
	char ga[P2PD_ADDR_STRLEN], na[P2PD_ADDR_STRLEN];
	bool any_rdma = false, said_route = false;
	unsigned int i, j;

	bool any_gpu = false, no_rdma;
	char nets[512];

	for (i = 0; r->model && i < r->model->nr_fn; i++)
		any_gpu |= p2pd_is_nvidia_gpu(&r->model->fn[i]);
	for (i = 0; i < g->nr_pair; i++)
		any_rdma |= !g->pair[i].storage && g->pair[i].rdma[0];
	/* only where sysfs is there to say so: no /sys/class/net, no evidence */
	no_rdma = any_gpu && !any_rdma && !any_rdma_device() && fsroot_exists("/sys/class/net");
	if (no_rdma) {
		net_interfaces(nets, sizeof(nets));
		findings_add(&r->findings, SEV_INFO, "gdr-no-rdma-nic",
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "GPUDirect RDMA needs an RDMA NIC (InfiniBand or RoCE, e.g. ConnectX with mlx5_ib) passed to this machine",
			     "no RDMA device under /sys/class/infiniband: GPUDirect RDMA has no NIC to use; network interfaces: %s",
			     nets[0] ? nets : "none with a device");
	}
	if (f->peermem_module[0] && !f->peermem_version[0])
		findings_add(&r->findings, SEV_WARNING, "gdr-peermem-unregistered",
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
		    fsroot_exists("/sys/bus/pci/devices/%s", addr_text(p->peer, na)))
			findings_add(&r->findings, SEV_INFO, "gdr-no-rdma-device",
				     p->peer, FINDING_NO_ADDR,
				     "GPUDirect RDMA needs an RDMA NIC with its RDMA driver loaded (mlx5_ib for ConnectX, efa, ...)",
				     "NIC %s (driver %s) has no RDMA device under /sys/class/infiniband: GPUDirect RDMA cannot use it",
				     addr_text(p->peer, na), p->driver[0] ? p->driver : "none");
		if (p->rdma[0] && !strcmp(p->route, "none") && !said_route &&
		    !(f->peermem_module[0] && !f->peermem_version[0])) {
			said_route = true;
			findings_add(&r->findings, SEV_INFO, "gdr-no-route",
				     FINDING_NO_ADDR, FINDING_NO_ADDR, gdr_fix(f),
				     "no route for GPU memory to RDMA NICs: no nvidia-peermem, and dma-buf needs the NVIDIA open kernel modules (here: %s) on kernel 5.12+ with dma-buf (here: %s)",
				     flavour_name(f->flavour), tri_name(f->dmabuf_kernel));
		}
		if (p->ready && !p->nccl_gdr)
			findings_add(&r->findings, SEV_INFO, "gdr-nccl-distance",
				     p->gpu, p->peer,
				     "NCCL_NET_GDR_LEVEL=PHB lets NCCL use it across the host bridge (slower than under one switch); better, pair each GPU with a NIC under its own PCIe switch",
				     "NCCL will not use GPUDirect RDMA between GPU %s and NIC %s: %s",
				     addr_text(p->gpu, ga), addr_text(p->peer, na), p->nccl_why);
	}
}

/* The name (@names) or fix of each failed P2PDMA precondition, joined. */
static void p2pdma_fix(const struct gd_pair *p, bool names, char *buf, size_t len)
{
	static const struct { const char *name, *fix; } fixes[] = {
		{ "kernel-6.2", "a kernel 6.2 or newer" },
		{ "config-pci-p2pdma", "a kernel built with CONFIG_PCI_P2PDMA=y" },
		{ "p2pdma-pgmap-ops", "a kernel that exports p2pdma_pgmap_ops (6.2+ with CONFIG_PCI_P2PDMA)" },
		{ "static-bar1", "`options nvidia NVreg_RegistryDwords=\"RMForceStaticBar1=1\"` in /etc/modprobe.d, then rebuild the initramfs and reboot" },
		{ "nvme-multipath-off", "`nvme_core.multipath=N` on the kernel command line (or `options nvme_core multipath=N`)" },
	};
	size_t used = 0, i, c;

	buf[0] = '\0';
	for (i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++)
		for (c = 0; c < p->nr_check; c++)
			if (!strcmp(p->check[c].name, fixes[i].name) &&
			    p->check[c].ok != TRI_YES && used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
							 used ? "; " : "",
							 names ? fixes[i].name : fixes[i].fix);
}

static void nvme_findings(struct check_run *r, const struct gpudirect *g)
{
	const struct gpudirect_facts *f = &g->facts;
	char ga[P2PD_ADDR_STRLEN], na[P2PD_ADDR_STRLEN], fix[1024], lack[256];
	bool said_compat = false;
	unsigned int i;

	for (i = 0; i < g->nr_pair; i++) {
		const struct gd_pair *p = &g->pair[i];

		if (!p->storage)
			continue;
		if (!strcmp(p->route, "nvidia-fs") && !p->ready)
			findings_add(&r->findings, SEV_WARNING, "gds-iommu-translated",
				     p->gpu, p->peer,
				     "boot with iommu=pt (or the IOMMU off) so both groups get an identity domain",
				     "GPUDirect Storage through nvidia-fs between GPU %s and NVMe %s needs the IOMMU off or in pass-through, but %s",
				     addr_text(p->gpu, ga), addr_text(p->peer, na),
				     evidence_of(p, "iommu"));
		/* GDS is NVIDIA's: without the nvidia module there is nothing to say */
		if (!strcmp(p->route, "compat") && !said_compat &&
		    f->flavour != NVIDIA_ABSENT) {
			/* tried, if the static BAR1 setting is there */
			bool tried = f->static_bar1 == TRI_YES;

			said_compat = true;
			p2pdma_fix(p, false, fix, sizeof(fix));
			p2pdma_fix(p, true, lack, sizeof(lack));
			findings_add(&r->findings, tried ? SEV_WARNING : SEV_INFO,
				     "gds-compat-mode", p->gpu, p->peer,
				     fix[0] ? fix : NULL,
				     "GPUDirect Storage would run in compat mode (through host memory, while gdscheck still reports success): no nvidia-fs module, and the kernel P2PDMA route lacks %s",
				     lack[0] ? lack : "a path the kernel can map");
		}
	}
	for (i = 0; i < g->nr_vmd; i++)
		findings_add(&r->findings, SEV_INFO, "nvme-behind-vmd",
			     FINDING_NO_ADDR, FINDING_NO_ADDR,
			     "turn Intel VMD (Volume Management Device) off for these NVMe ports in the firmware setup, or move the drive to a slot outside VMD",
			     "NVMe %s (%s) sits behind the VMD controller %s: VMD remaps it into PCI domain %.*s, a root bus of its own where no GPU sits (its pairs are judged by both host bridges, as the kernel does); neither P2PDMA nor GPUDirect Storage reaches it",
			     g->vmd[i].name, g->vmd[i].addr, g->vmd[i].vmd,
			     (int)strcspn(g->vmd[i].addr, ":"), g->vmd[i].addr);
}

/*
 * Pair @i's NVIDIA GPU and its peer, when the peer is a NIC or an NVMe
 * drive (the pairs GPUDirect RDMA and Storage serve); else false.
 */
static bool gpudirect_ends(const struct check_run *r, unsigned int i,
			   const struct p2pd_function **gpu,
			   const struct p2pd_function **peer)
{
	const struct p2pd_model *m = r->model;
	const struct p2pd_pair *p = &r->pair[i];
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
	find_vmd_nvme(g);
	if (r->model && r->nr_pairs)
		nr_served = run_select(r, r->nr_pairs, is_gpudirect_pair, NULL,
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
		if (fsroot_link_name(gp->driver, sizeof(gp->driver),
				     "/sys/bus/pci/devices/%s/driver", pa))
			gp->driver[0] = '\0';
		if (gp->storage) {
			judge_nvme(r, &g->facts, gp, i);
		} else {
			find_rdma(pa, gp->rdma, sizeof(gp->rdma));
			judge_nic(r, &g->facts, gp, i);
		}
	}
	free(served);
	if (nr_served < 0 || (nr_served > 0 && !g->pair))
		r->findings.oom = true;
	nic_findings(r, g);
	nvme_findings(r, g);
}

void gpudirect_free(struct gpudirect *g)
{
	free(g->pair);
	g->pair = NULL;
	g->nr_pair = 0;
}
