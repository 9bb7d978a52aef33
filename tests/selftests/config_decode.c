// SPDX-License-Identifier: GPL-2.0
/*
 * Independent decoding of a PCI function for the selftests.  Offsets and
 * bit positions come from the PCI Express Base Specification (r6.0:
 * 7.5.3 PCI Express Capability, 7.7.8 ACS, 10.5.1 ATS, 10.5.2 Page
 * Request, 7.8.9 PASID), not from the
 * module's sources.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../include/uapi/p2pdiag/abi.h"
#include "config_decode.h"

#define CFG_STD_SIZE		256
#define CAP_ID_PCIE		0x10
#define EXT_CAP_ID_ACS		0x000d
#define EXT_CAP_ID_ATS		0x000f
#define EXT_CAP_ID_PRI		0x0013
#define EXT_CAP_ID_PASID	0x001b
#define STATUS_CAP_LIST		0x0010

static const char *const field_names[ST_NR_FIELDS] = {
	[ST_ROLE] = P2PD_FIELD_ROLE,
	[ST_PARENT] = P2PD_FIELD_PARENT,
	[ST_HOST_BRIDGE] = P2PD_FIELD_HOST_BRIDGE,
	[ST_NUMA_NODE] = P2PD_FIELD_NUMA_NODE,
	[ST_VENDOR] = P2PD_FIELD_VENDOR,
	[ST_DEVICE] = P2PD_FIELD_DEVICE,
	[ST_CLASS] = P2PD_FIELD_CLASS,
	[ST_ACS_CAP] = P2PD_FIELD_ACS_CAP,
	[ST_ACS_CTRL] = P2PD_FIELD_ACS_CTRL,
	[ST_ACS] = P2PD_FIELD_ACS,
	[ST_ATS] = P2PD_FIELD_ATS,
	[ST_PRI] = P2PD_FIELD_PRI,
	[ST_PASID] = P2PD_FIELD_PASID,
	[ST_LINK_SPEED] = P2PD_FIELD_LINK_SPEED,
	[ST_LINK_WIDTH] = P2PD_FIELD_LINK_WIDTH,
	[ST_LINK_MAX_SPEED] = P2PD_FIELD_LINK_MAX_SPEED,
	[ST_LINK_MAX_WIDTH] = P2PD_FIELD_LINK_MAX_WIDTH,
	[ST_IOMMU_GROUP] = P2PD_FIELD_IOMMU_GROUP,
	[ST_IOMMU_DOMAIN] = P2PD_FIELD_IOMMU_DOMAIN,
	[ST_P2P_ENDPOINT] = P2PD_FIELD_P2P_ENDPOINT,
	[ST_PHYSFN] = P2PD_FIELD_PHYSFN,
};

const char *st_field_name(enum st_field field)
{
	return (unsigned int)field < ST_NR_FIELDS ? field_names[field] : NULL;
}

struct cfg {
	const unsigned char *b;
	size_t len;
};

static unsigned int rd8(const struct cfg *c, size_t off)
{
	return off < c->len ? c->b[off] : 0;
}

static unsigned int rd16(const struct cfg *c, size_t off)
{
	return rd8(c, off) | rd8(c, off + 1) << 8;
}

static unsigned int rd32(const struct cfg *c, size_t off)
{
	return rd16(c, off) | (unsigned int)rd16(c, off + 2) << 16;
}

/* Standard capability @id, 0 when absent; the walk is bounded. */
static unsigned int find_cap(const struct cfg *c, unsigned int id)
{
	unsigned int pos, guard;

	if (!(rd16(c, 0x06) & STATUS_CAP_LIST))
		return 0;
	pos = rd8(c, 0x34) & ~3u;
	for (guard = 0; pos >= 0x40 && guard < 48; guard++) {
		if (rd8(c, pos) == id)
			return pos;
		pos = rd8(c, pos + 1) & ~3u;
	}
	return 0;
}

/* Extended capability @id, 0 when absent or the space is not readable. */
static unsigned int find_ext_cap(const struct cfg *c, unsigned int id)
{
	unsigned int pos = CFG_STD_SIZE, guard, hdr;

	for (guard = 0; pos >= CFG_STD_SIZE && pos + 4 <= c->len &&
	     guard < 1024; guard++) {
		hdr = rd32(c, pos);
		if (hdr == 0 || hdr == 0xffffffffu)
			return 0;
		if ((hdr & 0xffff) == id)
			return pos;
		pos = (hdr >> 20) & ~3u;
	}
	return 0;
}

/* PCIe Device/Port Type (PCI Express Capabilities register bits 7:4). */
static const char *role_of(const struct cfg *c, unsigned int pcie)
{
	static const char *const port_type[16] = {
		[0x0] = "endpoint",
		[0x1] = "legacy_endpoint",
		[0x4] = "root_port",
		[0x5] = "upstream_port",
		[0x6] = "downstream_port",
		[0x7] = "pcie_to_pci_bridge",
		[0x8] = "pci_to_pcie_bridge",
		[0x9] = "rc_endpoint",
		[0xa] = "rc_event_collector",
	};

	if (pcie && port_type[(rd16(c, pcie + 2) >> 4) & 0xf])
		return port_type[(rd16(c, pcie + 2) >> 4) & 0xf];
	/* not PCIe, or a reserved type: the header layout decides */
	switch (rd8(c, 0x0e) & 0x7f) {
	case 0:
		return "pci_device";
	case 2:
		return "cardbus_bridge";
	default:
		return "pci_bridge";
	}
}

static const char *speed_word(unsigned int code)
{
	static const char *const speeds[] = {
		NULL, "2.5", "5.0", "8.0", "16.0", "32.0", "64.0",
	};

	if (code < sizeof(speeds) / sizeof(speeds[0]) && speeds[code])
		return speeds[code];
	return P2PD_WORD_UNKNOWN;
}

static void acs_words(char *out, size_t size, unsigned int ctrl)
{
	static const char *const names[] = {
		"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir",
		"UpstreamFwd", "EgressCtrl", "DirectTrans",
	};
	size_t used = 0, i;

	out[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && used < size; i++)
		used += snprintf(out + used, size - used, "%s%s%c", i ? " " : "",
				 names[i], ctrl & (1u << i) ? '+' : '-');
}

static int is_p2p_class(unsigned int class_code)
{
	unsigned int base = class_code >> 16, base_sub = class_code >> 8;

	return base == 0x03 ||		/* display, 3D */
	       base == 0x02 ||		/* network, InfiniBand */
	       base_sub == 0x0108 ||	/* NVMe */
	       base == 0x12 ||		/* processing accelerator */
	       base_sub == 0x0b40;	/* co-processor */
}

static int is_endpoint_role(const char *role)
{
	return !strcmp(role, "endpoint") || !strcmp(role, "legacy_endpoint") ||
	       !strcmp(role, "rc_endpoint") || !strcmp(role, "pci_device");
}

/*
 * Parent and root bus from where the PCI core put the device:
 * /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0.  The root bus is the
 * last pciDDDD:BB component (a VMD-like domain nests one root bus under
 * another function); the parent is the directory above, when it is a
 * function.
 */
static void place_of(const char *addr, struct st_function *out)
{
	char path[PATH_MAX], real[PATH_MAX], *comp, *save = NULL;
	char prev[ST_ADDR_LEN + 1] = "", host[16] = "";

	snprintf(out->value[ST_PARENT], ST_VALUE_LEN, P2PD_WORD_UNKNOWN);
	snprintf(out->value[ST_HOST_BRIDGE], ST_VALUE_LEN, P2PD_WORD_UNKNOWN);
	snprintf(path, sizeof(path), "%s/%s", st_pci_root(), addr);
	if (!realpath(path, real))
		return;
	for (comp = strtok_r(real, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		unsigned int dom, bus;
		char tail;

		if (!strcmp(comp, addr))
			break;
		if (strlen(comp) == 10 &&
		    sscanf(comp, "pci%4x:%2x%c", &dom, &bus, &tail) == 2)
			snprintf(host, sizeof(host), "%s", comp + 3);
		snprintf(prev, sizeof(prev), "%s", st_is_addr(comp) ? comp : "");
	}
	if (!comp)
		return;
	if (host[0])
		snprintf(out->value[ST_HOST_BRIDGE], ST_VALUE_LEN, "%s", host);
	snprintf(out->value[ST_PARENT], ST_VALUE_LEN, "%s",
		 prev[0] ? prev : P2PD_WORD_NONE);
}

/*
 * The group, from the device's iommu_group link.  The module leaves the
 * domain type to the group's type file (ABI.txt): "unknown" for a function
 * in a group, "none" for one without.
 */
static void iommu_of(const char *addr, struct st_function *out)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *group;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/iommu_group", st_pci_root(), addr);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(out->value[ST_IOMMU_GROUP], ST_VALUE_LEN, P2PD_WORD_NONE);
		snprintf(out->value[ST_IOMMU_DOMAIN], ST_VALUE_LEN, P2PD_WORD_NONE);
		return;
	}
	target[n] = '\0';
	group = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	snprintf(out->value[ST_IOMMU_GROUP], ST_VALUE_LEN, "%s", group);
	snprintf(out->value[ST_IOMMU_DOMAIN], ST_VALUE_LEN, P2PD_WORD_UNKNOWN);
}

/* A virtual function's physfn link names its PF; other functions have none. */
static void physfn_of(const char *addr, struct st_function *out)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/physfn", st_pci_root(), addr);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(out->value[ST_PHYSFN], ST_VALUE_LEN, P2PD_WORD_NONE);
		return;
	}
	target[n] = '\0';
	snprintf(out->value[ST_PHYSFN], ST_VALUE_LEN, "%s",
		 strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
}

static void set(struct st_function *out, enum st_field f, const char *fmt,
		unsigned int v)
{
	snprintf(out->value[f], ST_VALUE_LEN, fmt, v);
}

static void decode_config(const struct cfg *c, struct st_function *out)
{
	unsigned int pcie = find_cap(c, CAP_ID_PCIE);
	unsigned int acs = c->len > CFG_STD_SIZE ? find_ext_cap(c, EXT_CAP_ID_ACS) : 0;
	unsigned int ats = c->len > CFG_STD_SIZE ? find_ext_cap(c, EXT_CAP_ID_ATS) : 0;
	unsigned int pri = c->len > CFG_STD_SIZE ? find_ext_cap(c, EXT_CAP_ID_PRI) : 0;
	unsigned int pasid = c->len > CFG_STD_SIZE ? find_ext_cap(c, EXT_CAP_ID_PASID) : 0;
	const char *role = role_of(c, pcie);
	unsigned int class_code = rd8(c, 0x0b) << 16 | rd8(c, 0x0a) << 8 | rd8(c, 0x09);
	int i;

	snprintf(out->value[ST_ROLE], ST_VALUE_LEN, "%s", role);
	set(out, ST_VENDOR, "0x%04x", rd16(c, 0x00));
	set(out, ST_DEVICE, "0x%04x", rd16(c, 0x02));
	set(out, ST_CLASS, "0x%06x", class_code);

	out->acs_pos = acs;
	if (acs) {
		set(out, ST_ACS_CAP, "0x%04x", rd16(c, acs + P2PD_ACS_CAP_OFFSET));
		set(out, ST_ACS_CTRL, "0x%04x", rd16(c, acs + P2PD_ACS_CTRL_OFFSET));
		acs_words(out->value[ST_ACS], ST_VALUE_LEN,
			  rd16(c, acs + P2PD_ACS_CTRL_OFFSET));
	} else {
		for (i = ST_ACS_CAP; i <= ST_ACS; i++)
			snprintf(out->value[i], ST_VALUE_LEN, P2PD_WORD_NONE);
	}

	/* ATS Control: bit 15 Enable, bits 4:0 Smallest Translation Unit */
	if (!ats)
		snprintf(out->value[ST_ATS], ST_VALUE_LEN, P2PD_WORD_NONE);
	else if (!(rd16(c, ats + 6) & 0x8000))
		snprintf(out->value[ST_ATS], ST_VALUE_LEN, "disabled");
	else
		set(out, ST_ATS, "enabled stu=%u", rd16(c, ats + 6) & 0x1f);

	/* Page Request Control at +4: bit 0 Enable */
	if (!pri)
		snprintf(out->value[ST_PRI], ST_VALUE_LEN, P2PD_WORD_NONE);
	else
		snprintf(out->value[ST_PRI], ST_VALUE_LEN, "%s",
			 rd16(c, pri + 4) & 1 ? "enabled" : "disabled");

	/* PASID Capability at +4: bits 12:8 Max Width; Control at +6: bit 0 Enable */
	if (!pasid)
		snprintf(out->value[ST_PASID], ST_VALUE_LEN, P2PD_WORD_NONE);
	else
		snprintf(out->value[ST_PASID], ST_VALUE_LEN, "%s width=%u",
			 rd16(c, pasid + 6) & 1 ? "enabled" : "disabled",
			 (rd16(c, pasid + 4) >> 8) & 0x1f);

	/* Link Capabilities at +0x0c, Link Status at +0x12: speed 3:0, width 9:4 */
	if (!pcie || !strcmp(role, "rc_endpoint") ||
	    !strcmp(role, "rc_event_collector")) {
		for (i = ST_LINK_SPEED; i <= ST_LINK_MAX_WIDTH; i++)
			snprintf(out->value[i], ST_VALUE_LEN, P2PD_WORD_NONE);
	} else {
		unsigned int lnkcap = rd32(c, pcie + 0x0c), lnksta = rd16(c, pcie + 0x12);

		snprintf(out->value[ST_LINK_SPEED], ST_VALUE_LEN, "%s",
			 speed_word(lnksta & 0xf));
		set(out, ST_LINK_WIDTH, "%u", (lnksta >> 4) & 0x3f);
		snprintf(out->value[ST_LINK_MAX_SPEED], ST_VALUE_LEN, "%s",
			 speed_word(lnkcap & 0xf));
		set(out, ST_LINK_MAX_WIDTH, "%u", (lnkcap >> 4) & 0x3f);
	}

	set(out, ST_P2P_ENDPOINT, "%u", is_endpoint_role(role) &&
	    (st_all_endpoints() || is_p2p_class(class_code)));
}

int st_decode_function(const char *addr, struct st_function *out,
		       char *why, size_t why_size)
{
	char path[PATH_MAX], numa[32];
	struct cfg c;
	size_t len;
	unsigned char *raw;
	int nl, i;

	memset(out, 0, sizeof(*out));
	snprintf(out->addr, sizeof(out->addr), "%s", addr);
	snprintf(path, sizeof(path), "%s/%s/config", st_pci_root(), addr);
	raw = (unsigned char *)st_read_file(path, 4096, &len);
	if (!raw || len < 64) {
		snprintf(why, why_size, "%s: %s", path,
			 raw ? "shorter than 64 bytes" : "cannot read");
		free(raw);
		return -1;
	}
	c.b = raw;
	c.len = len;
	if (rd32(&c, 0) == 0xffffffffu) {
		/* gone or not answering: every config value is unknown */
		for (i = 0; i < ST_NR_FIELDS; i++)
			snprintf(out->value[i], ST_VALUE_LEN, P2PD_WORD_UNKNOWN);
	} else {
		decode_config(&c, out);
	}
	free(raw);

	place_of(addr, out);
	snprintf(path, sizeof(path), "%s/%s/numa_node", st_pci_root(), addr);
	if (st_read_value(path, numa, sizeof(numa), &nl))
		snprintf(numa, sizeof(numa), "-1");
	snprintf(out->value[ST_NUMA_NODE], ST_VALUE_LEN, "%s", numa);
	iommu_of(addr, out);
	physfn_of(addr, out);
	return 0;
}
