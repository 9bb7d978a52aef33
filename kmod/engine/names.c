// SPDX-License-Identifier: GPL-2.0
/*
 * The words for the engine's enums: the ABI's role, map and IOMMU domain
 * words, nvidia-smi's class names, the verdicts, and the device kinds the
 * reports print.  Out of range is NULL, never a wild read.
 */
#include "p2pdiag/decode.h"
#include "p2pdiag/verdict.h"

static const char *const role_names[P2PD_ROLE_COUNT] = {
	[P2PD_ROLE_ROOT_PORT] = "root_port",
	[P2PD_ROLE_UPSTREAM_PORT] = "upstream_port",
	[P2PD_ROLE_DOWNSTREAM_PORT] = "downstream_port",
	[P2PD_ROLE_ENDPOINT] = "endpoint",
	[P2PD_ROLE_LEGACY_ENDPOINT] = "legacy_endpoint",
	[P2PD_ROLE_RC_ENDPOINT] = "rc_endpoint",
	[P2PD_ROLE_RC_EVENT_COLLECTOR] = "rc_event_collector",
	[P2PD_ROLE_PCIE_TO_PCI_BRIDGE] = "pcie_to_pci_bridge",
	[P2PD_ROLE_PCI_TO_PCIE_BRIDGE] = "pci_to_pcie_bridge",
	[P2PD_ROLE_PCI_BRIDGE] = "pci_bridge",
	[P2PD_ROLE_PCI_DEVICE] = "pci_device",
	[P2PD_ROLE_CARDBUS_BRIDGE] = "cardbus_bridge",
};

static const char *const class_names[P2PD_CLASS_COUNT] = {
	"PIX", "PXB", "PHB", "NODE", "SYS", "unknown",
};

static const char *const map_names[P2PD_MAP_COUNT] = {
	"bus_addr", "thru_host_bridge", "not_supported", "unknown",
};

/* P2PD_COMMON_BRIDGE is written as the bridge's address, not a word. */
static const char *const common_names[P2PD_COMMON_COUNT] = {
	[P2PD_COMMON_BRIDGE] = P2PD_NULL,
	[P2PD_COMMON_HOST] = "host",
	[P2PD_COMMON_NONE] = "none",
	[P2PD_COMMON_UNKNOWN] = "unknown",
};

static const char *const verdict_names[P2PD_VERDICT_COUNT] = {
	"ok", "host", "redirected", "blocked", "unknown",
};

static const char *const iommu_domain_names[P2PD_IOMMU_COUNT] = {
	[P2PD_IOMMU_NONE] = "none",
	[P2PD_IOMMU_TRANSLATED] = "translated",
	[P2PD_IOMMU_IDENTITY] = "identity",
	[P2PD_IOMMU_BLOCKED] = "blocked",
	[P2PD_IOMMU_UNKNOWN] = "unknown",
};

static const char *const kind_names[P2PD_KIND_COUNT] = {
	[P2PD_KIND_GPU] = "GPU",
	[P2PD_KIND_ACCELERATOR] = "accelerator",
	[P2PD_KIND_NIC] = "NIC",
	[P2PD_KIND_NVME] = "NVMe",
	[P2PD_KIND_OTHER] = "device",
};

/* A name from one of the tables above, or NULL when @i is out of range. */
static const char *table_name(const char *const *table, unsigned int count,
			      unsigned int i)
{
	return i < count ? table[i] : P2PD_NULL;
}

const char *p2pd_role_name(enum p2pd_role role)
{
	return table_name(role_names, P2PD_ROLE_COUNT, role);
}

const char *p2pd_class_name(enum p2pd_class cls)
{
	return table_name(class_names, P2PD_CLASS_COUNT, cls);
}

const char *p2pd_map_name(enum p2pd_map map)
{
	return table_name(map_names, P2PD_MAP_COUNT, map);
}

const char *p2pd_common_name(enum p2pd_common common)
{
	return table_name(common_names, P2PD_COMMON_COUNT, common);
}

const char *p2pd_verdict_name(enum p2pd_verdict verdict)
{
	return table_name(verdict_names, P2PD_VERDICT_COUNT, verdict);
}

const char *p2pd_iommu_domain_name(enum p2pd_iommu_domain domain)
{
	return table_name(iommu_domain_names, P2PD_IOMMU_COUNT, domain);
}

const char *p2pd_kind_name(enum p2pd_kind kind)
{
	return table_name(kind_names, P2PD_KIND_COUNT, kind);
}
