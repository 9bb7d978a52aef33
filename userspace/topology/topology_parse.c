// SPDX-License-Identifier: GPL-2.0
/*
 * The topology file, text to model.  The inverse of p2pd_format_topology()
 * in kmod/engine/format.c: the names of roles, IOMMU domains and fields
 * come from the same tables (verdict.c, format.c), so the two cannot
 * drift apart without the round-trip test noticing.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"
#include "topology/topology_parse.h"

/* A function and the line it came from, for messages after sorting. */
struct parsed_fn {
	struct p2pd_function f;
	unsigned int line;
};

struct parser {
	const char *text;
	size_t len;
	size_t pos;
	unsigned int line;	/* number of the line being read, from 1 */
	char *err;
	size_t errlen;
	struct parsed_fn *fns;
	unsigned int nr, cap;
};

/* Values of one line's ACS and link fields until they can be checked together. */
struct line_fields {
	unsigned int seen;	/* bit per enum p2pd_field */
	enum p2pd_state acs_cap_state, acs_ctrl_state, acs_words_state;
	unsigned int acs_words_bits;
	enum p2pd_state link_state[4];
	const char *link_word[4];
};

static int fail(struct parser *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!p->err || !p->errlen)
		return -1;
	if (line)
		n = snprintf(p->err, p->errlen, "line %u: ", line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Up to 40 bytes of @s for an error message, with anything but printable
 * ASCII shown as '?' (the input may be any bytes at all).
 */
static const char *shown(const char *s, size_t n, char out[44])
{
	size_t i;

	for (i = 0; i < n && i < 40 && s[i]; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (i == 40 && i < n && s[i])
		out[i++] = '.', out[i++] = '.';
	out[i] = 0;
	return out;
}

/* ---- value syntax ------------------------------------------------------ */

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly @digits hex digits at @s; the value in *out. */
static int hex_run(const char *s, unsigned int digits, unsigned int *out)
{
	unsigned int i, v = 0;

	for (i = 0; i < digits; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return -1;
		v = v << 4 | (unsigned int)d;
	}
	*out = v;
	return 0;
}

/* "dddd:bb:dd.f" exactly, device 00..1f, function 0..7. */
static int parse_addr(const char *s, unsigned int *out)
{
	unsigned int dom, bus, dev, fn;

	if (strlen(s) != P2PD_ADDR_STRLEN - 1 || s[4] != ':' || s[7] != ':' ||
	    s[10] != '.')
		return -1;
	if (hex_run(s, 4, &dom) || hex_run(s + 5, 2, &bus) ||
	    hex_run(s + 8, 2, &dev) || s[11] < '0' || s[11] > '7')
		return -1;
	fn = (unsigned int)(s[11] - '0');
	if (dev > 0x1f)
		return -1;
	*out = P2PD_ADDR(dom, bus, dev, fn);
	return 0;
}

/* "dddd:bb": a root bus. */
static int parse_host_bridge(const char *s, unsigned int *out)
{
	unsigned int dom, bus;

	if (strlen(s) != 7 || s[4] != ':' || hex_run(s, 4, &dom) ||
	    hex_run(s + 5, 2, &bus))
		return -1;
	*out = P2PD_HOST_BRIDGE(dom, bus);
	return 0;
}

/* "0x" and exactly @digits hex digits, as p2pd_put_hex() writes them. */
static int parse_hex_field(const char *s, unsigned int digits,
			   unsigned int *out)
{
	if (s[0] != '0' || s[1] != 'x' || strlen(s) != digits + 2)
		return -1;
	return hex_run(s + 2, digits, out);
}

/* Decimal digits only, at most @max. */
static int parse_udec(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (max - (unsigned long)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*out = v;
	return 0;
}

/* "-1" or 0..INT_MAX. */
static int parse_node(const char *s, int *out)
{
	unsigned long v;

	if (!strcmp(s, "-1")) {
		*out = -1;
		return 0;
	}
	if (parse_udec(s, INT_MAX, &v))
		return -1;
	*out = (int)v;
	return 0;
}

/* "16.0" -> 160: one digit after the point, as p2pd_put_speed() writes. */
static int parse_speed(const char *s, unsigned int *out)
{
	const char *dot = strchr(s, '.');
	char whole[8];
	unsigned long w;
	size_t n;

	if (!dot || dot == s || dot[1] < '0' || dot[1] > '9' || dot[2])
		return -1;
	n = (size_t)(dot - s);
	if (n >= sizeof(whole))
		return -1;
	memcpy(whole, s, n);
	whole[n] = 0;
	if (parse_udec(whole, 100000, &w))
		return -1;
	*out = (unsigned int)(w * 10 + (unsigned long)(dot[1] - '0'));
	return 0;
}

/* "none" / "unknown" / "suspended" / anything else (a value to parse). */
static enum p2pd_state word_state(const char *s)
{
	if (!strcmp(s, P2PD_WORD_NONE))
		return P2PD_ABSENT;
	if (!strcmp(s, P2PD_WORD_UNKNOWN))
		return P2PD_UNKNOWN;
	if (!strcmp(s, P2PD_WORD_SUSPENDED))
		return P2PD_SUSPENDED;
	return P2PD_PRESENT;
}

/*
 * lspci's words, "SrcValid+ TransBlk- ...": each known word exactly once,
 * words this version does not know are skipped.  The bits in *out.
 */
static int parse_acs_words(const char *s, unsigned int *out)
{
	unsigned int seen = 0, bits = 0, bit;

	while (*s) {
		const char *end = strchr(s, ' ');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		char sign;

		if (n < 2)
			return -1;
		sign = s[n - 1];
		if (sign != '+' && sign != '-')
			return -1;
		bit = p2pd_acs_word_bit(s, n - 1);
		if (bit) {
			if (seen & bit)
				return -1;
			seen |= bit;
			if (sign == '+')
				bits |= bit;
		}
		s += n;
		if (*s == ' ' && !*++s)
			return -1;	/* trailing space */
	}
	if (seen != (P2PD_ACS_SV | P2PD_ACS_TB | P2PD_ACS_RR | P2PD_ACS_CR |
		     P2PD_ACS_UF | P2PD_ACS_EC | P2PD_ACS_DT))
		return -1;
	*out = bits;
	return 0;
}

/* "\x20" (any "\xHH" but NUL and newline) back to the byte; 0 or -1. */
static int unescape(const char *s, size_t n, char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		int hi, lo, c;

		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		if (i + 3 >= n || s[i + 1] != 'x')
			return -1;
		hi = hex_digit(s[i + 2]);
		lo = hex_digit(s[i + 3]);
		if (hi < 0 || lo < 0)
			return -1;
		c = hi << 4 | lo;
		if (c == 0 || c == '\n')
			return -1;
		out[o++] = (char)c;
		i += 3;
	}
	out[o] = 0;
	return 0;
}

/* ---- lines ------------------------------------------------------------- */

/*
 * Next line into @buf (without newline or a trailing CR); its length in
 * *n.  Returns 1 with a line, 0 at the end, -1 on error.
 */
static int next_line(struct parser *p, char *buf, size_t *n)
{
	const char *start, *nl;
	size_t len;

	if (p->pos >= p->len)
		return 0;
	start = p->text + p->pos;
	nl = memchr(start, '\n', p->len - p->pos);
	len = nl ? (size_t)(nl - start) : p->len - p->pos;
	p->pos += len + (nl ? 1 : 0);
	p->line++;
	if (len && start[len - 1] == '\r')
		len--;
	if (len > TOPO_MAX_LINE)
		return fail(p, p->line, "longer than %d bytes", TOPO_MAX_LINE);
	if (memchr(start, 0, len))
		return fail(p, p->line, "contains a NUL byte");
	memcpy(buf, start, len);
	buf[len] = 0;
	*n = len;
	return 1;
}

/*
 * Split "key=value" tokens separated by spaces.  Calls @fn for each with
 * the key and the unescaped value; stops at the first error.
 */
typedef int (*token_fn)(struct parser *p, void *ctx, const char *key,
			const char *value);

static int for_each_token(struct parser *p, char *line, token_fn fn,
			  void *ctx)
{
	char value[TOPO_MAX_LINE + 1], buf[44];
	char *s = line;

	while (*s) {
		char *end, *eq;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		end = s;
		while (*end && *end != ' ' && *end != '\t')
			end++;
		eq = memchr(s, '=', (size_t)(end - s));
		if (!eq || eq == s)
			return fail(p, p->line, "\"%s\" is not key=value",
				    shown(s, (size_t)(end - s), buf));
		*eq = 0;
		if (unescape(eq + 1, (size_t)(end - eq - 1), value))
			return fail(p, p->line, "%s: bad escape in value",
				    shown(s, (size_t)(eq - s), buf));
		if (*end)
			*end++ = 0;
		if (fn(p, ctx, s, value))
			return -1;
		s = end;
	}
	return 0;
}

/* ---- the header ---------------------------------------------------------- */

struct header_ctx {
	struct topo_header *hdr;
	unsigned int seen;	/* 1 abi, 2 generation, 4 functions, 8 cpu */
	unsigned int cpu_flags;
};

static int header_token(struct parser *p, void *ctx, const char *key,
			const char *value)
{
	struct header_ctx *h = ctx;
	unsigned long v;
	unsigned int bit;
	char buf[44];

	if (!strcmp(key, "abi"))
		bit = 1;
	else if (!strcmp(key, "generation"))
		bit = 2;
	else if (!strcmp(key, "functions"))
		bit = 4;
	else if (!strcmp(key, "cpu"))
		bit = 8;
	else if (!strcmp(key, "pairs"))
		return fail(p, p->line, "this is a pairs file, not a topology file");
	else
		return 0;	/* a newer module's header key */
	if (h->seen & bit)
		return fail(p, p->line, "header repeats %s=", key);
	h->seen |= bit;

	switch (bit) {
	case 1:
		if (parse_udec(value, UINT_MAX, &v))
			return fail(p, p->line, "abi=%s is not a number",
				    shown(value, strlen(value), buf));
		if (v != P2PD_ABI_VERSION)
			return fail(p, p->line,
				    "abi=%lu: this reader knows abi=%d only",
				    v, P2PD_ABI_VERSION);
		h->hdr->abi = (unsigned int)v;
		break;
	case 2:
		if (parse_udec(value, ULONG_MAX, &v))
			return fail(p, p->line, "generation=%s is not a number",
				    shown(value, strlen(value), buf));
		h->hdr->generation = v;
		break;
	case 4:
		if (parse_udec(value, UINT_MAX, &v))
			return fail(p, p->line, "functions=%s is not a number",
				    shown(value, strlen(value), buf));
		if (v > TOPO_MAX_FUNCTIONS)
			return fail(p, p->line,
				    "functions=%lu: more than the %d this reader accepts",
				    v, TOPO_MAX_FUNCTIONS);
		h->hdr->functions = (unsigned int)v;
		break;
	default:
		if (p2pd_cpu_word_flags(value, strlen(value), &h->cpu_flags))
			return fail(p, p->line,
				    "cpu=%s: expected amd_zen, amd or other",
				    shown(value, strlen(value), buf));
		h->hdr->cpu_known = 1;
		break;
	}
	return 0;
}

static int parse_header(struct parser *p, char *line, struct topo_header *hdr,
			unsigned int *cpu_flags)
{
	/* "# p2pdiag abi=": the tokens start at "abi=" */
	static const char prefix[] = P2PD_HEADER_PREFIX;
	struct header_ctx h = { .hdr = hdr };

	if (strncmp(line, prefix, sizeof(prefix) - 1))
		return fail(p, p->line,
			    "not a p2pdiag topology file: the first line must start with \"%s\"",
			    P2PD_HEADER_PREFIX);
	/* tokens from "abi=" on: the prefix without its last four bytes */
	if (for_each_token(p, line + sizeof(prefix) - 1 - 4, header_token, &h))
		return -1;
	if (!(h.seen & 2))
		return fail(p, p->line, "header has no generation=");
	if (!(h.seen & 4))
		return fail(p, p->line, "header has no functions=");
	*cpu_flags = h.cpu_flags;
	return 0;
}

/* ---- function lines ---------------------------------------------------- */

struct fn_ctx {
	struct p2pd_function *f;
	struct line_fields lf;
	int have_addr;
};

static int field_index(const char *key)
{
	int i;

	for (i = 0; i < P2PD_F_COUNT; i++)
		if (!strcmp(key, p2pd_field_name((enum p2pd_field)i)))
			return i;
	return -1;
}

static int bad_value(struct parser *p, const char *key, const char *value)
{
	char buf[44];

	return fail(p, p->line, "%s=%s is not a valid value", key,
		    shown(value, strlen(value), buf));
}

static int parse_role(const char *s, enum p2pd_role *out)
{
	int i;

	for (i = 0; i < P2PD_ROLE_COUNT; i++)
		if (!strcmp(s, p2pd_role_name((enum p2pd_role)i))) {
			*out = (enum p2pd_role)i;
			return 0;
		}
	return -1;
}

static int parse_iommu_domain(const char *s, enum p2pd_iommu_domain *out)
{
	int i;

	for (i = 0; i < P2PD_IOMMU_COUNT; i++)
		if (!strcmp(s, p2pd_iommu_domain_name((enum p2pd_iommu_domain)i))) {
			*out = (enum p2pd_iommu_domain)i;
			return 0;
		}
	return -1;
}

/* "none", "unknown", "disabled" or "enabled stu=<0..31>". */
static int parse_ats(const char *s, struct p2pd_function *f)
{
	unsigned long stu;

	f->ats = word_state(s);
	f->ats_enabled = 0;
	f->ats_stu = 0;
	if (f->ats != P2PD_PRESENT)
		return 0;
	if (!strcmp(s, "disabled"))
		return 0;
	if (strncmp(s, "enabled stu=", 12) || parse_udec(s + 12, 31, &stu))
		return -1;
	f->ats_enabled = 1;
	f->ats_stu = (unsigned int)stu;
	return 0;
}

static int link_value(const char *s, int is_speed, unsigned int *out,
		      enum p2pd_state *state)
{
	unsigned long v;

	*state = word_state(s);
	if (*state != P2PD_PRESENT)
		return 0;
	if (is_speed)
		return parse_speed(s, out);
	if (parse_udec(s, 32, &v))
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static int fn_token(struct parser *p, void *ctx, const char *key,
		    const char *value)
{
	struct fn_ctx *c = ctx;
	struct p2pd_function *f = c->f;
	struct line_fields *lf = &c->lf;
	unsigned long v;
	char buf[44];
	int field;

	if (!c->have_addr) {
		if (strcmp(key, "addr"))
			return fail(p, p->line,
				    "a function line starts with addr=, not %s=",
				    shown(key, strlen(key), buf));
		if (parse_addr(value, &f->addr))
			return fail(p, p->line,
				    "addr=%s is not a dddd:bb:dd.f address",
				    shown(value, strlen(value), buf));
		c->have_addr = 1;
		return 0;
	}
	if (!strcmp(key, "addr"))
		return fail(p, p->line, "two addr= on one line");
	field = field_index(key);
	if (field < 0)
		return 0;	/* a newer module's field */
	if (lf->seen & (1u << field))
		return fail(p, p->line, "%s= appears twice", key);	/* a known name */
	lf->seen |= 1u << field;

	switch ((enum p2pd_field)field) {
	case P2PD_F_ROLE:
		if (parse_role(value, &f->role))
			return bad_value(p, key, value);
		break;
	case P2PD_F_PARENT:
		f->has_parent = strcmp(value, P2PD_WORD_NONE) != 0;
		if (f->has_parent && parse_addr(value, &f->parent))
			return bad_value(p, key, value);
		break;
	case P2PD_F_HOST_BRIDGE:
		if (parse_host_bridge(value, &f->host_bridge))
			return bad_value(p, key, value);
		break;
	case P2PD_F_NUMA_NODE:
		if (parse_node(value, &f->numa_node))
			return bad_value(p, key, value);
		break;
	case P2PD_F_VENDOR:
		if (parse_hex_field(value, 4, &f->vendor))
			return bad_value(p, key, value);
		break;
	case P2PD_F_DEVICE:
		if (parse_hex_field(value, 4, &f->device))
			return bad_value(p, key, value);
		break;
	case P2PD_F_CLASS:
		if (parse_hex_field(value, 6, &f->class_code))
			return bad_value(p, key, value);
		break;
	case P2PD_F_ACS_CAP:
		lf->acs_cap_state = word_state(value);
		if (lf->acs_cap_state == P2PD_PRESENT &&
		    parse_hex_field(value, 4, &f->acs_cap))
			return bad_value(p, key, value);
		break;
	case P2PD_F_ACS_CTRL:
		lf->acs_ctrl_state = word_state(value);
		if (lf->acs_ctrl_state == P2PD_PRESENT &&
		    parse_hex_field(value, 4, &f->acs_ctrl))
			return bad_value(p, key, value);
		break;
	case P2PD_F_ACS:
		lf->acs_words_state = word_state(value);
		if (lf->acs_words_state == P2PD_PRESENT &&
		    parse_acs_words(value, &lf->acs_words_bits))
			return bad_value(p, key, value);
		break;
	case P2PD_F_ATS:
		if (parse_ats(value, f))
			return bad_value(p, key, value);
		break;
	case P2PD_F_LINK_SPEED:
		if (link_value(value, 1, &f->link.speed, &lf->link_state[0]))
			return bad_value(p, key, value);
		break;
	case P2PD_F_LINK_WIDTH:
		if (link_value(value, 0, &f->link.width, &lf->link_state[1]))
			return bad_value(p, key, value);
		break;
	case P2PD_F_LINK_MAX_SPEED:
		if (link_value(value, 1, &f->link.max_speed,
			       &lf->link_state[2]))
			return bad_value(p, key, value);
		break;
	case P2PD_F_LINK_MAX_WIDTH:
		if (link_value(value, 0, &f->link.max_width,
			       &lf->link_state[3]))
			return bad_value(p, key, value);
		break;
	case P2PD_F_IOMMU_GROUP:
		if (!strcmp(value, P2PD_WORD_NONE))
			f->iommu_group = -1;
		else if (parse_udec(value, INT_MAX, &v))
			return bad_value(p, key, value);
		else
			f->iommu_group = (int)v;
		break;
	case P2PD_F_IOMMU_DOMAIN:
		if (parse_iommu_domain(value, &f->iommu_domain))
			return bad_value(p, key, value);
		break;
	case P2PD_F_P2P_ENDPOINT:
		if (strcmp(value, "0") && strcmp(value, "1"))
			return bad_value(p, key, value);
		f->p2p_endpoint = value[0] == '1';
		break;
	default:
		break;
	}
	return 0;
}

/* Checks that need several fields of the line. */
static int check_line(struct parser *p, struct fn_ctx *c)
{
	struct p2pd_function *f = c->f;
	struct line_fields *lf = &c->lf;
	unsigned int all = (1u << P2PD_F_COUNT) - 1, i;

	if (lf->seen != all) {
		for (i = 0; i < P2PD_F_COUNT; i++)
			if (!(lf->seen & (1u << i)))
				break;
		return fail(p, p->line, "%s= is missing",
			    p2pd_field_name((enum p2pd_field)i));
	}

	if (lf->acs_cap_state != lf->acs_ctrl_state ||
	    lf->acs_cap_state != lf->acs_words_state)
		return fail(p, p->line,
			    "acs_cap, acs_ctrl and acs disagree on whether ACS was read");
	f->acs = lf->acs_cap_state;
	if (f->acs == P2PD_PRESENT &&
	    lf->acs_words_bits != (f->acs_ctrl & 0x7f))
		return fail(p, p->line, "acs= words do not match acs_ctrl=0x%04x",
			    f->acs_ctrl);
	if (f->acs != P2PD_PRESENT)
		f->acs_cap = f->acs_ctrl = 0;

	/*
	 * A reserved speed code reads "unknown" in a link that was read
	 * (the widths say so): it stays 0, the link stays present.
	 */
	for (i = 0; i < 4; i += 2)
		if (lf->link_state[i] == P2PD_UNKNOWN &&
		    lf->link_state[1] == P2PD_PRESENT)
			lf->link_state[i] = P2PD_PRESENT;
	for (i = 1; i < 4; i++)
		if (lf->link_state[i] != lf->link_state[0])
			return fail(p, p->line,
				    "link fields disagree on whether the link was read");
	f->link.state = lf->link_state[0];
	if (f->link.state != P2PD_PRESENT)
		f->link.speed = f->link.width = f->link.max_speed =
			f->link.max_width = 0;

	/*
	 * A function without an upstream bridge sits on its root bus, or,
	 * as an SR-IOV VF of a root-bus PF, on a virtual bus above it.
	 */
	if (!f->has_parent &&
	    ((f->host_bridge >> 8) != P2PD_ADDR_DOMAIN(f->addr) ||
	     (f->host_bridge & 0xff) > P2PD_ADDR_BUS(f->addr)))
		return fail(p, p->line,
			    "parent=none but host_bridge is not the function's own or a lower bus");
	/*
	 * A bridge's secondary bus is above its own: a parent sits on a
	 * lower bus of the same domain, so parent chains end.
	 */
	if (f->has_parent &&
	    (P2PD_ADDR_DOMAIN(f->parent) != P2PD_ADDR_DOMAIN(f->addr) ||
	     P2PD_ADDR_BUS(f->parent) >= P2PD_ADDR_BUS(f->addr)))
		return fail(p, p->line,
			    "parent must be on a lower bus of the same domain");
	if (f->has_parent &&
	    ((f->host_bridge >> 8) != P2PD_ADDR_DOMAIN(f->addr) ||
	     (f->host_bridge & 0xff) >= P2PD_ADDR_BUS(f->addr)))
		return fail(p, p->line,
			    "host_bridge must be a lower bus of the same domain");

	/* Only a non-PCIe function lacks a port type; pri/pasid are not in v1. */
	f->is_pcie = f->role != P2PD_ROLE_PCI_DEVICE &&
		     f->role != P2PD_ROLE_PCI_BRIDGE;
	f->cfg_error = f->acs == P2PD_UNKNOWN || f->ats == P2PD_UNKNOWN ||
		       f->link.state == P2PD_UNKNOWN ||
		       f->acs == P2PD_SUSPENDED || f->ats == P2PD_SUSPENDED ||
		       f->link.state == P2PD_SUSPENDED;
	f->pri = f->pasid = P2PD_ABSENT;
	return 0;
}

static int add_function(struct parser *p, char *line)
{
	struct fn_ctx c;
	struct p2pd_function f;

	memset(&f, 0, sizeof(f));
	memset(&c, 0, sizeof(c));
	c.f = &f;
	if (for_each_token(p, line, fn_token, &c))
		return -1;
	if (!c.have_addr)
		return fail(p, p->line, "empty function line");
	if (check_line(p, &c))
		return -1;

	if (p->nr == TOPO_MAX_FUNCTIONS)
		return fail(p, p->line, "more than %d functions",
			    TOPO_MAX_FUNCTIONS);
	if (p->nr == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 64;
		struct parsed_fn *n = realloc(p->fns, cap * sizeof(*n));

		if (!n)
			return fail(p, p->line, "out of memory");
		p->fns = n;
		p->cap = cap;
	}
	p->fns[p->nr].f = f;
	p->fns[p->nr].line = p->line;
	p->nr++;
	return 0;
}

static int by_addr(const void *x, const void *y)
{
	const struct parsed_fn *a = x, *b = y;

	if (a->f.addr != b->f.addr)
		return a->f.addr < b->f.addr ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int by_addr_key(const void *key, const void *elem)
{
	unsigned int addr = *(const unsigned int *)key;
	const struct parsed_fn *e = elem;

	return addr < e->f.addr ? -1 : addr > e->f.addr;
}

/* After sorting: unique addresses, one host bridge along each chain. */
static int check_tree(struct parser *p)
{
	unsigned int i;

	for (i = 1; i < p->nr; i++) {
		char a[P2PD_ADDR_STRLEN];
		struct p2pd_buf b;

		if (p->fns[i].f.addr != p->fns[i - 1].f.addr)
			continue;
		p2pd_buf_init(&b, a, sizeof(a));
		p2pd_put_addr(&b, p->fns[i].f.addr);
		p2pd_buf_terminate(&b);
		return fail(p, p->fns[i].line,
			    "duplicate address %s (first on line %u)", a,
			    p->fns[i - 1].line);
	}
	for (i = 0; i < p->nr; i++) {
		const struct p2pd_function *f = &p->fns[i].f;
		const struct parsed_fn *parent;

		if (!f->has_parent)
			continue;
		parent = bsearch(&f->parent, p->fns, p->nr, sizeof(*p->fns),
				 by_addr_key);
		/* a parent missing from the file is the engine's "unknown" */
		if (parent && parent->f.host_bridge != f->host_bridge)
			return fail(p, p->fns[i].line,
				    "host_bridge differs from its parent's (line %u)",
				    parent->line);
	}
	return 0;
}

int topo_parse_ex(const char *text, size_t len, struct p2pd_model *m,
		  struct topo_header *hdr, char *err, size_t errlen)
{
	char line[TOPO_MAX_LINE + 1];
	struct parser p = {
		.text = text, .len = len, .err = err, .errlen = errlen,
	};
	struct topo_header h = { 0 };
	unsigned int cpu_flags = 0, i;
	size_t n;
	int r;

	memset(m, 0, sizeof(*m));
	if (err && errlen)
		err[0] = 0;
	if (!text && len)
		return fail(&p, 0, "no text");

	r = next_line(&p, line, &n);
	if (r <= 0)
		return r ? -1 : fail(&p, 0, "empty input: no topology header");
	if (parse_header(&p, line, &h, &cpu_flags))
		return -1;

	while ((r = next_line(&p, line, &n)) > 0) {
		if (!n || line[0] == '#')
			continue;	/* blank lines and comments */
		if (add_function(&p, line))
			goto fail_free;
	}
	if (r < 0)
		goto fail_free;
	if (p.nr != h.functions) {
		fail(&p, 1, "header says functions=%u but %u function lines follow%s",
		     h.functions, p.nr,
		     p.nr < h.functions ? " (truncated?)" : "");
		goto fail_free;
	}

	if (p.nr)
		qsort(p.fns, p.nr, sizeof(*p.fns), by_addr);
	if (check_tree(&p))
		goto fail_free;

	if (p.nr) {
		m->fn = calloc(p.nr, sizeof(*m->fn));
		if (!m->fn) {
			fail(&p, 0, "out of memory");
			goto fail_free;
		}
	}
	for (i = 0; i < p.nr; i++)
		m->fn[i] = p.fns[i].f;
	m->nr_fn = p.nr;
	m->cpu_flags = cpu_flags;
	m->generation = h.generation;
	free(p.fns);
	if (hdr)
		*hdr = h;
	return 0;

fail_free:
	free(p.fns);
	memset(m, 0, sizeof(*m));
	return -1;
}

int topo_parse(const char *text, size_t len, struct p2pd_model *m,
	       char *err, size_t errlen)
{
	return topo_parse_ex(text, len, m, NULL, err, errlen);
}

void topo_free(struct p2pd_model *m)
{
	if (!m)
		return;
	free(m->fn);
	memset(m, 0, sizeof(*m));
}
