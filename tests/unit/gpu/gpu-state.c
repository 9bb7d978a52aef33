// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-state: runs gpu_probe() and gpu_measure() from userspace/gpu_*.c and
 * prints the resulting struct gpu_state, one fact per "key=value" line, so
 * that tests (run-tests.sh, against the test doubles) and the bench (on a
 * real GPU) can read the GPU side without the rest of p2pdiag-check.
 *
 *   gpu-state [--no-cuda] [--quick] [--size BYTES] [--iterations N]
 *             [--timeout S] [--pairs ADDR,ADDR...]
 *
 * Exit status: 0 when every step that ran was ok, 1 otherwise.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "gpu.h"
#include "../../../include/p2pdiag/model.h"

static void addr_str(unsigned int a, char *buf, size_t len)
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

static void progress(const char *what)
{
	fprintf(stderr, "gpu-state: %s\n", what);
}

static unsigned int parse_pairs(char *arg, unsigned int *out)
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
		{ NULL, 0, NULL, 0 },
	};
	struct gpu_options opt = { .iterations = 3, .timeout_s = 60 };
	static struct gpu_state st;
	unsigned int pairs[GPU_MAX], d, i;
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
		default: return 2;
		}
	}

	gpu_probe(&st, &opt);
	gpu_measure(&st, &opt);

	printf("cuda=%s\nnvml=%s\nmeasure=%s\n", gpu_status_name(st.cuda),
	       gpu_status_name(st.nvml), gpu_status_name(st.measure));
	if (st.error[0])
		printf("error=%s\n", st.error);
	if (st.stuck_step[0])
		printf("stuck=%s\n", st.stuck_step);
	printf("driver_version=%d\nnvml_driver=%s\nnr_dev=%u\nnr_pairs=%u\n",
	       st.driver_version, st.nvml_driver, st.nr_dev, st.nr_pairs);
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
		if (g->before.valid)
			printf("%s.counters=replay %llu->%llu ecc_corr %llu->%llu ecc_uncorr %llu->%llu xid %llu->%llu\n",
			       p, g->before.replay, g->after.replay,
			       g->before.ecc_corrected, g->after.ecc_corrected,
			       g->before.ecc_uncorrected,
			       g->after.ecc_uncorrected, g->before.xid,
			       g->after.xid);
		printf("%s.nvlinks=%u\n", p, g->nvlinks_active);
		figure(p, "h2d", &g->h2d);
		figure(p, "d2h", &g->d2h);
		figure(p, "bidir_h2d", &g->bidir_h2d);
		figure(p, "bidir_d2h", &g->bidir_d2h);
		figure(p, "local", &g->local);
		figure(p, "latency_h2d", &g->latency_h2d);
		figure(p, "latency_chase", &g->latency_chase);
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

	bad = (st.cuda != GPU_OK && st.cuda != GPU_SKIPPED) ||
	      (st.measure != GPU_OK && st.measure != GPU_SKIPPED);
	return bad ? 1 : 0;
}
