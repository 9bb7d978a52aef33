// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-state: runs gpu_probe() and gpu_measure() from userspace/gpu_*.c and
 * prints the resulting struct gpu_state, one fact per "key=value" line, so
 * that tests (run-tests.sh, against the test doubles) and the bench (on a
 * real GPU) can read the GPU side without the rest of p2pdiag-check.
 *
 *   gpu-state [--no-cuda] [--quick] [--size BYTES] [--iterations N]
 *             [--timeout S] [--pairs ADDR,ADDR...] [--if-busy=measure]
 *             [--wait-idle S] [--curve]
 *
 * Exit status: 0 when every step that ran was ok, 1 otherwise.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "gpu/gpu.h"
#include "platform/fsroot.h"
#include "../../../include/p2pdiag/model.h"

static void addr_str(unsigned long long a, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", P2PD_ADDR_DOMAIN(a),
		 P2PD_ADDR_BUS(a), P2PD_ADDR_DEV(a), P2PD_ADDR_FN(a));
}

static void figure(const char *prefix, const char *name,
		   const struct gpu_figure *f)
{
	if (!f->valid)
		return;
	printf("%s.%s=%.3f min=%.3f max=%.3f samples=%u verify=%s\n", prefix,
	       name, f->median, f->min, f->max, f->samples,
	       gpu_verify_name(f->verify));
}

static void curve(const char *prefix, const char *name,
		  const struct gpu_curve *c)
{
	unsigned int i;

	if (!c->n)
		return;
	printf("%s.curve_%s=%s", prefix, name, c->verified ? "verified" : "unverified");
	for (i = 0; i < c->n; i++)
		printf(" %zu:%.3f", c->bytes[i], c->us[i]);
	putchar('\n');
}

static void validity(const char *p, const struct gpu_device *g)
{
	const struct gpu_activity *a = &g->activity;
	const struct gpu_settings *s = &g->settings;
	unsigned int i;

	if (a->procs_valid)
		printf("%s.procs=%u\n", p, a->nr_procs);
	for (i = 0; a->procs_valid && i < a->nr_procs && i < GPU_MAX_PROCS; i++)
		printf("%s.proc%u=pid %u name %s bytes %llu\n", p, i,
		       a->proc[i].pid, a->proc[i].name, a->proc[i].used_bytes);
	if (a->util_valid)
		printf("%s.util=gpu %u mem %u\n", p, a->util_gpu, a->util_mem);
	if (a->throttle_valid)
		printf("%s.throttle=0x%llx samples %u sm %u pstate %d\n", p,
		       a->throttle, a->throttle_samples, a->sm_clock_load,
		       a->pstate_load);
	if (a->waited_s > 0)
		printf("%s.waited_s=%.2f\n", p, a->waited_s);
	if (g->placement.valid)
		printf("%s.placement=cpu %d node %d buffers %d\n", p,
		       g->placement.cpu, g->placement.cpu_node,
		       g->placement.buf_node);
	if (s->valid)
		printf("%s.settings=ecc %d/%d persistence %d compute %d mig %d/%d app_sm %u/%u app_mem %u/%u max_mem %u bus %u\n",
		       p, s->ecc, s->ecc_pending, s->persistence,
		       s->compute_mode, s->mig, s->mig_pending, s->app_sm,
		       s->app_sm_default, s->app_mem, s->app_mem_default,
		       s->max_mem, s->mem_bus_width);
	for (i = 0; i < GPU_NVLINK_LINKS; i++)
		if (s->nvlink_version[i])
			printf("%s.nvlink%u.version=%u\n", p, i,
			       s->nvlink_version[i]);
}

/*
 * "PAIR.cuda_atomic_caps=absent", "=failed ERROR", or "=read" and each
 * operation's capability bits in hex, "integer-add=0x1b ...".
 */
static void atomic_caps(const char *p, const struct gpu_pair *q)
{
	unsigned int op;

	printf("%s.cuda_atomic_caps=", p);
	if (q->atomic_caps_state == GPU_ATOMIC_CAPS_ABSENT) {
		printf("absent\n");
		return;
	}
	if (q->atomic_caps_state == GPU_ATOMIC_CAPS_FAILED) {
		printf("failed %s\n", q->atomic_caps_error);
		return;
	}
	printf("read");
	for (op = 0; op < GPU_ATOMIC_OPS; op++)
		printf(" %s=0x%x", gpu_atomic_op_name(op), q->atomic_caps[op]);
	printf("\n");
}

static void progress(const char *what)
{
	fprintf(stderr, "gpu-state: %s\n", what);
}

static unsigned int parse_pairs(char *arg, unsigned long long *out)
{
	unsigned int n = 0, dom, bus, dev, fn;
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok && n < GPU_MAX;
	     tok = strtok_r(NULL, ",", &save)) {
		if (sscanf(tok, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4) {
			fprintf(stderr, "gpu-state: bad PCI address %s\n", tok);
			exit(2);
		}
		out[n++] = P2PD_ADDR(dom, bus, dev, fn);
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-cuda", no_argument, NULL, 'n' },
		{ "quick", no_argument, NULL, 'q' },
		{ "size", required_argument, NULL, 's' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, 't' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "progress", no_argument, NULL, 'v' },
		{ "if-busy", required_argument, NULL, 'b' },
		{ "wait-idle", required_argument, NULL, 'w' },
		{ "curve", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct gpu_options opt = { .iterations = 3, .timeout_s = 60 };
	static struct gpu_state st;
	/* the GPUs' numa_node as this machine has it, not $P2PDIAG_FSROOT's */
	static struct fsroot live;
	static struct fsroot_refusal refused;
	char err[256];
	unsigned long long pairs[GPU_MAX];
	unsigned int d, i;
	struct rusage ru;
	int c, bad = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': opt.no_cuda = true; break;
		case 'q': opt.quick = true; break;
		case 's': opt.size = strtoull(optarg, NULL, 0); break;
		case 'i': opt.iterations = (unsigned int)atoi(optarg); break;
		case 't': opt.timeout_s = atof(optarg); break;
		case 'p':
			opt.nr_only_pairs = parse_pairs(optarg, pairs);
			opt.only_pairs = pairs;
			break;
		case 'v': opt.progress = progress; break;
		case 'b':
			opt.busy = !strcmp(optarg, "measure") ? GPU_BUSY_MEASURE :
								 GPU_BUSY_REFUSE;
			break;
		case 'w': opt.wait_idle_s = atof(optarg); break;
		case 'c': opt.curve = true; break;
		default: return 2;
		}
	}

	if (fsroot_init(&live, NULL, err, sizeof(err))) {
		fprintf(stderr, "gpu-state: %s\n", err);
		return 2;
	}
	gpu_probe(&st, &opt, &live, &refused);
	if (fsroot_refused(&refused))
		fprintf(stderr, "gpu-state: %s\n", refused.why);
	gpu_measure(&st, &opt);

	printf("cuda=%s\nnvml=%s\nmeasure=%s\n", gpu_status_name(st.cuda),
	       gpu_status_name(st.nvml), gpu_status_name(st.measure));
	if (st.error[0])
		printf("error=%s\n", st.error);
	if (st.teardown_error[0])
		printf("teardown_error=%s\n", st.teardown_error);
	if (st.stuck_step[0])
		printf("stuck=%s\n", st.stuck_step);
	printf("driver_version=%d\nnvml_driver=%s\nnr_dev=%u\nnr_pairs=%u\n",
	       st.driver_version, st.nvml_driver, st.nr_dev, st.nr_pairs);
	if (st.nvml_driver_error[0])
		printf("nvml_driver_error=%s\n", st.nvml_driver_error);
	for (d = 0; d < st.nr_dev; d++) {
		const struct gpu_device *g = &st.dev[d];
		char p[16], a[16];

		snprintf(p, sizeof(p), "dev%u", d);
		addr_str(g->pci_addr, a, sizeof(a));
		printf("%s.addr=%s\n%s.name=%s\n%s.numa=%d\n", p, a, p, g->name,
		       p, g->numa_node);
		if (g->link.valid)
			printf("%s.link=gen%u x%u load=gen%u x%u max=gen%u x%u\n",
			       p, g->link.gen, g->link.width, g->link.gen_load,
			       g->link.width_load, g->link.max_gen,
			       g->link.max_width);
		if (g->bar1.valid)
			printf("%s.bar1=%llu MiB used %llu MiB memory %llu MiB\n", p,
			       g->bar1.total >> 20, g->bar1.used >> 20,
			       g->bar1.memory >> 20);
		if (g->before.valid)
			printf("%s.counters=replay %llu->%llu ecc_corr %llu->%llu ecc_uncorr %llu->%llu xid %llu->%llu\n",
			       p, g->before.replay, g->after.replay,
			       g->before.ecc_corrected, g->after.ecc_corrected,
			       g->before.ecc_uncorrected,
			       g->after.ecc_uncorrected, g->before.xid,
			       g->after.xid);
		printf("%s.nvlinks=%u\n", p, g->nvlinks_active);
		for (i = 0; i < g->nr_nvml_failures && i < GPU_NVML_FAILURES; i++)
			printf("%s.nvml_failed=%s %s: %s\n", p,
			       g->nvml_failure[i].field, g->nvml_failure[i].call,
			       g->nvml_failure[i].error);
		figure(p, "h2d", &g->h2d);
		figure(p, "d2h", &g->d2h);
		figure(p, "bidir_h2d", &g->bidir_h2d);
		figure(p, "bidir_d2h", &g->bidir_d2h);
		figure(p, "local", &g->local);
		figure(p, "latency_h2d", &g->latency_h2d);
		figure(p, "latency_chase", &g->latency_chase);
		validity(p, g);
		curve(p, "h2d", &g->curve[CURVE_H2D]);
		curve(p, "d2h", &g->curve[CURVE_D2H]);
		curve(p, "local", &g->curve[CURVE_LOCAL]);
	}
	for (i = 0; i < st.nr_pairs && st.pair; i++) {
		const struct gpu_pair *q = &st.pair[i];
		char p[32];

		snprintf(p, sizeof(p), "pair%d-%d", q->src, q->dst);
		if (q->cuda_valid)
			printf("%s.cuda=can_access %d perf_rank %d access %d atomics %d array %d\n",
			       p, q->can_access, q->perf_rank,
			       q->access_supported, q->native_atomics,
			       q->array_access);
		if (q->cuda_valid)
			printf("%s.cuda_partial_atomics=%d\n", p, q->partial_atomics);
		if (q->cuda_valid)
			atomic_caps(p, q);
		if (q->nvml_valid)
			printf("%s.nvml=topo %d read %d write %d nvlink %d atomics %d nvlinks %u\n",
			       p, q->topo_level, q->p2p_read, q->p2p_write,
			       q->p2p_nvlink, q->p2p_atomics, q->nvlinks);
		printf("%s.status=%s\n", p, gpu_status_name(q->status));
		figure(p, "p2p", &q->p2p);
		figure(p, "p2p_bidir", &q->p2p_bidir);
		figure(p, "staged", &q->staged);
		figure(p, "latency_p2p", &q->latency_p2p);
		figure(p, "latency_staged", &q->latency_staged);
		curve(p, "p2p", &q->curve);
	}
	if (st.exchange.valid)
		for (i = 0; i < GPU_EXCHANGE_SIZES; i++)
			if (st.exchange.size[i])
				printf("exchange.%zu=p2p %.2f staged %.2f\n",
				       st.exchange.size[i], st.exchange.p2p_us[i],
				       st.exchange.staged_us[i]);
	printf("probe_s=%.3f\nmeasure_s=%.3f\n", st.probe_s, st.measure_s);
	gpu_release(&st);
	getrusage(RUSAGE_SELF, &ru);
	printf("maxrss_kib=%ld\n", ru.ru_maxrss);
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("worker_maxrss_kib=%ld\n", ru.ru_maxrss);

	/* a GPU left unmeasured because it was busy is what was asked for */
	bad = (st.cuda != GPU_OK && st.cuda != GPU_SKIPPED) ||
	      st.measure == GPU_BUSY ||
	      (st.measure != GPU_OK && st.measure != GPU_SKIPPED);
	return bad ? 1 : 0;
}
