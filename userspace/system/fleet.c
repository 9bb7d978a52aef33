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

#include "platform/fsroot.h"
#include "system/fleet.h"

static void dmi(const struct fsroot *root, struct fsroot_refusal *refused,
		char *buf, size_t len, const char *name)
{
	if (fsroot_read(root, refused, buf, len, "/sys/class/dmi/id/%s", name))
		buf[0] = '\0';
}

static int slot_cmp(const void *x, const void *y)
{
	return strcmp(((const struct fleet_slot *)x)->name,
		      ((const struct fleet_slot *)y)->name);
}

void fleet_facts_read(struct fleet_facts *f, const struct fsroot *root,
		      struct fsroot_refusal *refused)
{
	char vendor[FLEET_TEXT], name[FLEET_TEXT];
	struct dirent *e;
	DIR *d;

	memset(f, 0, sizeof(*f));
	dmi(root, refused, f->bios_vendor, sizeof(f->bios_vendor),
	    "bios_vendor");
	dmi(root, refused, f->bios_version, sizeof(f->bios_version),
	    "bios_version");
	dmi(root, refused, f->bios_date, sizeof(f->bios_date), "bios_date");
	dmi(root, refused, vendor, sizeof(vendor), "board_vendor");
	dmi(root, refused, name, sizeof(name), "board_name");
	snprintf(f->board, sizeof(f->board), "%.60s%s%.60s", vendor,
		 vendor[0] && name[0] ? " " : "", name);
	if (fsroot_read(root, refused, f->nvidia_driver,
			sizeof(f->nvidia_driver),
			"/sys/module/nvidia/version"))
		f->nvidia_driver[0] = '\0';
	d = fsroot_opendir(root, "/sys/bus/pci/slots");
	if (!d)
		return;
	while ((e = readdir(d)) && f->nr_slots < FLEET_MAX_SLOTS) {
		struct fleet_slot *s = &f->slot[f->nr_slots];

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(s->name) ||
		    fsroot_read(root, refused, s->addr, sizeof(s->addr),
				"/sys/bus/pci/slots/%s/address", e->d_name) ||
		    !s->addr[0])
			continue;	/* an empty slot has no address */
		memcpy(s->name, e->d_name, strlen(e->d_name) + 1);
		f->nr_slots++;
	}
	closedir(d);
	qsort(f->slot, f->nr_slots, sizeof(f->slot[0]), slot_cmp);
}
