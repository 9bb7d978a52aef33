// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for topo_parse(): any input either is refused with a
 * message or gives a model that the engine can judge and the formatter
 * writes back to text that parses to the same model.  Anything else
 * (a crash, a sanitizer report, a broken round trip) aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"
#include "model_util.h"
#include "topology/topology_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p2pd_model m, back;
	char err[256], why[512];
	struct p2pd_buf b;
	struct p2pd_pair p;
	int x = P2PD_NO_INDEX, y = P2PD_NO_INDEX;
	char *text;

	if (topo_parse((const char *)data, size, &m, err, sizeof(err))) {
		if (!err[0] || m.fn || m.nr_fn)
			abort();	/* refused without a reason, or leaked */
		return 0;
	}
	if (p2pd_model_check(&m))
		abort();		/* not sorted, or duplicates */

	/* the engine on every pair, the pairs file counted, not stored */
	while (p2pd_next_pair(&m, &x, &y))
		if (p2pd_judge(&m, x, y, &p))
			abort();
	p2pd_buf_init(&b, NULL, 0);
	p2pd_format_pairs(&b, &m);

	text = format_topology(&m);
	if (!text)
		abort();
	if (topo_parse(text, strlen(text), &back, err, sizeof(err))) {
		fprintf(stderr, "formatted text refused: %s\n", err);
		abort();
	}
	if (model_equal(&m, &back, why, sizeof(why))) {
		fprintf(stderr, "round trip differs: %s\n", why);
		abort();
	}
	p2pd_model_free(&back);
	free(text);
	p2pd_model_free(&m);
	return 0;
}
