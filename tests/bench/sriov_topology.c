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

#include "p2pdiag/format.h"
#include "sriov_model.h"
#include "topology/format_text.h"

static unsigned int number(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > 255) {
		fprintf(stderr, "sriov_topology: %s '%s' is not a number from 0 to 255\n",
			what, s);
		exit(2);
	}
	return (unsigned int)v;
}

int main(int argc, char **argv)
{
	struct sriov_spec spec = { 0 };
	struct p2pd_model m;
	size_t len;
	char *text;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: sriov_topology SWITCHES NICS VFS [DIRECT_NICS [VF_LINK]]\n");
		return 2;
	}
	spec.switches = number(argv[1], "SWITCHES");
	spec.nics = number(argv[2], "NICS");
	spec.vfs = number(argv[3], "VFS");
	spec.direct_nics = argc > 4 ? number(argv[4], "DIRECT_NICS") : 0;
	spec.vf_link = argc > 5 ? number(argv[5], "VF_LINK") != 0 : 0;
	if (sriov_model(&spec, &m)) {
		fprintf(stderr, "sriov_topology: %u switches x %u NICs x %u VFs does not fit (at most 25 switches, 8 NICs a switch, 255 VFs)\n",
			spec.switches, spec.nics, spec.vfs);
		return 2;
	}
	text = format_text(p2pd_format_topology_file, &m, &len);
	if (!text || fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
		perror("sriov_topology");
		return 1;
	}
	free(text);
	free(m.fn);
	return 0;
}
