// SPDX-License-Identifier: GPL-2.0
/*
 * libpci -> struct p2pd_model.
 *
 * Reads the same registers the module reads through the kernel's helpers:
 * the PCIe capability (port type, Link Capabilities and Status), and the
 * ACS, ATS, PRI and PASID extended capabilities.  A register that reads as
 * all ones (removed device, config space cut short) is "unknown", never
 * decoded: an all-ones ACS control would otherwise look like every
 * redirect bit set.
 *
 * libpci reports fatal errors through a callback that must not return;
 * we turn them into an error return with setjmp/longjmp, so a broken dump
 * file is a clear message and exit status 3, not exit(1) from the library.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pci/pci.h>

#include "topology/source_pci.h"
#include "platform/fsroot.h"
#include "topology/pci_dump_vetting.h"
#include "topology/iommu_type.h"
#include "topology/pciaddr.h"
#include "topology/topology_parse.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/verdict.h"

#define CFG_STD_END		0x40	/* unprivileged readers see only this */
#define CFG_EXT_START		0x100
#define MAX_CHAIN		256	/* parent walk bound: a bad dump can loop */

/* Fields of registers not spelled out in every libpci header. */
#define ACS_CAP_REG		P2PD_ACS_CAP_OFFSET
#define ACS_CTRL_REG		P2PD_ACS_CTRL_OFFSET

#define PCI_DEVICES_DIR		"/sys/bus/pci/devices"
#define PCI_SYSFS_DIR		"/sys/bus/pci"

/*
 * libpci 3.6 and newer know a function's IOMMU group (Debian 12 ships 3.9,
 * PCI_LIB_VERSION 0x030900); without it there is no IOMMU fact.  The
 * parent is not asked of libpci: 3.9's PCI_FILL_PARENT leaks the paths it
 * resolves, and sysfs answers the same question directly.
 */
#ifdef PCI_FILL_IOMMU_GROUP
#define FILL_IOMMU_GROUP	PCI_FILL_IOMMU_GROUP
#else
#define FILL_IOMMU_GROUP	0
#endif

static jmp_buf pci_fatal;
static char pci_fatal_msg[256];

/* libpci's format, checked as printf's (clang 19 asks before vsnprintf) */
static void __attribute__((noreturn, format(printf, 1, 2)))
on_pci_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_fatal_msg, sizeof(pci_fatal_msg), msg, ap);
	va_end(ap);
	longjmp(pci_fatal, 1);
}

/* libpci warns about odd dump lines and unreadable ids: not our findings. */
static void on_pci_quiet(char *msg, ...)
{
	(void)msg;
}

static int readable(struct pci_dev *d, int pos, unsigned int len)
{
	u8 buf[4];

	return len <= sizeof(buf) && pci_read_block(d, pos, buf, (int)len);
}

static void read_link(struct pci_dev *d, unsigned int exp,
		      struct p2pd_function *f)
{
	u32 cap;
	u16 sta;

	if (!p2pd_role_has_link(1, f->role)) {
		f->link.state = P2PD_ABSENT;
		return;
	}
	cap = pci_read_long(d, (int)exp + PCI_EXP_LNKCAP);
	sta = pci_read_word(d, (int)exp + PCI_EXP_LNKSTA);
	if (cap == 0xffffffffu || sta == 0xffff) {
		f->link.state = P2PD_UNKNOWN;
		return;
	}
	p2pd_decode_link(&f->link, sta, cap);
}

/* Word @reg of extended capability @id: 0, or -1 when absent. */
static int ext_cap_word(struct pci_dev *d, unsigned int id, unsigned int reg,
			u16 *w)
{
	struct pci_cap *c = pci_find_cap(d, (int)id, PCI_CAP_EXTENDED);

	if (!c)
		return -1;
	*w = pci_read_word(d, (int)(c->addr + reg));
	return 0;
}

/* ATS, PRI and PASID, decoded by the engine; all ones is unknown. */
static void read_translation_caps(struct pci_dev *d, struct p2pd_function *f)
{
	u16 w, cap = 0xffff;

	if (!ext_cap_word(d, PCI_EXT_CAP_ID_ATS, P2PD_ATS_CTRL_REG, &w)) {
		if (w == 0xffff)
			f->ats = P2PD_UNKNOWN;
		else
			p2pd_decode_ats(f, w, w);
	}
	if (!ext_cap_word(d, PCI_EXT_CAP_ID_PRI, P2PD_PRI_CTRL_REG, &w)) {
		if (w == 0xffff)
			f->pri = P2PD_UNKNOWN;
		else
			p2pd_decode_pri(f, w);
	}
	if (!ext_cap_word(d, PCI_EXT_CAP_ID_PASID, P2PD_PASID_CTRL_REG, &w)) {
		ext_cap_word(d, PCI_EXT_CAP_ID_PASID, P2PD_PASID_CAP_REG, &cap);
		if (w == 0xffff || cap == 0xffff)
			f->pasid = P2PD_UNKNOWN;
		else
			p2pd_decode_pasid(f, cap, w);
	}
}

/* ACS, ATS, PRI, PASID: absent, present, or unknown when unreadable. */
static void read_ext_caps(struct pci_dev *d, struct p2pd_function *f)
{
	struct pci_cap *c;
	u16 v, w;

	if (!readable(d, CFG_EXT_START, 4) ||
	    pci_read_long(d, CFG_EXT_START) == 0xffffffffu) {
		f->acs = f->ats = f->pri = f->pasid = P2PD_UNKNOWN;
		return;
	}
	c = pci_find_cap(d, PCI_EXT_CAP_ID_ACS, PCI_CAP_EXTENDED);
	if (c) {
		v = pci_read_word(d, (int)c->addr + ACS_CAP_REG);
		w = pci_read_word(d, (int)c->addr + ACS_CTRL_REG);
		if (v == 0xffff || w == 0xffff) {
			f->acs = P2PD_UNKNOWN;
		} else {
			f->acs = P2PD_PRESENT;
			f->acs_cap = v;
			f->acs_ctrl = w;
		}
	}
	read_translation_caps(d, f);
}

/*
 * @d's address, its domain whole: libpci's domain is an int, which lspci
 * prints with at least four hex digits ("10000:e1:00.0" behind Intel VMD).
 */
static unsigned long long dev_addr(const struct pci_dev *d)
{
	return P2PD_ADDR((unsigned int)d->domain, d->bus, d->dev, d->func);
}

/*
 * A live SR-IOV virtual function's physical function, from its physfn
 * link in sysfs; NULL for any other function (and in a dump, which cannot
 * tell).
 */
static struct pci_dev *physfn_of(struct pci_access *pacc, struct pci_dev *d,
				 const struct fsroot *sys)
{
	unsigned long long addr = dev_addr(d), pf;
	char a[P2PD_ADDR_STRLEN], name[64];
	struct pci_dev *q;

	if (!sys ||
	    fsroot_link_name(sys, name, sizeof(name), PCI_DEVICES_DIR "/%s/physfn",
			     pciaddr_format(a, addr)) ||
	    pciaddr_parse(name, &pf))
		return NULL;
	for (q = pacc->devices; q; q = q->next)
		if (dev_addr(q) == pf)
			return q;
	return NULL;
}

/*
 * What a VF shares with its PF, as the kernel reads it: the ATS Smallest
 * Translation Unit (reserved in a VF) and the PRI and PASID interfaces,
 * which the PF's capabilities configure.
 */
static void take_from_physfn(struct pci_dev *pf, struct p2pd_function *f)
{
	struct p2pd_function pff;
	unsigned int ats = f->ats, enabled = f->ats_enabled;

	memset(&pff, 0, sizeof(pff));
	pff.acs = pff.ats = pff.pri = pff.pasid = P2PD_ABSENT;
	read_ext_caps(pf, &pff);
	if (ats == P2PD_PRESENT) {
		if (pff.ats == P2PD_PRESENT)
			f->ats_stu = pff.ats_stu;
		else if (pff.ats == P2PD_UNKNOWN)
			f->ats = P2PD_UNKNOWN;
		f->ats_enabled = (int)enabled;
	}
	f->pri = pff.pri;
	f->pri_enabled = pff.pri_enabled;
	f->pasid = pff.pasid;
	f->pasid_enabled = pff.pasid_enabled;
	f->pasid_width = pff.pasid_width;
}

/*
 * One function; returns 0 when config space beyond the header was
 * readable.  A VF reads 0xffff as Vendor and Device ID by specification
 * (SR-IOV 1.1, 3.4.1.1): it is present when its PF answers, as in the
 * kernel's pci_device_is_present(); its IDs are the ones libpci has from
 * sysfs.
 */
static int fill_function(struct pci_access *pacc, struct pci_dev *d,
			 const struct fsroot *sys, struct p2pd_function *f)
{
	struct pci_dev *pf = physfn_of(pacc, d, sys);
	unsigned int filled, flags;
	struct pci_cap *exp;
	char *group;
	u8 hdr;

	memset(f, 0, sizeof(*f));
	flags = PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CAPS |
		PCI_FILL_EXT_CAPS | PCI_FILL_NUMA_NODE | FILL_IOMMU_GROUP;
	filled = (unsigned int)pci_fill_info(d, (int)flags);

	f->addr = dev_addr(d);
	f->numa_node = (filled & PCI_FILL_NUMA_NODE) ? d->numa_node : -1;
	f->iommu_group = -1;
	f->iommu_domain = P2PD_IOMMU_NONE;
	f->acs = f->ats = f->pri = f->pasid = P2PD_ABSENT;
	f->link.state = P2PD_ABSENT;
	f->vendor = d->vendor_id;
	f->device = d->device_id;
	f->class_code = ((unsigned int)d->device_class << 8) |
			pci_read_byte(d, PCI_CLASS_PROG);
	hdr = pci_read_byte(d, PCI_HEADER_TYPE);
	f->role = p2pd_decode_role(0, 0, hdr);

#ifdef PCI_FILL_IOMMU_GROUP
	if (sys && (filled & PCI_FILL_IOMMU_GROUP)) {
		group = pci_get_string_property(d, PCI_FILL_IOMMU_GROUP);
		if (group && *group) {
			char *end;
			long g = strtol(group, &end, 10);

			/* its type is read after the walk */
			if (!*end && g >= 0 && g <= INT_MAX) {
				f->iommu_group = (int)g;
				f->iommu_domain = P2PD_IOMMU_UNKNOWN;
			}
		}
	}
#else
	(void)sys;
#endif

	if (pci_read_word(pf ? pf : d, PCI_VENDOR_ID) == 0xffff ||
	    !readable(d, CFG_STD_END, 4)) {
		/* Gone, or only the header is readable: nothing decoded. */
		f->acs = f->ats = f->pri = f->pasid = P2PD_UNKNOWN;
		f->p2p_endpoint = p2pd_is_p2p_endpoint(f->role, f->class_code, 0);
		return -1;
	}

	exp = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	if (exp) {
		u16 flags16 = pci_read_word(d, (int)exp->addr + PCI_EXP_FLAGS);

		f->role = p2pd_decode_role(1, (flags16 & PCI_EXP_FLAGS_TYPE) >> 4,
					   hdr);
		read_link(d, exp->addr, f);
		read_ext_caps(d, f);
		if (pf)
			take_from_physfn(pf, f);
	}
	if (pf) {
		f->has_physfn = 1;
		f->physfn = dev_addr(pf);
	}
	f->p2p_endpoint = p2pd_is_p2p_endpoint(f->role, f->class_code, 0);
	return 0;
}

static int cmp_fn(const void *x, const void *y)
{
	const struct p2pd_function *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * The kernel's parent of a live function: the directory above it in
 * /sys/devices, a bridge ("0000:00:01.1") or a host bridge ("pci0000:00").
 * Return: 1 with *@parent set, 0 on a root bus, -1 when sysfs cannot say.
 */
static int sysfs_parent(const struct fsroot *sys, unsigned long long addr,
			unsigned long long *parent)
{
	char real[PATH_MAX], a[P2PD_ADDR_STRLEN], *slash;

	if (fsroot_realpath(sys, real, sizeof(real), PCI_DEVICES_DIR "/%s",
			    pciaddr_format(a, addr)))
		return -1;
	slash = strrchr(real, '/');
	if (!slash || slash == real)
		return -1;
	*slash = '\0';
	slash = strrchr(real, '/');
	if (!slash)
		return -1;
	return pciaddr_parse(slash + 1, parent) ? 0 : 1;
}

/*
 * The bridge whose secondary bus is @d's bus: the kernel's bus->self.  A
 * CardBus bridge (header type 2) has its CardBus bus number where a PCI
 * bridge has its secondary bus number.
 */
static struct pci_dev *bridge_above(struct pci_access *pacc, struct pci_dev *d)
{
	struct pci_dev *q;

	for (q = pacc->devices; q; q = q->next) {
		unsigned int layout;

		if (q == d || q->domain != d->domain || q->bus == d->bus)
			continue;
		layout = pci_read_byte(q, PCI_HEADER_TYPE) & 0x7f;
		if (layout != PCI_HEADER_TYPE_BRIDGE &&
		    layout != PCI_HEADER_TYPE_CARDBUS)
			continue;
		if (pci_read_byte(q, PCI_SECONDARY_BUS) == d->bus)
			return q;
	}
	return NULL;
}

/*
 * Parents: from sysfs on a live machine; from the bridges' secondary bus
 * numbers in a dump (or where sysfs cannot say).  A parent that is not on
 * a lower bus (a dump whose bus numbers contradict each other, or a sysfs
 * tree that is not the kernel's) is an error: no tree can be drawn.
 */
static int link_parents(struct pci_access *pacc, struct p2pd_model *m,
			const struct fsroot *sys, char *err, size_t errlen)
{
	char a[P2PD_ADDR_STRLEN], pa[P2PD_ADDR_STRLEN];
	struct pci_dev *d;

	for (d = pacc->devices; d; d = d->next) {
		unsigned long long addr = dev_addr(d);
		int idx = p2pd_model_find(m, addr), known = -1;
		struct p2pd_function *f;
		struct pci_dev *p;

		if (idx == P2PD_NO_INDEX)
			continue;
		f = &m->fn[idx];
		if (sys)
			known = sysfs_parent(sys, addr, &f->parent);
		if (known >= 0) {
			f->has_parent = known;
			if (!known)
				f->parent = 0;
		} else {
			p = bridge_above(pacc, d);
			if (p) {
				f->has_parent = 1;
				f->parent = dev_addr(p);
			}
		}
		if (f->has_parent && !p2pd_parent_plausible(addr, f->parent)) {
			snprintf(err, errlen,
				 "%s sits below bridge %s, which is not on a lower bus: the %s's bus numbers contradict each other",
				 pciaddr_format(a, addr), pciaddr_format(pa, f->parent),
				 sys ? "PCI sysfs tree" : "dump");
			return -1;
		}
	}
	return 0;
}

void pci_model_host_bridges(struct p2pd_model *m)
{
	unsigned int i, steps;

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *top = &m->fn[i];

		for (steps = 0; top->has_parent && steps < MAX_CHAIN; steps++) {
			int up = p2pd_model_find(m, top->parent);

			if (up == P2PD_NO_INDEX)
				break;
			top = &m->fn[up];
		}
		if (top->has_parent) {
			/* Parent outside the snapshot: its bus is the best we know. */
			m->fn[i].host_bridge = P2PD_HOST_BRIDGE(
				P2PD_ADDR_DOMAIN(top->parent),
				P2PD_ADDR_BUS(top->parent));
		} else {
			m->fn[i].host_bridge = P2PD_HOST_BRIDGE(
				P2PD_ADDR_DOMAIN(top->addr),
				P2PD_ADDR_BUS(top->addr));
		}
	}
}

/*
 * The head of each root bus's device list, which the kernel's host-bridge
 * test looks at.  The kernel appends each device to its bus's list as the
 * scan finds it (pci_device_add()), and a boot-time scan goes up devfn by
 * devfn: the lowest address on the root bus heads it.  Only a device added
 * later (hotplug, a rescan after removal) goes to the tail, out of address
 * order; sysfs does not show the list, so that case is the module's to see.
 */
static void mark_root_bus_heads(struct p2pd_model *m)
{
	unsigned long long last = 0;
	unsigned int i;
	int seen = 0;

	/* fn[] is in address order, so each root bus's functions are adjacent */
	for (i = 0; i < m->nr_fn; i++) {
		struct p2pd_function *f = &m->fn[i];

		f->root_bus_first = !f->has_parent &&
				    (!seen || f->host_bridge != last);
		if (!f->has_parent) {
			seen = 1;
			last = f->host_bridge;
		}
	}
}

/*
 * libpci's sysfs back-end opens the files of a root's PCI tree by name,
 * following every link: it may walk the tree only where each of them
 * leads where it leads beneath the root (fsroot_stays_inside()).  The
 * tree's directory, each device's, and each file in one are looked at.
 */
static int pci_tree_stays_inside(const struct fsroot *sys, char *err,
				 size_t errlen)
{
	char bad[PATH_MAX] = "";
	struct dirent *de, *fe;
	int why = 0;
	DIR *d, *dev;

	if (fsroot_stays_inside(sys, PCI_DEVICES_DIR)) {
		why = errno;
		snprintf(bad, sizeof(bad), "%s", PCI_DEVICES_DIR);
		goto refuse;
	}
	d = fsroot_opendir(sys, PCI_DEVICES_DIR);
	if (!d)
		return 0;	/* libpci says what it misses */
	while (!bad[0] && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (fsroot_stays_inside(sys, PCI_DEVICES_DIR "/%s", de->d_name)) {
			why = errno;
			snprintf(bad, sizeof(bad), PCI_DEVICES_DIR "/%s", de->d_name);
			break;
		}
		dev = fsroot_opendir(sys, PCI_DEVICES_DIR "/%s", de->d_name);
		while (dev && (fe = readdir(dev)))
			if (strcmp(fe->d_name, ".") && strcmp(fe->d_name, "..") &&
			    fsroot_stays_inside(sys, PCI_DEVICES_DIR "/%s/%s",
						de->d_name, fe->d_name)) {
				why = errno;
				snprintf(bad, sizeof(bad), PCI_DEVICES_DIR "/%.64s/%.200s",
					 de->d_name, fe->d_name);
				break;
			}
		if (dev)
			closedir(dev);
	}
	closedir(d);
	if (!bad[0])
		return 0;
refuse:
	if (snprintf(err, errlen,
		     "cannot walk the PCI tree under %s with libpci: %s%s %s; libpci follows links, so it is not read",
		     fsroot_get(sys), fsroot_get(sys), bad,
		     why == EXDEV ? "leads out of the root through a symbolic link" :
		     strerror(why)) >= (int)errlen && errlen >= 4)
		memcpy(err + errlen - 4, "...", 4);
	return -1;
}

/*
 * Everything that may end in a libpci error: run under read_source()'s
 * setjmp.  @sys: the machine's system files to walk, or NULL for a dump,
 * which @dump_file names in messages and libpci reads as @dump_copy.
 */
static int walk(struct pci_access *pacc, const struct fsroot *sys,
		const char *dump_file, const char *dump_copy,
		unsigned int dump_fns, struct p2pd_model *m, char *err,
		size_t errlen)
{
	unsigned int n = 0, readable_fns = 0, i = 0;
	struct pci_dev *d;

	if (dump_file) {
		pacc->method = PCI_ACCESS_DUMP;
		if (pci_set_param(pacc, "dump.name", (char *)dump_copy)) {
			snprintf(err, errlen, "libpci has no dump back-end");
			return -1;
		}
	} else if (!fsroot_is_live(sys)) {
		/* another root: libpci's sysfs back-end reads it, no other */
		char path[PATH_MAX];

		pacc->method = PCI_ACCESS_SYS_BUS_PCI;
		if (pci_tree_stays_inside(sys, err, errlen))
			return -1;
		if (fsroot_path(sys, path, sizeof(path), PCI_SYSFS_DIR) ||
		    pci_set_param(pacc, "sysfs.path", path)) {
			snprintf(err, errlen, "libpci cannot read %s%s",
				 fsroot_get(sys), PCI_SYSFS_DIR);
			return -1;
		}
	}
	pci_init(pacc);
	pci_scan_bus(pacc);

	for (d = pacc->devices; d; d = d->next)
		n++;
	/*
	 * libpci 3.9's dump reader skips, without a word, a function whose
	 * domain is not four or five hex digits: never judge a dump with
	 * functions left out.
	 */
	if (dump_file && n != dump_fns) {
		snprintf(err, errlen,
			 "libpci read %u of the %u PCI functions in %s (its dump reader takes domains of four or five hex digits only)",
			 n, dump_fns, dump_file);
		return -1;
	}
	if (!n) {
		if (dump_file)
			snprintf(err, errlen,
				 "%s holds no PCI functions (expected `lspci -xxxx` output)",
				 dump_file);
		else
			snprintf(err, errlen, "libpci found no PCI functions");
		return -1;
	}
	/* in the model at once, so a libpci error mid-walk frees it */
	m->fn = calloc(n, sizeof(*m->fn));
	if (!m->fn) {
		snprintf(err, errlen, "out of memory for %u functions", n);
		return -1;
	}
	for (d = pacc->devices; d; d = d->next)
		if (!fill_function(pacc, d, sys, &m->fn[i++]))
			readable_fns++;
	if (!readable_fns) {
		if (dump_file)
			snprintf(err, errlen,
				 "%s holds only the first 64 bytes of config space: capture it with `lspci -xxxx` as root",
				 dump_file);
		else
			snprintf(err, errlen,
				 "PCI config space past the first 64 bytes is readable by root only: run as root, or load the p2pdiag module");
		return -1;
	}
	qsort(m->fn, n, sizeof(*m->fn), cmp_fn);
	m->nr_fn = n;
	for (i = 1; i < n; i++) {
		char a[P2PD_ADDR_STRLEN];

		if (m->fn[i].addr != m->fn[i - 1].addr)
			continue;
		snprintf(err, errlen, "%s lists PCI function %s twice",
			 dump_file ? dump_file : "libpci",
			 pciaddr_format(a, m->fn[i].addr));
		return -1;
	}
	if (link_parents(pacc, m, sys, err, errlen))
		return -1;
	pci_model_host_bridges(m);
	mark_root_bus_heads(m);
	/* a dump names no IOMMU group (fill_function()) */
	return sys ? iommu_fill_group_types(sys, m, err, errlen) : 0;
}

/* The walk under a setjmp that turns libpci's fatal errors into -1. */
static int read_with_libpci(const struct fsroot *sys, const char *dump_file,
			    const char *dump_copy, unsigned int dump_fns,
			    struct p2pd_model *m, char *err, size_t errlen)
{
	struct pci_access *volatile pacc = NULL;
	volatile int rc = -1;

	if (setjmp(pci_fatal)) {
		snprintf(err, errlen, "libpci: %s", pci_fatal_msg);
		goto out;
	}
	pacc = pci_alloc();
	pacc->error = on_pci_error;
	pacc->warning = on_pci_quiet;
	pacc->debug = on_pci_quiet;
	pacc->numeric_ids = 1;
	rc = walk(pacc, sys, dump_file, dump_copy, dump_fns, m, err, errlen);
out:
	if (pacc && !setjmp(pci_fatal))
		pci_cleanup(pacc);
	return rc;
}

/* pci_source_read() (@sys NULL) or pci_source_walk() (@dump_file NULL) */
static int read_source(const struct fsroot *sys, const char *dump_file,
		       struct p2pd_model *m, char *err, size_t errlen)
{
	unsigned int cpu = m->cpu_flags, release = m->kernel_release;
	unsigned int dump_fns = 0;
	char copy[64] = "";
	int fd = -1, rc;

	memset(m, 0, sizeof(*m));
	m->cpu_flags = cpu;
	m->kernel_release = release;
	if (dump_file) {
		fd = dump_checked_copy(dump_file, &dump_fns, err, errlen);
		if (fd < 0)
			return -1;
		snprintf(copy, sizeof(copy), "/proc/self/fd/%d", fd);
	}
	rc = read_with_libpci(sys, dump_file, copy, dump_fns, m, err, errlen);
	if (fd >= 0)
		close(fd);
	if (rc) {
		p2pd_model_free(m);
		m->cpu_flags = cpu;
		m->kernel_release = release;
	}
	return rc;
}

int pci_source_read(const char *dump_file, struct p2pd_model *m,
		    char *err, size_t errlen)
{
	if (!dump_file) {
		snprintf(err, errlen, "no dump file to read");
		return -1;
	}
	return read_source(NULL, dump_file, m, err, errlen);
}

int pci_source_walk(const struct fsroot *root, struct p2pd_model *m,
		    char *err, size_t errlen)
{
	return read_source(root, NULL, m, err, errlen);
}

/*
 * Whether the key of cpuinfo line @line (the text before @colon, less its
 * blanks) names the CPU's kind, on any architecture.
 */
static bool names_cpu(const char *line, const char *colon)
{
	static const char *const keys[] = {
		"vendor_id", "CPU implementer", "cpu", "isa",
	};
	size_t i, n = (size_t)(colon - line);

	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i]) == n && !strncmp(line, keys[i], n))
			return true;
	return false;
}

int cpu_flags_from_stream(FILE *fp, unsigned int *flags)
{
	char line[512];
	int family = -1, amd = 0, hygon = 0;
	unsigned int lines = 0;
	bool named = false;

	*flags = 0;
	errno = 0;
	/* The first processor's block is enough: sockets match. */
	while (fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':'), *v;

		if (++lines > CPUINFO_FIRST_BLOCK_LINES)
			break;
		if (line[0] == '\n' && named)
			break;
		if (!colon)
			continue;
		named = named || names_cpu(line, colon);
		for (v = colon + 1; isspace((unsigned char)*v); v++)
			;
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "vendor_id", 9)) {
			amd = !strcmp(v, "AuthenticAMD");
			hygon = !strcmp(v, "HygonGenuine");
		} else if (!strncmp(line, "cpu family", 10)) {
			family = atoi(v);
		}
	}
	/* a directory, or a read error: not the end of a file */
	if (ferror(fp)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	if (!named) {
		errno = ENODATA;
		return -1;
	}
	*flags = p2pd_cpu_flags(amd ? P2PD_CPU_VENDOR_AMD :
				hygon ? P2PD_CPU_VENDOR_HYGON :
				P2PD_CPU_VENDOR_OTHER,
				family < 0 ? 0 : (unsigned int)family);
	return 0;
}

const char *cpuinfo_strerror(int e)
{
	if (e == ENODATA)
		return "no vendor_id line (nor another architecture's CPU line) in its first processor's block: not a /proc/cpuinfo";
	return strerror(e);
}

int cpu_flags_from_cpuinfo(const char *path, unsigned int *flags)
{
	FILE *fp = fopen(path, "re");
	int rc, saved;

	*flags = 0;
	if (!fp)
		return -1;
	rc = cpu_flags_from_stream(fp, flags);
	saved = errno;
	fclose(fp);
	errno = saved;
	return rc;
}
