/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the topology generators (sriov_topology, fabric_topology) share:
 * reading a number from the command line and writing a model as the
 * module's topology file.
 */
#ifndef P2PD_BENCH_TOPOLOGY_OUT_H
#define P2PD_BENCH_TOPOLOGY_OUT_H

#include "p2pdiag/model.h"

/* @s as a number from 0 to @max; else a message naming @what and exit 2. */
unsigned int arg_number(const char *prog, const char *s, const char *what,
			unsigned long max);

/* @m as a topology file on stdout.  Return: 0, or 1 with a message. */
int write_topology(const char *prog, const struct p2pd_model *m);

#endif /* P2PD_BENCH_TOPOLOGY_OUT_H */
