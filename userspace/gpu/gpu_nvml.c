// SPDX-License-Identifier: GPL-2.0
/*
 * NVML through dlopen: for each GPU that CUDA listed, the PCIe link NVML
 * reports (idle, under load, maximum), BAR1 and the memory it is to span,
 * NVLink state and far end per link,
 * the error counters before and after the run; for each pair, the common
 * ancestor level and the P2P status NVML gives for read, write, NVLink and
 * atomics.  NVML is optional: without it the readings stay invalid and
 * st->nvml says why.  Every call whose answer a reading needs goes
 * through gpu_nvml_ok(), so that a failing one is named with its reading
 * (gpu_device.nvml_failure), never left as a silent "unknown".
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_priv.h"
#include "topology/pciaddr.h"
#include "../include/p2pdiag/model.h"

static enum gpu_status nvml_load(struct gpu_state *st, struct nvml_api *nv)
{
	const char *libname = "libnvidia-ml.so.1";

	nv->lib = dlopen(libname, RTLD_NOW | RTLD_LOCAL);
	if (!nv->lib) {
		/* CUDA's error, if any, is the one the report needs. */
		if (!st->error[0])
			snprintf(st->error, sizeof(st->error), "dlopen %s: %s",
				 libname, dlerror());
		return GPU_NO_LIBRARY;
	}
#define RESOLVE_REQUIRED(name) \
	*(void **)&nv->name = dlsym(nv->lib, #name); \
	if (!nv->name) { \
		if (!st->error[0]) \
			snprintf(st->error, sizeof(st->error), \
				 "%s: entry point %s not found", libname, #name); \
		return GPU_NO_SYMBOL; \
	}
	NVML_REQUIRED_CALLS(RESOLVE_REQUIRED)
#undef RESOLVE_REQUIRED
#define RESOLVE_OPTIONAL(name) *(void **)&nv->name = dlsym(nv->lib, #name);
	NVML_OPTIONAL_CALLS(RESOLVE_OPTIONAL)
#undef RESOLVE_OPTIONAL
	return GPU_OK;
}

static enum gpu_p2p_status p2p_status(nvmlGpuP2PStatus_t s)
{
	switch (s) {
	case NVML_P2P_STATUS_OK:
		return P2P_STATUS_OK;
	case NVML_P2P_STATUS_CHIPSET_NOT_SUPPORED:
		return P2P_STATUS_CHIPSET_NS;
	case NVML_P2P_STATUS_GPU_NOT_SUPPORTED:
		return P2P_STATUS_GPU_NS;
	case NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED:
		return P2P_STATUS_IOH_TOPOLOGY_NS;
	case NVML_P2P_STATUS_DISABLED_BY_REGKEY:
		return P2P_STATUS_DISABLED_BY_REG;
	case NVML_P2P_STATUS_NOT_SUPPORTED:
		return P2P_STATUS_NOT_SUPPORTED;
	default:
		return P2P_STATUS_UNKNOWN;
	}
}

static void read_link(struct gpu_state *st, struct nvml_api *nv, int d)
{
	struct gpu_link_reading *l = &st->dev[d].link;
	nvmlDevice_t h = nv->dev[d];

	l->valid = NVML_OK(st, nv, d, "link", nvmlDeviceGetCurrPcieLinkGeneration,
			   h, &l->gen) &&
		   NVML_OK(st, nv, d, "link", nvmlDeviceGetCurrPcieLinkWidth,
			   h, &l->width) &&
		   NVML_OK(st, nv, d, "link", nvmlDeviceGetMaxPcieLinkGeneration,
			   h, &l->max_gen) &&
		   NVML_OK(st, nv, d, "link", nvmlDeviceGetMaxPcieLinkWidth,
			   h, &l->max_width);
}

static void read_bar1(struct gpu_state *st, struct nvml_api *nv, int d)
{
	struct gpu_bar1_reading *b = &st->dev[d].bar1;
	nvmlBAR1Memory_t bar1;
	nvmlMemory_t mem;

	if (!nv->nvmlDeviceGetBAR1MemoryInfo || !nv->nvmlDeviceGetMemoryInfo)
		return;
	b->valid = NVML_OK(st, nv, d, "bar1", nvmlDeviceGetBAR1MemoryInfo,
			   nv->dev[d], &bar1) &&
		   NVML_OK(st, nv, d, "bar1", nvmlDeviceGetMemoryInfo,
			   nv->dev[d], &mem) &&
		   bar1.bar1Total && mem.total;
	if (!b->valid)
		return;
	b->total = bar1.bar1Total;
	b->used = bar1.bar1Used;
	b->memory = mem.total;
}

static void read_nvlinks(struct gpu_state *st, struct nvml_api *nv, int d)
{
	struct gpu_device *dev = &st->dev[d];
	unsigned int link, j;

	for (link = 0; link < GPU_MAX_NVLINKS; link++) {
		nvmlPciInfo_t pci;

		/* GPUs without NVLink answer NOT_SUPPORTED for link 0. */
		if (!gpu_nvml_link_active(st, nv, d, link))
			continue;
		dev->nvlinks_active++;
		memset(&pci, 0, sizeof(pci));
		if (!nv->nvmlDeviceGetNvLinkRemotePciInfo_v2 ||
		    !NVML_OK(st, nv, d, "nvlink_remote",
			     nvmlDeviceGetNvLinkRemotePciInfo_v2, nv->dev[d],
			     link, &pci) ||
		    !gpu_parse_bus_id(pci.busId, &dev->nvlink_remote[link]))
			continue;
		for (j = 0; j < st->nr_dev; j++)
			if (j != (unsigned int)d &&
			    st->dev[j].pci_addr == dev->nvlink_remote[link])
				st->pair[gpu_pair_index(st->nr_dev, d, (int)j)]
					.nvlinks++;
	}
}

/* NVML's view of a pair; a failing call is the source GPU's reading. */
static void probe_pair(struct gpu_state *st, struct nvml_api *nv,
		       struct gpu_pair *p)
{
	static const struct {
		nvmlGpuP2PCapsIndex_t index;
		size_t offset;
	} caps[] = {
		{ NVML_P2P_CAPS_INDEX_READ, offsetof(struct gpu_pair, p2p_read) },
		{ NVML_P2P_CAPS_INDEX_WRITE, offsetof(struct gpu_pair, p2p_write) },
		{ NVML_P2P_CAPS_INDEX_NVLINK,
		  offsetof(struct gpu_pair, p2p_nvlink) },
		{ NVML_P2P_CAPS_INDEX_ATOMICS,
		  offsetof(struct gpu_pair, p2p_atomics) },
	};
	nvmlDevice_t a = nv->dev[p->src], b = nv->dev[p->dst];
	nvmlGpuTopologyLevel_t level;
	size_t i;

	if (!a || !b)
		return;
	p->topo_level = -1;
	if (nv->nvmlDeviceGetTopologyCommonAncestor &&
	    NVML_OK(st, nv, p->src, "topology",
		    nvmlDeviceGetTopologyCommonAncestor, a, b, &level)) {
		p->topo_level = (int)level;
		p->nvml_valid = true;
	}
	if (!nv->nvmlDeviceGetP2PStatus)
		return;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		nvmlGpuP2PStatus_t s;
		enum gpu_p2p_status *field =
			(enum gpu_p2p_status *)((char *)p + caps[i].offset);

		if (NVML_OK(st, nv, p->src, "p2p_status", nvmlDeviceGetP2PStatus,
			    a, b, caps[i].index, &s)) {
			*field = p2p_status(s);
			p->nvml_valid = true;
		}
	}
}

/*
 * Xid events arrive as they happen; collect what came so far.  TIMEOUT
 * says none is waiting; any other failure leaves every registered GPU's
 * count unknown.
 */
static void drain_xid(struct gpu_state *st, struct nvml_api *nv,
		      struct gpu_counters *c[GPU_MAX])
{
	nvmlEventData_t ev;
	nvmlReturn_t r;
	unsigned int d;

	if (!nv->xid_events || !nv->nvmlEventSetWait_v2)
		return;
	while ((r = nv->nvmlEventSetWait_v2(nv->xid_events, &ev, 0)) ==
	       NVML_SUCCESS)
		for (d = 0; d < st->nr_dev; d++)
			if (nv->dev[d] == ev.device &&
			    ev.eventType == nvmlEventTypeXidCriticalError)
				c[d]->xid++;
	if (r == NVML_ERROR_TIMEOUT)
		return;
	for (d = 0; d < st->nr_dev; d++)
		if (nv->xid_registered[d])
			gpu_nvml_ok(st, nv, (int)d, "xid_events",
				    "nvmlEventSetWait_v2", r);
}

void gpu_nvml_read_counters(struct gpu_state *st, struct nvml_api *nv,
			    bool after)
{
	struct gpu_counters *c[GPU_MAX];
	unsigned int d;

	if (st->nvml != GPU_OK)
		return;
	for (d = 0; d < st->nr_dev; d++) {
		unsigned int replay;
		nvmlDevice_t h = nv->dev[d];

		c[d] = after ? &st->dev[d].after : &st->dev[d].before;
		if (after)
			c[d]->xid = st->dev[d].before.xid;
		if (!h)
			continue;
		if (nv->nvmlDeviceGetPcieReplayCounter &&
		    NVML_OK(st, nv, (int)d, "replay_counter",
			    nvmlDeviceGetPcieReplayCounter, h, &replay)) {
			c[d]->replay = replay;
			c[d]->valid = true;
		}
		/* ECC may be off or absent: then the totals stay 0. */
		if (nv->nvmlDeviceGetTotalEccErrors) {
			NVML_OK(st, nv, (int)d, "ecc_errors",
				nvmlDeviceGetTotalEccErrors, h,
				NVML_MEMORY_ERROR_TYPE_CORRECTED,
				NVML_VOLATILE_ECC, &c[d]->ecc_corrected);
			NVML_OK(st, nv, (int)d, "ecc_errors",
				nvmlDeviceGetTotalEccErrors, h,
				NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
				NVML_VOLATILE_ECC, &c[d]->ecc_uncorrected);
		}
	}
	drain_xid(st, nv, c);
}

/*
 * Idle GPUs train their links down to save power, so the generation and
 * width that matter are the ones read while a copy keeps the link busy.
 */
void gpu_nvml_read_link_load(struct gpu_state *st, struct nvml_api *nv,
			     int dev)
{
	struct gpu_link_reading *l = &st->dev[dev].link;
	nvmlDevice_t h = nv->dev[dev];

	if (st->nvml != GPU_OK || !h)
		return;
	if (!NVML_OK(st, nv, dev, "link_load", nvmlDeviceGetCurrPcieLinkGeneration,
		     h, &l->gen_load) ||
	    !NVML_OK(st, nv, dev, "link_load", nvmlDeviceGetCurrPcieLinkWidth,
		     h, &l->width_load))
		l->gen_load = l->width_load = 0;
}

/* Run on the CPUs next to the GPU, as nvbandwidth does. */
void gpu_nvml_bind_cpu(struct nvml_api *nv, int dev)
{
	if (nv->lib && nv->nvmlDeviceSetCpuAffinity && nv->dev[dev])
		nv->nvmlDeviceSetCpuAffinity(nv->dev[dev]);
}

void gpu_nvml_probe(struct gpu_state *st, struct nvml_api *nv)
{
	unsigned int d, i;
	nvmlReturn_t r, events = NVML_ERROR_NOT_SUPPORTED;

	st->nvml = nvml_load(st, nv);
	if (st->nvml != GPU_OK)
		return;
	/* the watchdog's finding names the step that never returned */
	gpu_record_step(st, "nvmlInit_v2", -1, -1);
	r = nv->nvmlInit_v2();
	if (r != NVML_SUCCESS) {
		char e[64];

		gpu_nvml_error_text(nv, r, e, sizeof(e));
		if (!st->error[0])
			snprintf(st->error, sizeof(st->error), "nvmlInit_v2: %s", e);
		st->nvml = GPU_INIT_FAILED;
		return;
	}
	if (nv->nvmlSystemGetDriverVersion) {
		r = nv->nvmlSystemGetDriverVersion(st->nvml_driver,
						   sizeof(st->nvml_driver));
		if (r != NVML_SUCCESS) {
			char e[64];

			gpu_nvml_error_text(nv, r, e, sizeof(e));
			st->nvml_driver[0] = '\0';
			snprintf(st->nvml_driver_error,
				 sizeof(st->nvml_driver_error),
				 "nvmlSystemGetDriverVersion failed: %s", e);
		}
	}
	if (nv->nvmlEventSetCreate && nv->nvmlDeviceRegisterEvents) {
		events = nv->nvmlEventSetCreate(&nv->xid_events);
		if (events != NVML_SUCCESS)
			nv->xid_events = NULL;
	}

	for (d = 0; d < st->nr_dev; d++) {
		char bus[P2PD_ADDR_STRLEN];

		pciaddr_format(bus, st->dev[d].pci_addr);
		gpu_record_step(st, "nvmlDevice calls", -1, (int)d);
		/* no handle: every reading of the GPU is unknown, for this */
		if (!NVML_OK(st, nv, (int)d, "handle",
			     nvmlDeviceGetHandleByPciBusId_v2, bus, &nv->dev[d])) {
			nv->dev[d] = NULL;
			continue;
		}
		/* the name dcgm-exporter's series carry too (UUID) */
		if (nv->nvmlDeviceGetUUID &&
		    !NVML_OK(st, nv, (int)d, "uuid", nvmlDeviceGetUUID, nv->dev[d],
			     st->dev[d].uuid, sizeof(st->dev[d].uuid)))
			st->dev[d].uuid[0] = '\0';
		read_link(st, nv, (int)d);
		read_bar1(st, nv, (int)d);
		gpu_settings_read(st, nv, (int)d);
		/* without the set, no GPU's Xid events can be counted */
		if (!nv->xid_events)
			gpu_nvml_ok(st, nv, (int)d, "xid_events",
				    "nvmlEventSetCreate", events);
		else
			nv->xid_registered[d] =
				NVML_OK(st, nv, (int)d, "xid_events",
					nvmlDeviceRegisterEvents, nv->dev[d],
					nvmlEventTypeXidCriticalError,
					nv->xid_events);
	}
	for (d = 0; d < st->nr_dev; d++)
		if (nv->dev[d])
			read_nvlinks(st, nv, (int)d);
	for (i = 0; i < st->nr_pairs; i++)
		probe_pair(st, nv, &st->pair[i]);
	gpu_nvml_read_counters(st, nv, false);
}

void gpu_nvml_release(struct nvml_api *nv)
{
	if (!nv->lib)
		return;
	if (nv->xid_events && nv->nvmlEventSetFree)
		nv->nvmlEventSetFree(nv->xid_events);
	nv->xid_events = NULL;
	if (nv->nvmlShutdown)
		nv->nvmlShutdown();
	/* The library stays mapped: the worker process ends right after. */
}
