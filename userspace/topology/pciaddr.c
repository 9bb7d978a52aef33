// SPDX-License-Identifier: GPL-2.0
/*
 * PCI address text as people write it (options, lspci, files of other
 * tools): the domain may be left out and fields need no leading zeros.
 * What the module publishes is read with the engine's p2pd_parse_addr(),
 * which takes its one spelling only.  Still strict otherwise (hex fields
 * of the right width, a function from 0 to 7, nothing after it), because
 * an address that reads as another one would select the wrong device.
 */
#include <stdio.h>
#include <string.h>

#include "topology/pciaddr.h"
#include "p2pdiag/format.h"
#include "p2pdiag/parse.h"

/*
 * @len (1 to @digits) hex digits at @s, at most @max: the user's looser
 * spelling (no leading zeros needed), digit by digit as the engine reads.
 */
static int hex_field(const char *s, size_t len, size_t digits,
		     unsigned int max, unsigned int *v)
{
	size_t i;

	*v = 0;
	if (!len || len > digits)
		return -1;
	for (i = 0; i < len; i++) {
		int d = p2pd_hex_digit(s[i]);

		if (d < 0)
			return -1;
		*v = *v * 16 + (unsigned int)d;
	}
	return *v <= max ? 0 : -1;
}

int pciaddr_parse(const char *s, unsigned long long *addr)
{
	const char *c1 = strchr(s, ':'), *c2, *dot;
	unsigned int dom = 0, bus, dev, fn;

	if (!c1)
		return -1;
	c2 = strchr(c1 + 1, ':');
	if (c2) {
		/* lspci's and sysfs's domains reach ffffffff (Intel VMD: 10000 up) */
		if (hex_field(s, (size_t)(c1 - s), 8, 0xffffffffu, &dom))
			return -1;
		s = c1 + 1;
		c1 = c2;
	}
	dot = strchr(c1 + 1, '.');
	if (!dot || strchr(dot + 1, '.') || strchr(dot + 1, ':'))
		return -1;
	if (hex_field(s, (size_t)(c1 - s), 4, 0xff, &bus) ||
	    hex_field(c1 + 1, (size_t)(dot - c1 - 1), 4, 0x1f, &dev) ||
	    strlen(dot + 1) != 1 || dot[1] < '0' || dot[1] > '7')
		return -1;
	fn = (unsigned int)(dot[1] - '0');
	*addr = P2PD_ADDR(dom, bus, dev, fn);
	return 0;
}

char *pciaddr_format(char buf[P2PD_ADDR_STRLEN], unsigned long long addr)
{
	struct p2pd_buf b;

	/* the engine's spelling, so the tool's text matches the module's */
	p2pd_buf_init(&b, buf, P2PD_ADDR_STRLEN);
	p2pd_put_addr(&b, addr);
	p2pd_buf_terminate(&b);
	return buf;
}

char *pciaddr_format_nvml(char buf[PCIADDR_NVML_STRLEN], unsigned long long addr)
{
	snprintf(buf, PCIADDR_NVML_STRLEN, "%08X:%02X:%02X.%X",
		 P2PD_ADDR_DOMAIN(addr), P2PD_ADDR_BUS(addr),
		 P2PD_ADDR_DEV(addr), P2PD_ADDR_FN(addr));
	return buf;
}

char *pciaddr_format_host_bridge(char buf[P2PD_HOST_BRIDGE_STRLEN],
				 unsigned long long host_bridge)
{
	struct p2pd_buf b;

	p2pd_buf_init(&b, buf, P2PD_HOST_BRIDGE_STRLEN);
	p2pd_put_host_bridge(&b, host_bridge);
	p2pd_buf_terminate(&b);
	return buf;
}
