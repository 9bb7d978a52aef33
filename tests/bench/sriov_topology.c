// SPDX-License-Identifier: GPL-2.0
/*
 * sriov_topology: a synthetic SR-IOV server as a topology file (the
 * module's format, for p2pdiag-check --topology-file), from the builder
 * the engine's tests use (tests/unit/engine/sriov_model.c).
 *
 *   sriov_topology SWITCHES NICS VFS [DIRECT_NICS [VF_LINK]]  > server.topo
 *
 * SWITCHES root ports with a switch each, NICS NICs (one PF, VFS VFs) per
 * switch, DIRECT_NICS more on root ports of their own.  8 8 7 gives 512
 * endpoints, 8 8 63 gives 4,096 (64 PFs with 63 VFs each).  VF_LINK 1:
 * the VFs report their PF's link, as QEMU's do (one endpoint group per
 * NIC); 0 (the default): no link registers (a group for the PF, one for
 * its VFs).
 */
#include <stdio.h>
#include <stdlib.h>

#include "sriov_model.h"
#include "topology_out.h"

int main(int argc, char **argv)
{
	struct sriov_spec spec = { 0 };
	struct p2pd_model m;
	int rc;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: sriov_topology SWITCHES NICS VFS [DIRECT_NICS [VF_LINK]]\n");
		return 2;
	}
	spec.switches = arg_number("sriov_topology", argv[1], "SWITCHES", 255);
	spec.nics = arg_number("sriov_topology", argv[2], "NICS", 255);
	spec.vfs = arg_number("sriov_topology", argv[3], "VFS", 255);
	spec.direct_nics = argc > 4 ? arg_number("sriov_topology", argv[4], "DIRECT_NICS", 255) : 0;
	spec.vf_link = argc > 5 ? arg_number("sriov_topology", argv[5], "VF_LINK", 255) != 0 : 0;
	if (sriov_model(&spec, &m)) {
		fprintf(stderr, "sriov_topology: %u switches x %u NICs x %u VFs does not fit (at most 25 switches, 8 NICs a switch, 255 VFs)\n",
			spec.switches, spec.nics, spec.vfs);
		return 2;
	}
	rc = write_topology("sriov_topology", &m);
	free(m.fn);
	return rc;
}
