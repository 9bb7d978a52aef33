// SPDX-License-Identifier: GPL-2.0
/*
 * Fleet context.  A slot's address file holds "dddd:bb:dd" (no function):
 * the device in the slot is every function at that address.  Slots are
 * sorted by name so that two runs list them alike.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "check.h"
#include "platform/fsroot.h"
#include "system/fleet.h"
#include "system/system.h"

static void dmi(struct fsroot *root, char *buf, size_t len, const char *name)
{
	if (fsroot_read(root, buf, len, "/sys/class/dmi/id/%s", name))
		buf[0] = '\0';
}

static int slot_cmp(const void *x, const void *y)
{
	return strcmp(((const struct fleet_slot *)x)->name,
		      ((const struct fleet_slot *)y)->name);
}

void fleet_facts_read(struct fleet_facts *f, struct fsroot *root)
{
	char vendor[FLEET_TEXT], name[FLEET_TEXT];
	struct dirent *e;
	DIR *d;

	memset(f, 0, sizeof(*f));
	dmi(root, f->bios_vendor, sizeof(f->bios_vendor), "bios_vendor");
	dmi(root, f->bios_version, sizeof(f->bios_version), "bios_version");
	dmi(root, f->bios_date, sizeof(f->bios_date), "bios_date");
	dmi(root, vendor, sizeof(vendor), "board_vendor");
	dmi(root, name, sizeof(name), "board_name");
	snprintf(f->board, sizeof(f->board), "%.60s%s%.60s", vendor,
		 vendor[0] && name[0] ? " " : "", name);
	if (fsroot_read(root, f->nvidia_driver, sizeof(f->nvidia_driver),
			"/sys/module/nvidia/version"))
		f->nvidia_driver[0] = '\0';
	d = fsroot_opendir(root, "/sys/bus/pci/slots");
	if (!d)
		return;
	while ((e = readdir(d)) && f->nr_slots < FLEET_MAX_SLOTS) {
		struct fleet_slot *s = &f->slot[f->nr_slots];

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(s->name) ||
		    fsroot_read(root, s->addr, sizeof(s->addr),
				"/sys/bus/pci/slots/%s/address", e->d_name) ||
		    !s->addr[0])
			continue;	/* an empty slot has no address */
		memcpy(s->name, e->d_name, strlen(e->d_name) + 1);
		f->nr_slots++;
	}
	closedir(d);
	qsort(f->slot, f->nr_slots, sizeof(f->slot[0]), slot_cmp);
}

static struct json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

struct json_object *fleet_json(const struct fleet_facts *f)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	unsigned int i;

	json_object_object_add(o, "bios_vendor", str_or_null(f->bios_vendor));
	json_object_object_add(o, "bios_version", str_or_null(f->bios_version));
	json_object_object_add(o, "bios_date", str_or_null(f->bios_date));
	json_object_object_add(o, "board", str_or_null(f->board));
	json_object_object_add(o, "nvidia_driver", str_or_null(f->nvidia_driver));
	for (i = 0; i < f->nr_slots; i++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "name", json_object_new_string(f->slot[i].name));
		json_object_object_add(s, "addr", json_object_new_string(f->slot[i].addr));
		json_object_array_add(arr, s);
	}
	json_object_object_add(o, "slots", arr);
	return o;
}

/* @path ("system.kernel.release") in @o, as a string, or NULL. */
static const char *str_at(struct json_object *o, const char *a, const char *b,
			  const char *c)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v) || !json_object_object_get_ex(v, b, &v) ||
	    (c && !json_object_object_get_ex(v, c, &v)) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static void differ(char *buf, size_t len, const char *what, const char *was,
		   const char *now)
{
	size_t used = strlen(buf);

	if (!strcmp(was ? was : "", now ? now : "") || used + 1 >= len)
		return;
	if (snprintf(buf + used, len - used, "%s%s '%s' -> '%s'", used ? "; " : "",
		     what, was ? was : "unknown", now ? now : "unknown") < 0)
		buf[used] = '\0';
}

/* Slots as "name=addr name=addr", the same way for both runs. */
static void slots_text(struct json_object *slots, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; slots && i < json_object_array_length(slots) && used < len; i++) {
		struct json_object *s = json_object_array_get_idx(slots, i), *n, *a;

		if (json_object_object_get_ex(s, "name", &n) &&
		    json_object_object_get_ex(s, "addr", &a))
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s",
						 used ? " " : "", json_object_get_string(n),
						 json_object_get_string(a));
	}
}

void fleet_baseline_check(struct check_run *r, struct json_object *base)
{
	const struct system_report *s = r->system;
	struct json_object *now, *bs = NULL, *ns = NULL, *v;
	char diff[2048] = "", was[1024], is[1024];
	static const char *const ctx_keys[] = {
		"bios_vendor", "bios_version", "bios_date", "board", "nvidia_driver",
	};
	unsigned int i;

	if (!s || !s->read || !json_object_object_get_ex(base, "system", &v) ||
	    !json_object_is_type(v, json_type_object))
		return;		/* no context in one of the two runs: nothing to compare */
	now = json_object_new_object();
	json_object_object_add(now, "system", system_output_json(r));
	differ(diff, sizeof(diff), "kernel", str_at(base, "system", "kernel", "release"),
	       str_at(now, "system", "kernel", "release"));
	differ(diff, sizeof(diff), "command line", str_at(base, "system", "kernel", "cmdline"),
	       str_at(now, "system", "kernel", "cmdline"));
	for (i = 0; i < sizeof(ctx_keys) / sizeof(ctx_keys[0]); i++)
		differ(diff, sizeof(diff), ctx_keys[i],
		       str_at(base, "system", "context", ctx_keys[i]),
		       str_at(now, "system", "context", ctx_keys[i]));
	if (json_object_object_get_ex(v, "context", &v))
		json_object_object_get_ex(v, "slots", &bs);
	if (json_object_object_get_ex(now, "system", &v) &&
	    json_object_object_get_ex(v, "context", &v))
		json_object_object_get_ex(v, "slots", &ns);
	slots_text(bs, was, sizeof(was));
	slots_text(ns, is, sizeof(is));
	differ(diff, sizeof(diff), "slots", was, is);
	json_object_put(now);
	if (diff[0])
		findings_add(&r->findings, SEV_INFO, "baseline-context",
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "since the baseline: %s", diff);
}
