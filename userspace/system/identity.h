/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which server a report is of, and when it was made: the host name, the
 * machine-id, the DMI serial, the run's time and every NVIDIA GPU's UUID,
 * each read under the root of system reads (no root, no identity: a
 * saved topology is another machine's).  --compare-fleet uses it to tell
 * a duplicated or stale report from a server's own.
 */
#ifndef P2PDIAG_SYSTEM_IDENTITY_H
#define P2PDIAG_SYSTEM_IDENTITY_H

#include <time.h>

#define IDENTITY_TEXT		256
#define IDENTITY_MAX_GPUS	64

struct identity_gpu {
	char addr[16];		/* the driver's name for it: "0000:1b:00.0" */
	char uuid[48];		/* "GPU-8f0c6c5e-..." */
};

struct identity {
	char hostname[IDENTITY_TEXT];
	char machine_id[64];
	char dmi_serial[IDENTITY_TEXT];
	time_t run_time;
	struct identity_gpu gpu[IDENTITY_MAX_GPUS];
	unsigned int nr_gpus;
};

struct fsroot;
struct fsroot_refusal;

/*
 * identity_read() - the identity of the machine whose files @root holds,
 * the run's time @now; a fact that cannot be read stays "" (a DMI serial
 * is root's to read).
 */
void identity_read(struct identity *id, const struct fsroot *root,
		   struct fsroot_refusal *refused, time_t now);

#endif /* P2PDIAG_SYSTEM_IDENTITY_H */
