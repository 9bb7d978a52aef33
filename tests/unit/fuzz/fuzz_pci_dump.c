// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the --pci-dump reader (pci_source_read() on an
 * `lspci -xxxx` text, through libpci's dump back-end): any input is either
 * refused with a message, leaving no model behind, or gives a model that
 * is sorted, free of duplicates, whose parents exist, that the engine
 * judges on every pair, and whose topology text the tool's own parser
 * reads back (a saved topology is the same language).  Anything else
 * aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "fuzz_file.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"
#include "topology/format_text.h"
#include "topology/source_pci.h"
#include "topology/topology_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_model(const struct p2pd_model *m)
{
	int x = P2PD_NO_INDEX, y = P2PD_NO_INDEX;
	struct p2pd_pair p;
	struct p2pd_model back;
	struct p2pd_buf b;
	char err[256], *text;
	unsigned int i;
	size_t len;

	if (p2pd_model_check(m)) {
		fprintf(stderr, "model not sorted, or an address twice\n");
		abort();
	}
	for (i = 0; i < m->nr_fn; i++)
		if (m->fn[i].has_parent &&
		    p2pd_model_find(m, m->fn[i].parent) == P2PD_NO_INDEX) {
			fprintf(stderr, "function %u names a parent that is not there\n", i);
			abort();
		}
	while (p2pd_next_pair(m, &x, &y))
		if (p2pd_judge(m, x, y, &p)) {
			fprintf(stderr, "the engine refused a pair of a model it was given\n");
			abort();
		}
	p2pd_buf_init(&b, NULL, 0);
	p2pd_format_pairs(&b, m);
	text = format_text(p2pd_format_topology, m, &len);
	if (!text)
		abort();
	if (topo_parse(text, len, &back, err, sizeof(err))) {
		fprintf(stderr, "the dump's model, written as a topology, is refused: %s\n%s",
			err, text);
		abort();
	}
	p2pd_model_free(&back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p2pd_model m = { 0 };
	char err[512];

	err[0] = '\0';
	if (pci_source_read(fuzz_file(data, size), &m, err, sizeof(err))) {
		if (!err[0] || m.fn || m.nr_fn) {
			fprintf(stderr, "refused without a reason, or left a model\n");
			abort();
		}
		return 0;
	}
	check_model(&m);
	p2pd_model_free(&m);
	return 0;
}
