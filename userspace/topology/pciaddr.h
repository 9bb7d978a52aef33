/* SPDX-License-Identifier: GPL-2.0 */
/* PCI addresses as people type and read them: "dddd:bb:dd.f". */
#ifndef P2PDIAG_PCIADDR_H
#define P2PDIAG_PCIADDR_H

#include "p2pdiag/model.h"

/*
 * pciaddr_parse() - "dddd:bb:dd.f" or "bb:dd.f" (domain 0) to P2PD_ADDR();
 * the domain one to eight hex digits, up to ffffffff ("10000:e1:00.0"
 * behind Intel VMD).
 * Return: 0, or -1 when @s is not exactly such an address.
 */
int pciaddr_parse(const char *s, unsigned long long *addr);

/* @addr as "dddd:bb:dd.f" into @buf; returns @buf. */
char *pciaddr_format(char buf[P2PD_ADDR_STRLEN], unsigned long long addr);

/*
 * @addr as NVML and dcgm-exporter spell a GPU's bus id ("00000000:1B:00.0":
 * eight domain digits, upper case) into @buf; returns @buf.
 */
#define PCIADDR_NVML_STRLEN	17
char *pciaddr_format_nvml(char buf[PCIADDR_NVML_STRLEN], unsigned long long addr);

/* @host_bridge, P2PD_HOST_BRIDGE(), as "dddd:bb" into @buf; returns @buf. */
char *pciaddr_format_host_bridge(char buf[P2PD_HOST_BRIDGE_STRLEN],
				 unsigned long long host_bridge);

#endif /* P2PDIAG_PCIADDR_H */
