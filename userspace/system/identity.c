// SPDX-License-Identifier: GPL-2.0
/*
 * The identity.  The host name is the kernel's (the one a run in a
 * container with the host's root sees through the root's /proc), else the
 * configured one in /etc/hostname.  The GPU UUIDs come from the NVIDIA
 * driver's own /proc/driver/nvidia/gpus/<addr>/information, so that a
 * report knows its GPUs without CUDA; sorted by address, so that two runs
 * list them alike.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/fsroot.h"
#include "system/identity.h"

#define GPUS_DIR	"/proc/driver/nvidia/gpus"

static void read_or_empty(const struct fsroot *root,
			  struct fsroot_refusal *refused, char *buf, size_t len,
			  const char *path)
{
	if (fsroot_read(root, refused, buf, len, "%s", path))
		buf[0] = '\0';
}

/* The "GPU UUID:" line of the driver's information file, or "". */
static void gpu_uuid(const struct fsroot *root, struct fsroot_refusal *refused,
		     const char *addr, char *uuid, size_t len)
{
	char line[256];
	FILE *f = fsroot_fopen(root, refused, GPUS_DIR "/%s/information", addr);

	uuid[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, "GPU UUID:", 9))
			continue;
		v = line + 9;
		v += strspn(v, " \t");
		v[strcspn(v, " \t\r\n")] = '\0';
		if (strlen(v) < len)
			memcpy(uuid, v, strlen(v) + 1);
		break;
	}
	fclose(f);
}

static int gpu_cmp(const void *x, const void *y)
{
	return strcmp(((const struct identity_gpu *)x)->addr,
		      ((const struct identity_gpu *)y)->addr);
}

void identity_read(struct identity *id, const struct fsroot *root,
		   struct fsroot_refusal *refused, time_t now)
{
	struct dirent *e;
	DIR *d;

	memset(id, 0, sizeof(*id));
	id->run_time = now;
	read_or_empty(root, refused, id->hostname, sizeof(id->hostname),
		      "/proc/sys/kernel/hostname");
	if (!id->hostname[0])
		read_or_empty(root, refused, id->hostname, sizeof(id->hostname),
			      "/etc/hostname");
	read_or_empty(root, refused, id->machine_id, sizeof(id->machine_id),
		      "/etc/machine-id");
	read_or_empty(root, refused, id->dmi_serial, sizeof(id->dmi_serial),
		      "/sys/class/dmi/id/product_serial");
	d = fsroot_opendir(root, GPUS_DIR);
	if (!d)
		return;
	while ((e = readdir(d)) && id->nr_gpus < IDENTITY_MAX_GPUS) {
		struct identity_gpu *g = &id->gpu[id->nr_gpus];

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(g->addr))
			continue;
		memcpy(g->addr, e->d_name, strlen(e->d_name) + 1);
		gpu_uuid(root, refused, g->addr, g->uuid, sizeof(g->uuid));
		if (g->uuid[0])
			id->nr_gpus++;
	}
	closedir(d);
	qsort(id->gpu, id->nr_gpus, sizeof(id->gpu[0]), gpu_cmp);
}
