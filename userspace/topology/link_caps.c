// SPDX-License-Identifier: GPL-2.0
/* The causes that cap a link's speed, from sysfs (link_caps.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "topology/link_caps.h"
#include "topology/pcie_config.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/model.h"

#define LNKCTL2_TARGET_SPEED	0x000f

static bool read_ulong(const struct fsroot *root,
		       struct fsroot_refusal *refused,
		       unsigned long *v, const char *dir, const char *file)
{
	char text[32], *end;

	if (fsroot_read(root, refused, text, sizeof(text),
			"/sys/class/thermal/%s/%s", dir, file))
		return false;
	*v = strtoul(text, &end, 10);
	return end != text;
}

/* The port's cooling device, when one is registered and not at state 0. */
static bool cooling_active(const struct fsroot *root,
			   struct fsroot_refusal *refused,
			   unsigned long long port, struct link_cap *cap)
{
	char want[sizeof(LINK_COOLING_PREFIX) + P2PD_ADDR_STRLEN], a[P2PD_ADDR_STRLEN];
	DIR *d = fsroot_opendir(root, "/sys/class/thermal");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	snprintf(want, sizeof(want), "%s%s", LINK_COOLING_PREFIX,
		 pciaddr_format(a, port));
	while (!found && (e = readdir(d))) {
		char type[64];
		unsigned int id;

		if (sscanf(e->d_name, "cooling_device%u", &id) != 1 ||
		    fsroot_read(root, refused, type, sizeof(type),
				"/sys/class/thermal/%s/type", e->d_name) ||
		    strcmp(type, want))
			continue;
		found = read_ulong(root, refused, &cap->cooling_state,
				   e->d_name, "cur_state") &&
			cap->cooling_state > 0;
		if (found) {
			cap->cooling_id = id;
			if (!read_ulong(root, refused, &cap->cooling_max,
					e->d_name, "max_state"))
				cap->cooling_max = 0;
		}
	}
	closedir(d);
	return found;
}

bool link_cap_read(const struct fsroot *root, struct fsroot_refusal *refused,
		   unsigned long long port, unsigned long long dev,
		   unsigned int max_tenths, struct link_cap *cap)
{
	const unsigned long long ends[] = { port, dev };
	unsigned int i, ctl2;

	memset(cap, 0, sizeof(*cap));
	cap->cooling = cooling_active(root, refused, port, cap);
	for (i = 0; i < 2; i++) {
		unsigned int t;

		if (!pcie_config_read_word(root, refused, ends[i],
					   PCIE_CAP_LNKCTL2, &ctl2) ||
		    ctl2 == 0xffff)
			continue;
		t = p2pd_link_speed_tenths(ctl2 & LNKCTL2_TARGET_SPEED);
		if (t && t < max_tenths && (!cap->target_tenths || t < cap->target_tenths)) {
			cap->target_tenths = t;
			cap->target_at = ends[i];
		}
	}
	return cap->cooling || cap->target_tenths;
}
