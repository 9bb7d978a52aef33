// SPDX-License-Identifier: GPL-2.0
/*
 * Measurement validity: before a low figure is blamed on a link, find what
 * else explains it.  Other processes on the GPU share its copy engines,
 * its link and its memory, so a copy measures them as much as the path;
 * clocks held back by heat or power slow everything on the GPU; pinned
 * buffers on the far NUMA node add the CPUs' interconnect to every host
 * copy.  Each gets a finding of its own that names it (process ids and
 * names, the reasons NVML gave, the nodes) with its own fix, and turns the
 * figures' "low" findings into "explained" ones that do not send anyone
 * to reseat a card.
 */
#include <stdio.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/judge_validity.h"
#include "judge/results.h"
#include "topology/pciaddr.h"

static const struct {
	unsigned long long bit;
	const char *name;
	const char *fix;
} reasons[] = {
	{ 0x40ull, "HW thermal slowdown",
	  "the GPU overheats: check its cooling and the airflow (nvidia-smi -q -d TEMPERATURE,PERFORMANCE)" },
	{ 0x20ull, "SW thermal slowdown",
	  "the GPU runs hot: check its cooling and the airflow (nvidia-smi -q -d TEMPERATURE,PERFORMANCE)" },
	{ 0x80ull, "HW power brake",
	  "the system asserts the power brake: check the power supplies and the BMC's event log" },
	{ 0x08ull, "HW slowdown",
	  "nvidia-smi -q -d PERFORMANCE names the hardware slowdown; check temperature and power supply" },
	{ 0x04ull, "SW power cap",
	  "the GPU reached its power limit (nvidia-smi -q -d POWER); other work is drawing it, or the limit was lowered (nvidia-smi -pl restores it)" },
	{ 0x02ull, "application or locked clocks",
	  "clocks are held by nvidia-smi -ac/-lgc/-lmc: reset with nvidia-smi -rac, -rgc, -rmc" },
	{ 0x10ull, "sync boost", NULL },
	{ 0x01ull, "idle", NULL },
};

void judge_throttle_words(unsigned long long bits, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]) && n < len; i++)
		if (bits & reasons[i].bit) {
			int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					 reasons[i].name);

			if (w < 0)
				return;
			n += (size_t)w;
		}
}

void judge_process_words(const struct gpu_activity *a, char *buf, size_t len)
{
	unsigned int i, kept = a->nr_procs < GPU_MAX_PROCS ? a->nr_procs :
							      GPU_MAX_PROCS;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < kept && n < len; i++) {
		const struct gpu_process *p = &a->proc[i];
		char mem[32] = "";
		int w;

		if (p->used_bytes)
			snprintf(mem, sizeof(mem), ", %.1f GiB",
				 p->used_bytes / (double)(1ull << 30));
		w = snprintf(buf + n, len - n, "%spid %u (%s%s%s)", i ? ", " : "",
			     p->pid, p->name[0] ? p->name : "not visible here",
			     p->graphics ? ", graphics" : "", mem);
		if (w < 0)
			return;
		n += (size_t)w;
	}
	if (a->nr_procs > kept && n < len)
		snprintf(buf + n, len - n, " and %u more", a->nr_procs - kept);
}

static void busy_words(const struct gpu_activity *a, char *buf, size_t len)
{
	char procs[512];

	judge_process_words(a, procs, sizeof(procs));
	if (a->nr_procs && a->util_valid && a->util_gpu >= GPU_BUSY_UTIL_PCT)
		snprintf(buf, len, "%s; %u%% utilisation", procs, a->util_gpu);
	else if (a->nr_procs)
		snprintf(buf, len, "%s", procs);
	else
		snprintf(buf, len,
			 "%u%% utilisation with no process visible here (another container or VM)",
			 a->util_gpu);
}

static bool placement_remote(const struct gpu_device *d)
{
	return d->placement.valid && d->numa_node >= 0 &&
	       d->placement.buf_node >= 0 && d->placement.buf_node != d->numa_node;
}

bool judge_gpu_explained(const struct check_run *r, unsigned int g, bool host,
			 char *why, size_t wlen, char *fix, size_t flen)
{
	const struct gpu_device *d = &r->in.gpu->dev[g];
	const struct gpu_activity *a = &d->activity;
	unsigned long long slow = a->throttle & JUDGE_THROTTLE_SLOWING;
	char words[600];
	size_t i;

	if (gpu_activity_busy(a)) {
		busy_words(a, words, sizeof(words));
		snprintf(why, wlen, "other work on the GPU: %s", words);
		snprintf(fix, flen,
			 "measure on an idle GPU: wait for or stop %s, or run with --wait-idle SECONDS; the path is not shown to be at fault",
			 a->nr_procs ? "those processes" : "that work");
		return true;
	}
	if (a->throttle_valid && slow) {
		judge_throttle_words(slow, words, sizeof(words));
		snprintf(why, wlen, "clocks held back during the copies: %s", words);
		for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
			if ((slow & reasons[i].bit) && reasons[i].fix)
				break;
		snprintf(fix, flen, "%s",
			 i < sizeof(reasons) / sizeof(reasons[0]) ? reasons[i].fix : "");
		return true;
	}
	if (host && placement_remote(d)) {
		snprintf(why, wlen,
			 "the pinned host buffers were on NUMA node %d, the GPU is on node %d",
			 d->placement.buf_node, d->numa_node);
		snprintf(fix, flen,
			 "run on node %d's CPUs and memory (numactl --cpunodebind=%d --membind=%d), as the workload should",
			 d->numa_node, d->numa_node, d->numa_node);
		return true;
	}
	return false;
}

void judge_validity(struct check_run *r)
{
	const struct gpu_state *st = r->in.gpu;
	unsigned int g;

	for (g = 0; g < st->nr_dev; g++) {
		const struct gpu_device *d = &st->dev[g];
		const struct gpu_activity *a = &d->activity;
		char a_s[P2PD_ADDR_STRLEN], words[600], fix[300], why[700];
		unsigned long long slow = a->throttle & JUDGE_THROTTLE_SLOWING;

		if (!r->judged.results->gpu[g].selected)
			continue;
		pciaddr_format(a_s, d->pci_addr);
		if (gpu_activity_busy(a) && st->measure == GPU_BUSY &&
		    st->busy == GPU_BUSY_SKIP) {
			/* a health check's choice: a job's GPU is no fault */
			busy_words(a, words, sizeof(words));
			findings_add(&r->judged.findings, SEV_INFO, FC_GPU_BUSY,
				     d->pci_addr, FINDING_NO_ADDR,
				     "the next run on idle GPUs measures them",
				     "GPU %s is in use: %s; nothing measured (--if-busy=skip), only the topology and attributes judged",
				     a_s, words);
		} else if (gpu_activity_busy(a)) {
			bool refused = st->measure == GPU_BUSY;

			busy_words(a, words, sizeof(words));
			findings_add(&r->judged.findings, SEV_WARNING, FC_GPU_BUSY,
				     d->pci_addr, FINDING_NO_ADDR,
				     refused ?
				     "run the check when the GPU is idle (drain the node, or --wait-idle SECONDS); --if-busy=measure measures anyway" :
				     "measure on an idle GPU: wait for or stop that work, or use --wait-idle SECONDS",
				     refused ?
				     "GPU %s is in use: %s; not measured (--if-busy=refuse%s), so its path is not verified" :
				     "GPU %s was in use while it was measured: %s; its figures measure that work as much as the path",
				     a_s, words,
				     refused && a->waited_s > 0 ? ", after the wait for idle" : "");
		}
		if (a->throttle_valid && slow) {
			judge_gpu_explained(r, g, false, why, sizeof(why), fix,
					    sizeof(fix));
			judge_throttle_words(slow, words, sizeof(words));
			findings_add(&r->judged.findings, SEV_WARNING, FC_GPU_THROTTLED,
				     d->pci_addr, FINDING_NO_ADDR, fix,
				     "GPU %s: its clocks were held back while the copies ran: %s (NVML's reasons over %u samples; SM clock %u MHz under load)",
				     a_s, words, a->throttle_samples,
				     a->sm_clock_load);
		}
		if (placement_remote(d))
			findings_add(&r->judged.findings, SEV_WARNING, FC_NUMA_REMOTE,
				     d->pci_addr, FINDING_NO_ADDR,
				     "bind the worker and its memory to the GPU's node (numactl --cpunodebind=N --membind=N); check numa_node in sysfs and the BIOS's NUMA setting",
				     "GPU %s is on NUMA node %d, but the pinned host buffers landed on node %d (the worker ran on CPU %d, node %d): host copies cross the CPUs' interconnect",
				     a_s, d->numa_node, d->placement.buf_node,
				     d->placement.cpu, d->placement.cpu_node);
	}
}
