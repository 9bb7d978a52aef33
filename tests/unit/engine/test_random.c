// SPDX-License-Identifier: GPL-2.0
/*
 * Random trees: every pair against the kernel oracle and the engine's
 * invariants, and every tree through format -> parse -> same model.
 * Usage: test_random [trees] [seed]; a failure names its seed so that
 * "test_random 1 <seed>" replays it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2pdiag/format.h"
#include "ktap.h"
#include "model_util.h"
#include "pair_checks.h"
#include "topology/topology_parse.h"

int main(int argc, char **argv)
{
	unsigned long trees = argc > 1 ? strtoul(argv[1], NULL, 0) : 300;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	unsigned long t, pairs = 0, bad_pairs = 0, bad_trips = 0;
	unsigned long unknown = 0, cut_trees = 0, bad_index = 0;
	char first_pair[1024] = "", first_trip[1024] = "", first_index[256] = "";
	struct ktap k = { 0 };

	ktap_start("engine-random");
	for (t = 0; t < trees; t++) {
		unsigned long long s = seed * 1000003ull + t, rs = s;
		struct p2pd_model m, back, indexed;
		int *host_index;
		int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX;
		char why[512], err[256];
		char *text;
		int cut = (int)(t % 5 == 4);

		random_model(&rs, &m, cut);
		cut_trees += (unsigned long)cut;
		if (p2pd_model_check(&m)) {
			snprintf(first_trip, sizeof(first_trip),
				 "seed %llu: generator made an unsorted model", s);
			bad_trips++;
		}
		/* the host-bridge index gives what the scan for it gives */
		host_index = calloc(m.nr_fn ? m.nr_fn : 1, sizeof(int));
		if (!host_index)
			abort();
		p2pd_host_index_fill(&m, host_index);
		indexed = m;
		indexed.host_index = host_index;
		while (p2pd_next_pair(&m, &a, &b)) {
			struct p2pd_pair p, q;

			pairs++;
			if (!p2pd_judge(&m, a, b, &p) && !p2pd_judge(&indexed, a, b, &q) &&
			    (p.host_fn != q.host_fn || p.host_fn_b != q.host_fn_b ||
			     p.missing != q.missing || p.verdict != q.verdict ||
			     p.map != q.map || p.host_blocks != q.host_blocks) &&
			    !bad_index++)
				snprintf(first_index, sizeof(first_index),
					 "tree %lu (replay: test_random %lu %llu): pair %d %d",
					 t, t + 1, seed, a, b);
			if (check_pair(&m, a, b, &p, why, sizeof(why))) {
				if (!bad_pairs++) {
					char sa[P2PD_ADDR_STRLEN];
					char sb[P2PD_ADDR_STRLEN];

					addr_str(m.fn[a].addr, sa);
					addr_str(m.fn[b].addr, sb);
					snprintf(first_pair, sizeof(first_pair),
						 "tree %lu (replay: test_random %lu %llu), pair %s %s: %s",
						 t, t + 1, seed, sa, sb, why);
				}
			}
			unknown += p.verdict == P2PD_VERDICT_UNKNOWN;
		}

		text = format_topology(&m);
		why[0] = 0;
		if (!text)
			snprintf(why, sizeof(why), "format failed");
		else if (topo_parse(text, strlen(text), &back, err, sizeof(err)))
			snprintf(why, sizeof(why), "parse: %s", err);
		else {
			model_equal(&m, &back, why, sizeof(why));
			p2pd_model_free(&back);
		}
		if (why[0] && !bad_trips++)
			snprintf(first_trip, sizeof(first_trip), "seed %llu: %s",
				 s, why);
		free(text);
		free(host_index);
		free(m.fn);
	}
	printf("# %lu trees (%lu with a missing bridge), %lu pairs, %lu unknown\n",
	       trees, cut_trees, pairs, unknown);
	ktap_result(&k, !bad_pairs, first_pair,
		    "random trees: %lu pairs agree with the kernel oracle and invariants (%lu bad)",
		    pairs, bad_pairs);
	ktap_result(&k, !bad_trips, first_trip,
		    "random trees: format then parse gives the same model (%lu bad)",
		    bad_trips);
	ktap_result(&k, !bad_index, first_index,
		    "random trees: judged with the host-bridge index, every pair as without it (%lu differ)",
		    bad_index);
	ktap_result(&k, pairs > trees && unknown > 0, "too few pairs or no unknown pair: the generator is too tame",
		    "random trees: generator covers pairs and unknown verdicts");
	return ktap_finish(&k);
}
