/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A second, deliberately naive statement of how Linux's p2pdma decides a
 * pair (drivers/pci/p2pdma.c, calc_map_type_and_dist(), 5.10 to 7.x, the
 * host-bridge test as of the model's kernel release):
 * step from the provider up one bridge at a time and, at each step, search
 * the client's whole chain for it.  The engine finds the same answer its
 * own way; the tests require the two to agree on every pair.
 */
#ifndef P2PD_TEST_KERNEL_ORACLE_H
#define P2PD_TEST_KERNEL_ORACLE_H

#include "p2pdiag/model.h"
#include "p2pdiag/verdict.h"

/*
 * oracle_map() - map type and distance for provider @a and client @b
 * (indices into @m->fn), as the kernel would compute them.  A port whose
 * ACS control could not be read counts as redirecting, as the kernel's
 * all-ones read does, and sets *unreadable.
 * Return: the map; *dist the distance; *usable 0 when the oracle cannot
 * judge (a parent missing from the model).
 */
enum p2pd_map oracle_map(const struct p2pd_model *m, int a, int b, int *dist,
			 int *usable, int *unreadable);

/*
 * oracle_host_bridge_blocks() - whether the host bridge of @a (@side 0) or
 * of @b (@side 1) is one the kernel's host-bridge test fails on for the
 * pair; side 1 of a pair on one host bridge never is (it is asked once).
 */
int oracle_host_bridge_blocks(const struct p2pd_model *m, int a, int b,
			      int side);

/*
 * Whether the whitelist of kernel @release (P2PD_RELEASE(); 0: the newest)
 * lists this root-bus device.
 */
int oracle_whitelisted(unsigned int release, unsigned int vendor,
		       unsigned int device, int same_host_bridge);

#endif /* P2PD_TEST_KERNEL_ORACLE_H */
