// SPDX-License-Identifier: GPL-2.0
/* The fixture server with two GPUs measured (fuzz_server.h). */
#include <stdio.h>

#include "fuzz_server.h"
#include "judge/judge.h"

static struct gpu_state gpus;
static struct gpu_pair gpu_pairs[2];

/* GPUs 1c:00.0 and 1d:00.0 of the fixture server, both ways measured. */
static void measured_gpus(void)
{
	static const struct gpu_figure h2d = { true, 24.5, 24, 25, 5, VERIFY_OK };
	static const struct gpu_figure p2p = { true, 21.0, 20, 22, 5, VERIFY_OK };
	unsigned int i;

	gpus.stuck_pair = gpus.stuck_dev = -1;
	gpus.nr_dev = 2;
	gpus.dev[0].pci_addr = P2PD_ADDR(0, 0x1c, 0, 0);
	gpus.dev[1].pci_addr = P2PD_ADDR(0, 0x1d, 0, 0);
	for (i = 0; i < 2; i++) {
		snprintf(gpus.dev[i].name, sizeof(gpus.dev[i].name), "GPU%u", i);
		gpus.dev[i].h2d = gpus.dev[i].d2h = h2d;
		gpu_pairs[i].src = (int)i;
		gpu_pairs[i].dst = (int)(1 - i);
		gpu_pairs[i].cuda_valid = true;
		gpu_pairs[i].can_access = 1;
		gpu_pairs[i].p2p = p2p;
	}
	gpus.pair = gpu_pairs;
	gpus.nr_pairs = 2;
}

int fuzz_server_load(struct fixture_run *f, const char *fixtures)
{
	fixture_load(f, fixtures, "fleet-after");
	if (!f->ok)
		return -1;
	measured_gpus();
	f->r.in.gpu = &gpus;
	f->r.in.gpu_measured = true;
	judge_topology(&f->r);
	judge_gpus(&f->r);
	return 0;
}
