// SPDX-License-Identifier: GPL-2.0
/*
 * fabric_topology: a disaggregated PCIe fabric whose endpoints share no
 * endpoint group (tests/unit/engine/fabric_model.h), as a topology file
 * (the module's format, for p2pdiag-check --topology-file).
 *
 *   fabric_topology ENDPOINTS [REDIRECT]  > fabric.topo
 *
 * REDIRECT 1: the first switch's downstream ports redirect, so that its
 * pairs (at most 496) need a look and the rest stay fine.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fabric_model.h"
#include "topology_out.h"

int main(int argc, char **argv)
{
	unsigned int n, redirect;
	struct p2pd_model m;
	int rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: fabric_topology ENDPOINTS [REDIRECT]\n");
		return 2;
	}
	n = arg_number("fabric_topology", argv[1], "ENDPOINTS", FABRIC_ENDPOINTS_MAX);
	redirect = argc > 2 ? arg_number("fabric_topology", argv[2], "REDIRECT", 1) : 0;
	if (fabric_model(&m, n, (int)redirect)) {
		perror("fabric_topology");
		return 1;
	}
	rc = write_topology("fabric_topology", &m);
	free(m.fn);
	return rc;
}
