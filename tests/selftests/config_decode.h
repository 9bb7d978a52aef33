/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An independent view of one PCI function: its config space decoded here
 * (PCIe capability, ACS, ATS, Page Request and PASID extended
 * capabilities, link registers,
 * IDs, header type) plus what the PCI core itself shows in sysfs (its
 * place in /sys/devices, NUMA node, IOMMU group, a VF's physfn link).  Shares
 * no code with the module: only the ABI's file names and words.
 */
#ifndef P2PDIAG_SELFTEST_CONFIG_DECODE_H
#define P2PDIAG_SELFTEST_CONFIG_DECODE_H

#include "sysfs_paths.h"

enum st_field {
	ST_ROLE, ST_PARENT, ST_HOST_BRIDGE, ST_NUMA_NODE, ST_VENDOR, ST_DEVICE,
	ST_CLASS, ST_ACS_CAP, ST_ACS_CTRL, ST_ACS, ST_ATS, ST_PRI, ST_PASID,
	ST_LINK_SPEED,
	ST_LINK_WIDTH, ST_LINK_MAX_SPEED, ST_LINK_MAX_WIDTH, ST_IOMMU_GROUP,
	ST_IOMMU_DOMAIN, ST_P2P_ENDPOINT, ST_PHYSFN,
	ST_NR_FIELDS
};

#define ST_VALUE_LEN	128

struct st_function {
	char addr[ST_ADDR_LEN];
	char value[ST_NR_FIELDS][ST_VALUE_LEN];
	unsigned int acs_pos;		/* offset of the ACS capability, 0: none */
};

/* The ABI's name of @field: file name and topology key. */
const char *st_field_name(enum st_field field);

/*
 * Decode function @addr.  Returns 0, or -1 with a reason in @why when its
 * config file cannot be read.
 */
int st_decode_function(const char *addr, struct st_function *out,
		       char *why, size_t why_size);

#endif /* P2PDIAG_SELFTEST_CONFIG_DECODE_H */
