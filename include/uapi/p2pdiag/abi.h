/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * p2pdiag sysfs ABI, version 2: names shared by the module, which writes
 * them, and p2pdiag-check, which reads them.  Documented for people in
 * include/uapi/p2pdiag/ABI.txt.  Plain C only: this header is compiled
 * into the kernel module and into userspace.
 */
#ifndef P2PDIAG_ABI_H
#define P2PDIAG_ABI_H

#define P2PD_ABI_VERSION	2
/*
 * The oldest version whose topology file this one reads: version 2
 * grouped the pairs file and gave every function its own pairs file; a
 * topology line of version 1 reads the same (a key it lacks: unknown).
 */
#define P2PD_ABI_TOPOLOGY_SINCE	1
#define P2PD_SYSFS_ROOT		"/sys/kernel/p2pdiag"
#define P2PD_KOBJ_NAME		"p2pdiag"

/* Files in the root directory. */
#define P2PD_FILE_ABI_VERSION	"abi_version"
#define P2PD_FILE_GENERATION	"generation"
#define P2PD_FILE_RESCAN	"rescan"
#define P2PD_FILE_TOPOLOGY	"topology"
#define P2PD_FILE_PAIRS		"pairs"
#define P2PD_DIR_DEVICES	"devices"

/*
 * Per-function files under devices/<dddd:bb:dd.f>/; the same names are the
 * keys of the topology file's key=value fields, in this order.
 */
#define P2PD_FIELD_ROLE			"role"
#define P2PD_FIELD_PARENT		"parent"
#define P2PD_FIELD_HOST_BRIDGE		"host_bridge"
#define P2PD_FIELD_NUMA_NODE		"numa_node"
#define P2PD_FIELD_VENDOR		"vendor"
#define P2PD_FIELD_DEVICE		"device"
#define P2PD_FIELD_CLASS		"class"
#define P2PD_FIELD_ACS_CAP		"acs_cap"
#define P2PD_FIELD_ACS_CTRL		"acs_ctrl"
#define P2PD_FIELD_ACS			"acs"
#define P2PD_FIELD_ATS			"ats"
#define P2PD_FIELD_PRI			"pri"
#define P2PD_FIELD_PASID		"pasid"
#define P2PD_FIELD_LINK_SPEED		"link_speed"
#define P2PD_FIELD_LINK_WIDTH		"link_width"
#define P2PD_FIELD_LINK_MAX_SPEED	"link_max_speed"
#define P2PD_FIELD_LINK_MAX_WIDTH	"link_max_width"
#define P2PD_FIELD_IOMMU_GROUP		"iommu_group"
#define P2PD_FIELD_IOMMU_DOMAIN		"iommu_domain"
#define P2PD_FIELD_P2P_ENDPOINT		"p2p_endpoint"
#define P2PD_FIELD_PHYSFN		"physfn"

/* Words used for absent and unreadable values. */
#define P2PD_WORD_NONE		"none"
#define P2PD_WORD_UNKNOWN	"unknown"
#define P2PD_WORD_SUSPENDED	"suspended"
/*
 * ats, pri and pasid of a capability that was read: "enabled" or
 * "disabled"; ats adds " stu=<n>" when enabled, pasid " width=<n>" always.
 */
#define P2PD_WORD_ENABLED	"enabled"
#define P2PD_WORD_DISABLED	"disabled"
#define P2PD_ATS_STU		" stu="
#define P2PD_PASID_WIDTH	" width="

/*
 * Header line of the topology and pairs files: the magic, then key=value
 * tokens, abi= first.
 */
#define P2PD_HEADER_MAGIC	"# p2pdiag"
#define P2PD_HEADER_PREFIX	P2PD_HEADER_MAGIC " abi="
/* The header's keys. */
#define P2PD_HEADER_ABI		"abi"
#define P2PD_HEADER_GENERATION	"generation"
#define P2PD_HEADER_FUNCTIONS	"functions"	/* topology */
#define P2PD_HEADER_CPU		"cpu"		/* topology */
#define P2PD_HEADER_PAIRS	"pairs"		/* pairs */
#define P2PD_HEADER_KERNEL	"kernel"	/* topology */
#define P2PD_HEADER_ROOT_BUS_FIRST "root_bus_first" /* topology */
/*
 * The pairs file's header goes on: "view=grouped groups=<g>
 * group_pairs=<q>", then "status=complete", or "status=limit-exceeded
 * limit=<bytes>" with no group lines.  devices/<addr>/pairs: "endpoint=".
 */
#define P2PD_PAIRS_VIEW_GROUPED		"grouped"
#define P2PD_PAIRS_STATUS_COMPLETE	"complete"
#define P2PD_PAIRS_STATUS_LIMIT		"limit-exceeded"
/*
 * Their last line: "# p2pdiag end generation=<n> bytes=<b>", <n> as in the
 * header, <b> the number of bytes before this line.
 */
#define P2PD_TRAILER_PREFIX	P2PD_HEADER_MAGIC " end generation="
#define P2PD_TRAILER_BYTES	" bytes="

/* ACS capability/control bits (PCIe r6.0, 7.7.8): same in both registers. */
#define P2PD_ACS_SV	0x0001	/* Source Validation */
#define P2PD_ACS_TB	0x0002	/* Translation Blocking */
#define P2PD_ACS_RR	0x0004	/* P2P Request Redirect */
#define P2PD_ACS_CR	0x0008	/* P2P Completion Redirect */
#define P2PD_ACS_UF	0x0010	/* Upstream Forwarding */
#define P2PD_ACS_EC	0x0020	/* P2P Egress Control */
#define P2PD_ACS_DT	0x0040	/* Direct Translated P2P */
/* The bits the acs= field names, one lspci word each. */
#define P2PD_ACS_WORD_MASK	(P2PD_ACS_SV | P2PD_ACS_TB | P2PD_ACS_RR | \
				 P2PD_ACS_CR | P2PD_ACS_UF | P2PD_ACS_EC | \
				 P2PD_ACS_DT)
/* The bits that make the kernel's p2pdma treat a port as redirecting. */
#define P2PD_ACS_REDIRECT_MASK	(P2PD_ACS_RR | P2PD_ACS_CR | P2PD_ACS_EC)

/* Offsets inside the ACS extended capability (for fix lines). */
#define P2PD_ACS_CAP_OFFSET	0x4
#define P2PD_ACS_CTRL_OFFSET	0x6

#endif /* P2PDIAG_ABI_H */
