// SPDX-License-Identifier: GPL-2.0
/*
 * Framework environment dumps (`python -m torch.utils.collect_env`,
 * vLLM's and others' copies of it) and `nvidia-smi -L`: the GPUs' models
 * ("GPU 0: NVIDIA GeForce RTX 3090", "(UUID: ...)" dropped) and the CPU's
 * vendor (lscpu's "Vendor ID:" that collect_env embeds), which the rules
 * weigh as a live run's GPU and host facts.
 */
#include <stdio.h>
#include <string.h>

#include "evidence/evidence.h"
#include "p2pdiag/model.h"

void read_collect_env(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]), *p;
		struct ev_ref ref = { fi, i + 1 };
		char name[64];
		unsigned int g;
		int n = 0;

		if (ev_starts(s, "PyTorch version:") || ev_starts(s, "Collecting environment information")) {
			f->formats |= EV_FMT_COLLECT_ENV;
			continue;
		}
		if (ev_starts(s, "GPU models and configuration:"))
			s = ev_skip_blank(s + 29);
		if (sscanf(s, "GPU %u: %n", &g, &n) == 1 && n && s[n]) {
			snprintf(name, sizeof(name), "%s", s + n);
			if ((p = strstr(name, " (UUID")))
				name[p - name] = '\0';
			ev_gpu_named(ev, g, -1, name, ref);
			f->formats |= EV_FMT_COLLECT_ENV;
			continue;
		}
		if (ev_starts(s, "Vendor ID:") && !ev->cpu_known) {
			p = ev_skip_blank(s + 10);
			if (ev_starts(p, "AuthenticAMD") || ev_starts(p, "HygonGenuine")) {
				ev->cpu_known = true;
				ev->cpu_flags |= P2PD_CPU_AMD;
			} else if (ev_starts(p, "GenuineIntel")) {
				ev->cpu_known = true;
			}
		}
	}
}
