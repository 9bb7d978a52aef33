// SPDX-License-Identifier: GPL-2.0
/*
 * The inverse of buf.c's address writers: one spelling in, or nothing.
 * Freestanding, like the rest of the engine: the module reads its own
 * kobject names with it, the tool the files the module publishes.
 */
#include "p2pdiag/parse.h"

int p2pd_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int p2pd_parse_hex(const char *s, unsigned int digits, unsigned int *out)
{
	unsigned int i, v = 0;

	for (i = 0; i < digits; i++) {
		int d = p2pd_hex_digit(s[i]);

		if (d < 0)
			return -1;
		v = v << 4 | (unsigned int)d;
	}
	*out = v;
	return 0;
}

/*
 * The domain that starts @s, up to its ':', as p2pd_put_hex(.., 4) writes
 * it: four hex digits, or five to eight without a leading zero.
 * Return: the text after the ':', or P2PD_NULL.
 */
static const char *abi_domain(const char *s, unsigned int *dom)
{
	unsigned int n = 0;

	while (n <= 8 && s[n] && s[n] != ':')
		n++;
	if (s[n] != ':' || n < 4 || n > 8 || (n > 4 && s[0] == '0') ||
	    p2pd_parse_hex(s, n, dom))
		return P2PD_NULL;
	return s + n + 1;
}

int p2pd_parse_addr(const char *s, unsigned long long *addr)
{
	unsigned int dom, bus, dev;

	s = abi_domain(s, &dom);
	/* then "bb:dd.f" and its end */
	if (!s || p2pd_parse_hex(s, 2, &bus) || s[2] != ':' ||
	    p2pd_parse_hex(s + 3, 2, &dev) || s[5] != '.' ||
	    s[6] < '0' || s[6] > '7' || s[7] || dev > 0x1f)
		return -1;
	*addr = P2PD_ADDR(dom, bus, dev, (unsigned int)(s[6] - '0'));
	return 0;
}

int p2pd_parse_host_bridge(const char *s, unsigned long long *host_bridge)
{
	unsigned int dom, bus;

	s = abi_domain(s, &dom);
	if (!s || p2pd_parse_hex(s, 2, &bus) || s[2])
		return -1;
	*host_bridge = P2PD_HOST_BRIDGE(dom, bus);
	return 0;
}
