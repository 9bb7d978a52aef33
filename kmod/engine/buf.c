// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded output buffer every ABI text is written into (format.h):
 * counting, windows for sysfs reads at an offset, and the primitives that
 * put characters, numbers, addresses and speeds.  Freestanding, like the
 * rest of the engine.
 */
#include "p2pdiag/format.h"

void p2pd_buf_init(struct p2pd_buf *b, char *p, unsigned long size)
{
	b->p = p;
	b->size = p ? size : 0;
	b->len = 0;
	b->skip = 0;
	b->overflow = 0;
	b->resched = P2PD_NULL;
}

void p2pd_buf_init_window(struct p2pd_buf *b, char *p, unsigned long size,
			  unsigned long skip)
{
	p2pd_buf_init(b, p, size);
	b->skip = skip;
}

void p2pd_buf_init_window_at(struct p2pd_buf *b, char *p, unsigned long size,
			     unsigned long skip, unsigned long at)
{
	p2pd_buf_init_window(b, p, size, skip);
	b->len = at;
}

void p2pd_buf_init_cap(struct p2pd_buf *b, unsigned long cap)
{
	p2pd_buf_init(b, P2PD_NULL, 0);
	b->size = cap;
}

int p2pd_buf_full(const struct p2pd_buf *b)
{
	return b->overflow;
}

int p2pd_buf_terminate(struct p2pd_buf *b)
{
	if (!b->p || !b->size)
		return b->overflow ? -1 : 0;
	if (b->len < b->size) {
		b->p[b->len] = 0;
		return b->overflow ? -1 : 0;
	}
	b->p[b->size - 1] = 0;
	b->overflow = 1;
	return -1;
}

void p2pd_put_char(struct p2pd_buf *b, char c)
{
	if (b->len < b->skip) {
		b->len++;
		return;
	}
	if (b->len - b->skip < b->size) {
		if (b->p)
			b->p[b->len - b->skip] = c;
	} else if (b->p || b->size) {
		b->overflow = 1;
	}
	b->len++;
}

void p2pd_put_str(struct p2pd_buf *b, const char *s)
{
	while (s && *s)
		p2pd_put_char(b, *s++);
}

void p2pd_put_udec(struct p2pd_buf *b, unsigned long v)
{
	char digits[24];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		p2pd_put_char(b, digits[--n]);
}

void p2pd_put_dec(struct p2pd_buf *b, long v)
{
	if (v < 0) {
		p2pd_put_char(b, '-');
		p2pd_put_udec(b, 0ul - (unsigned long)v);
	} else {
		p2pd_put_udec(b, (unsigned long)v);
	}
}

void p2pd_put_hex(struct p2pd_buf *b, unsigned long v, unsigned int digits)
{
	static const char hex[] = "0123456789abcdef";
	char out[16];
	unsigned int n = 0;

	do {
		out[n++] = hex[v & 0xf];
		v >>= 4;
	} while (v && n < sizeof(out));
	while (n < digits && n < sizeof(out))
		out[n++] = '0';
	while (n)
		p2pd_put_char(b, out[--n]);
}

void p2pd_put_addr(struct p2pd_buf *b, unsigned long long addr)
{
	p2pd_put_hex(b, P2PD_ADDR_DOMAIN(addr), 4);
	p2pd_put_char(b, ':');
	p2pd_put_hex(b, P2PD_ADDR_BUS(addr), 2);
	p2pd_put_char(b, ':');
	p2pd_put_hex(b, P2PD_ADDR_DEV(addr), 2);
	p2pd_put_char(b, '.');
	p2pd_put_hex(b, P2PD_ADDR_FN(addr), 1);
}

void p2pd_put_host_bridge(struct p2pd_buf *b, unsigned long long host_bridge)
{
	p2pd_put_hex(b, P2PD_HOST_BRIDGE_DOMAIN(host_bridge), 4);
	p2pd_put_char(b, ':');
	p2pd_put_hex(b, P2PD_HOST_BRIDGE_BUS(host_bridge), 2);
}

void p2pd_put_speed(struct p2pd_buf *b, unsigned int tenths)
{
	p2pd_put_udec(b, tenths / 10);
	p2pd_put_char(b, '.');
	p2pd_put_udec(b, tenths % 10);
}
