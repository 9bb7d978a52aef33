// SPDX-License-Identifier: GPL-2.0
/* The "system" object of the JSON report (SCHEMA.md, "system"). */
#include <stdio.h>
#include <time.h>

#include <json-c/json.h>

#include "judge/judgement.h"
#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "report/system_output.h"
#include "system/system.h"

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static struct json_object *tri_json(enum tri t)
{
	return t == TRI_UNKNOWN ? NULL : json_object_new_boolean(t == TRI_YES);
}

static struct json_object *addr_json(unsigned long long addr)
{
	char a[P2PD_ADDR_STRLEN];

	return json_object_new_string(pciaddr_format(a, addr));
}

static struct json_object *facts_json(const struct gpudirect_facts *f)
{
	static const char *const flavour[] = {
		[NVIDIA_ABSENT] = "absent", [NVIDIA_FLAVOUR_UNKNOWN] = "unknown",
		[NVIDIA_OPEN] = "open", [NVIDIA_PROPRIETARY] = "proprietary",
	};
	struct json_object *o = json_object_new_object();

	put(o, "nvidia_flavour", json_object_new_string(flavour[f->flavour]));
	put(o, "nvidia_version", str_or_null(f->nvidia_version));
	put(o, "static_bar1", tri_json(f->static_bar1));
	put(o, "peermem_module", str_or_null(f->peermem_module));
	put(o, "peermem_version", str_or_null(f->peermem_version));
	put(o, "dmabuf_kernel", tri_json(f->dmabuf_kernel));
	put(o, "nvidia_fs", json_object_new_boolean(f->nvfs_loaded));
	put(o, "nvidia_fs_version", str_or_null(f->nvfs_version));
	put(o, "nvidia_fs_stats", str_or_null(f->nvfs_driver));
	put(o, "p2pdma_kernel", tri_json(f->p2pdma_release));
	put(o, "p2pdma_config", tri_json(f->p2pdma_config));
	put(o, "p2pdma_pgmap_ops", tri_json(f->p2pdma_ops));
	put(o, "nvme_multipath_off", tri_json(f->multipath_off));
	return o;
}

static struct json_object *translation_json(const struct gd_translation *t)
{
	struct json_object *o = json_object_new_object();

	put(o, "ats", json_object_new_string(t->ats));
	put(o, "pri", json_object_new_string(t->pri));
	put(o, "pasid", json_object_new_string(t->pasid));
	return o;
}

static struct json_object *pair_json(const struct gd_pair *p)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	unsigned int c;

	put(o, "gpu", addr_json(p->gpu));
	put(o, "peer", addr_json(p->peer));
	put(o, "kind", json_object_new_string(p->storage ? "storage" : "rdma"));
	put(o, "route", json_object_new_string(p->route));
	put(o, "ready", json_object_new_boolean(p->ready));
	put(o, "nccl_gdr", p->nccl_gdr < 0 ? NULL : json_object_new_boolean(p->nccl_gdr));
	put(o, "nccl_reason", p->storage ? NULL : str_or_null(p->nccl_why));
	put(o, "driver", str_or_null(p->driver));
	put(o, "rdma_device", p->storage ? NULL : str_or_null(p->rdma));
	put(o, "iommu", p->storage ? str_or_null(p->iommu) : NULL);
	put(o, "gpu_translation", translation_json(&p->gpu_translation));
	put(o, "peer_translation", translation_json(&p->peer_translation));
	for (c = 0; c < p->nr_check; c++) {
		struct json_object *k = json_object_new_object();

		put(k, "name", json_object_new_string(p->check[c].name));
		put(k, "route", str_or_null(p->check[c].route));
		put(k, "ok", tri_json(p->check[c].ok));
		put(k, "evidence", json_object_new_string(p->check[c].evidence));
		json_object_array_add(arr, k);
	}
	put(o, "checks", arr);
	return o;
}

static struct json_object *gpudirect_json(const struct gpudirect *g)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	unsigned int i;

	put(o, "facts", facts_json(&g->facts));
	for (i = 0; i < g->nr_pair; i++)
		json_object_array_add(arr, pair_json(&g->pair[i]));
	put(o, "pairs", arr);
	arr = json_object_new_array();
	for (i = 0; i < g->nr_vmd; i++) {
		struct json_object *v = json_object_new_object();

		put(v, "name", json_object_new_string(g->vmd[i].name));
		put(v, "addr", json_object_new_string(g->vmd[i].addr));
		put(v, "vmd", json_object_new_string(g->vmd[i].vmd));
		json_object_array_add(arr, v);
	}
	put(o, "vmd_nvme", arr);
	return o;
}

/* Every function on a judged path whose AER counters were readable. */
static struct json_object *aer_json(const struct aer_state *a)
{
	struct json_object *arr = json_object_new_array();
	unsigned int i;

	for (i = 0; i < a->nr; i++) {
		const struct aer_port *p = &a->port[i];
		struct json_object *o;

		if (!p->after.have)
			continue;
		o = json_object_new_object();
		put(o, "addr", addr_json(p->addr));
		put(o, "correctable", json_object_new_int64((int64_t)p->after.cor));
		put(o, "nonfatal", json_object_new_int64((int64_t)p->after.nonfatal));
		put(o, "fatal", json_object_new_int64((int64_t)p->after.fatal));
		put(o, "counters", str_or_null(p->after.detail));
		put(o, "before", !p->before.have ? NULL :
		    json_object_new_int64((int64_t)(p->before.cor + p->before.nonfatal + p->before.fatal)));
		put(o, "link_status", p->have_lnksta ? json_object_new_int((int)p->lnksta) : NULL);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The "context" object: firmware, driver and slots (system/fleet.h). */
static struct json_object *context_json(const struct fleet_facts *f)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	unsigned int i;

	put(o, "bios_vendor", str_or_null(f->bios_vendor));
	put(o, "bios_version", str_or_null(f->bios_version));
	put(o, "bios_date", str_or_null(f->bios_date));
	put(o, "board", str_or_null(f->board));
	put(o, "nvidia_driver", str_or_null(f->nvidia_driver));
	for (i = 0; i < f->nr_slots; i++) {
		struct json_object *s = json_object_new_object();

		put(s, "name", json_object_new_string(f->slot[i].name));
		put(s, "addr", json_object_new_string(f->slot[i].addr));
		json_object_array_add(arr, s);
	}
	put(o, "slots", arr);
	return o;
}

/* The "identity" object (system/identity.h); the time in UTC. */
static struct json_object *identity_json(const struct identity *id)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char when[32];
	struct tm tm;
	unsigned int i;

	put(o, "hostname", str_or_null(id->hostname));
	put(o, "machine_id", str_or_null(id->machine_id));
	put(o, "dmi_serial", str_or_null(id->dmi_serial));
	if (!gmtime_r(&id->run_time, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(when, sizeof(when), "1970-01-01T00:00:00Z");
	put(o, "run_time", json_object_new_string(when));
	for (i = 0; i < id->nr_gpus; i++) {
		struct json_object *g = json_object_new_object();

		put(g, "addr", json_object_new_string(id->gpu[i].addr));
		put(g, "uuid", json_object_new_string(id->gpu[i].uuid));
		json_object_array_add(arr, g);
	}
	put(o, "gpu_uuids", arr);
	return o;
}


struct json_object *system_output_json(const struct check_run *r)
{
	const struct system_report *s = r->in.system;
	struct json_object *o, *k;

	if (!s || !s->read)
		return NULL;
	o = json_object_new_object();
	put(o, "root", json_object_new_string(fsroot_get(r->in.root)));
	k = json_object_new_object();
	put(k, "release", s->kernel.have_release ? json_object_new_string(s->kernel.release) : NULL);
	put(k, "cmdline", s->kernel.have_cmdline ? json_object_new_string(s->kernel.cmdline) : NULL);
	put(k, "config", str_or_null(s->kernel.config));
	put(o, "kernel", k);
	k = json_object_new_object();
	put(k, "guest", json_object_new_boolean(s->virt.guest));
	put(k, "hypervisor", str_or_null(s->virt.hypervisor));
	put(k, "dmi_vendor", str_or_null(s->virt.dmi_vendor));
	put(k, "dmi_product", str_or_null(s->virt.dmi_product));
	put(o, "virtualization", k);
	put(o, "identity", identity_json(&s->identity));
	put(o, "context", context_json(&s->fleet));
	put(o, "gpudirect", gpudirect_json(&s->gd));
	put(o, "aer", aer_json(&s->aer));
	return o;
}
