/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the machine is a virtual machine, and what that means for P2P:
 * the hypervisor (CPUID where live, DMI, /sys/hypervisor), the GPUs'
 * GPUDirect clique capability (the vendor-specific capability a
 * hypervisor adds so the NVIDIA driver allows P2P between passed-through
 * GPUs), the emulated bridges and the paravirtual devices.
 */
#ifndef P2PDIAG_SYSTEM_VIRT_H
#define P2PDIAG_SYSTEM_VIRT_H

#include <stdbool.h>
#include <stddef.h>

struct fsroot;
struct fsroot_refusal;

#define VIRT_TEXT 128

struct virt_facts {
	bool guest;
	char hypervisor[VIRT_TEXT];	/* "KVM (CPUID)", "QEMU (DMI)", or "" */
	char dmi_vendor[VIRT_TEXT], dmi_product[VIRT_TEXT];
	bool cpuid_flag;		/* "hypervisor" in /proc/cpuinfo's flags */
};

/*
 * virt_facts_read() - the facts under the root (CPUID only on the live
 * machine).
 * Return: 0, or -1 when the root's /proc/cpuinfo is there but is not a
 * regular file (bad input, fsroot_read_fact()): @err names it.
 */
int virt_facts_read(struct virt_facts *v, const struct fsroot *root,
		    struct fsroot_refusal *refused, char *err,
		    size_t errlen);

/*
 * virt_clique() - the GPUDirect clique id that the capability list of the
 * config space @cfg (@len bytes) carries, or -1 without one.
 */
int virt_clique(const unsigned char *cfg, unsigned int len);

/*
 * virt_gpu_clique() - the clique of GPU @addr from its config file under
 * @root, -1 without one, -2 when unreadable (past the first 64 bytes).
 */
int virt_gpu_clique(const struct fsroot *root, struct fsroot_refusal *refused,
		    unsigned long long addr);

#endif /* P2PDIAG_SYSTEM_VIRT_H */
