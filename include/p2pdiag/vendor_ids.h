/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PCI vendor IDs the engine and the tool decide on, each defined once.
 *
 * 0x1ae0 (Google) has two meanings, told apart by the function it is on:
 * on a root bus's host bridge it is the 7.1 P2PDMA whitelist's Google
 * entry (verdict.c's host-bridge test); on a device it is the gVNIC/gVE
 * paravirtual NIC of a Compute Engine guest (p2pd_paravirtual_vendor(),
 * which pairs and the vm-paravirtual note use).  Pairs are between
 * devices, never host bridges, so neither use sees the other's functions.
 */
#ifndef P2PDIAG_VENDOR_IDS_H
#define P2PDIAG_VENDOR_IDS_H

#define P2PD_VENDOR_INTEL	0x8086
#define P2PD_VENDOR_AMD		0x1022
#define P2PD_VENDOR_HYGON	0x1d94
#define P2PD_VENDOR_NVIDIA	0x10de
#define P2PD_VENDOR_ZHAOXIN	0x1d17
#define P2PD_VENDOR_ALIBABA	0x1ded
#define P2PD_VENDOR_GOOGLE	0x1ae0	/* two meanings: see above */
/* paravirtual devices' vendors */
#define P2PD_VENDOR_VIRTIO	0x1af4	/* Red Hat, virtio */
#define P2PD_VENDOR_MICROSOFT	0x1414	/* Hyper-V */
#define P2PD_VENDOR_VMWARE	0x15ad
#define P2PD_VENDOR_XEN		0x5853

#endif /* P2PDIAG_VENDOR_IDS_H */
