// SPDX-License-Identifier: GPL-2.0
/*
 * One function line of the topology file:
 *
 *   addr=<dddd:bb:dd.f> role=<...> parent=<addr|none> ... p2p_endpoint=<0|1>
 *
 * addr= first, then every field of enum p2pd_field exactly once (in any
 * order; keys a newer module adds are skipped), but for the fields added
 * to version 1 later, which a file from an older module lacks: those read
 * as unknown (physfn=: none).  Fields that describe one
 * register set (acs_cap, acs_ctrl and acs; the four link fields) must
 * agree on whether it was read, and a function's parent and host bridge
 * sit on lower buses of its domain, so parent chains end.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "topology/parse_lines.h"
#include "topology/parse_values.h"
#include "p2pdiag/parse.h"

/* The link fields, in the order of enum p2pd_field. */
enum link_field {
	LINK_SPEED,
	LINK_WIDTH,
	LINK_MAX_SPEED,
	LINK_MAX_WIDTH,
	NR_LINK_FIELDS
};

/* Fields added within ABI version 1: a line may lack them. */
#define FIELDS_ADDED_LATER	(1u << P2PD_F_PRI | 1u << P2PD_F_PASID | \
				 1u << P2PD_F_PHYSFN)

/* One line's values that are checked together once the line is read. */
struct line_fields {
	unsigned int seen;	/* bit per enum p2pd_field */
	enum p2pd_state acs_cap_state, acs_ctrl_state, acs_words_state;
	unsigned int acs_words_bits;
	enum p2pd_state link_state[NR_LINK_FIELDS];
};

struct fn_ctx {
	struct p2pd_function *f;
	struct line_fields lf;
	int have_addr;
};

static const char *field_word(unsigned int i)
{
	return p2pd_field_name((enum p2pd_field)i);
}

static int field_index(const char *key)
{
	return parse_word_index(key, P2PD_F_COUNT, field_word);
}

/* A link field: a state word, or a speed ("16.0") or a width (0..32). */
static int link_value(const char *s, int is_speed, unsigned int *out,
		      enum p2pd_state *state)
{
	unsigned long v;

	*state = parse_state_word(s);
	if (*state != P2PD_PRESENT)
		return 0;
	if (is_speed)
		return parse_speed(s, out);
	if (parse_udec(s, 32, &v))
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* A register value that may also read none/unknown/suspended. */
static int register_value(const char *s, unsigned int digits,
			  unsigned int *out, enum p2pd_state *state)
{
	*state = parse_state_word(s);
	if (*state != P2PD_PRESENT)
		return 0;
	return parse_hex_field(s, digits, out);
}

/* The value of @field into @c; 0, or -1 when it is not well formed. */
static int field_value(struct fn_ctx *c, enum p2pd_field field,
		       const char *value)
{
	struct p2pd_function *f = c->f;
	struct line_fields *lf = &c->lf;
	unsigned long v;

	switch (field) {
	case P2PD_F_ROLE:
		return parse_role(value, &f->role);
	case P2PD_F_PARENT:
		f->has_parent = strcmp(value, P2PD_WORD_NONE) != 0;
		return f->has_parent ? p2pd_parse_addr(value, &f->parent) : 0;
	case P2PD_F_HOST_BRIDGE:
		return p2pd_parse_host_bridge(value, &f->host_bridge);
	case P2PD_F_NUMA_NODE:
		return parse_node(value, &f->numa_node);
	case P2PD_F_VENDOR:
		return parse_hex_field(value, 4, &f->vendor);
	case P2PD_F_DEVICE:
		return parse_hex_field(value, 4, &f->device);
	case P2PD_F_CLASS:
		return parse_hex_field(value, 6, &f->class_code);
	case P2PD_F_ACS_CAP:
		return register_value(value, 4, &f->acs_cap,
				      &lf->acs_cap_state);
	case P2PD_F_ACS_CTRL:
		return register_value(value, 4, &f->acs_ctrl,
				      &lf->acs_ctrl_state);
	case P2PD_F_ACS:
		lf->acs_words_state = parse_state_word(value);
		if (lf->acs_words_state != P2PD_PRESENT)
			return 0;
		return parse_acs_words(value, &lf->acs_words_bits);
	case P2PD_F_ATS:
		return parse_ats(value, f);
	case P2PD_F_PRI:
		return parse_pri(value, f);
	case P2PD_F_PASID:
		return parse_pasid(value, f);
	case P2PD_F_LINK_SPEED:
		return link_value(value, 1, &f->link.speed,
				  &lf->link_state[LINK_SPEED]);
	case P2PD_F_LINK_WIDTH:
		return link_value(value, 0, &f->link.width,
				  &lf->link_state[LINK_WIDTH]);
	case P2PD_F_LINK_MAX_SPEED:
		return link_value(value, 1, &f->link.max_speed,
				  &lf->link_state[LINK_MAX_SPEED]);
	case P2PD_F_LINK_MAX_WIDTH:
		return link_value(value, 0, &f->link.max_width,
				  &lf->link_state[LINK_MAX_WIDTH]);
	case P2PD_F_IOMMU_GROUP:
		if (!strcmp(value, P2PD_WORD_NONE)) {
			f->iommu_group = -1;
			return 0;
		}
		if (parse_udec(value, INT_MAX, &v))
			return -1;
		f->iommu_group = (int)v;
		return 0;
	case P2PD_F_IOMMU_DOMAIN:
		return parse_iommu_domain(value, &f->iommu_domain);
	case P2PD_F_P2P_ENDPOINT:
		if (strcmp(value, "0") && strcmp(value, "1"))
			return -1;
		f->p2p_endpoint = value[0] == '1';
		return 0;
	case P2PD_F_PHYSFN:
		f->has_physfn = strcmp(value, P2PD_WORD_NONE) != 0;
		return f->has_physfn ? p2pd_parse_addr(value, &f->physfn) : 0;
	default:
		return 0;
	}
}

static int fn_token(struct parser *p, void *ctx, const char *key,
		    const char *value)
{
	struct fn_ctx *c = ctx;
	char buf[SHOWN_LEN];
	int field;

	if (!c->have_addr) {
		if (strcmp(key, "addr"))
			return parse_fail(p, p->line,
					  "a function line starts with addr=, not %s=",
					  parse_shown(key, strlen(key), buf));
		if (p2pd_parse_addr(value, &c->f->addr))
			return parse_fail(p, p->line,
					  "addr=%s is not a dddd:bb:dd.f address",
					  parse_shown(value, strlen(value), buf));
		c->have_addr = 1;
		return 0;
	}
	if (!strcmp(key, "addr"))
		return parse_fail(p, p->line, "two addr= on one line");
	field = field_index(key);
	if (field < 0)
		return 0;	/* a newer module's field */
	if (c->lf.seen & (1u << field))	/* a known name: safe to print */
		return parse_fail(p, p->line, "%s= appears twice", key);
	c->lf.seen |= 1u << field;
	if (field_value(c, (enum p2pd_field)field, value))
		return parse_bad_value(p, key, value);
	return 0;
}

/* acs_cap, acs_ctrl and acs: read together or not at all, and agreeing. */
static int check_acs(struct parser *p, struct fn_ctx *c)
{
	struct p2pd_function *f = c->f;
	struct line_fields *lf = &c->lf;

	if (lf->acs_cap_state != lf->acs_ctrl_state ||
	    lf->acs_cap_state != lf->acs_words_state)
		return parse_fail(p, p->line,
				  "acs_cap, acs_ctrl and acs disagree on whether ACS was read");
	f->acs = lf->acs_cap_state;
	if (f->acs == P2PD_PRESENT &&
	    lf->acs_words_bits != (f->acs_ctrl & P2PD_ACS_WORD_MASK))
		return parse_fail(p, p->line,
				  "acs= words do not match acs_ctrl=0x%04x",
				  f->acs_ctrl);
	if (f->acs != P2PD_PRESENT)
		f->acs_cap = f->acs_ctrl = 0;
	return 0;
}

/* The four link fields: read together or not at all. */
static int check_link(struct parser *p, struct fn_ctx *c)
{
	enum p2pd_state *state = c->lf.link_state;
	struct p2pd_link *link = &c->f->link;
	unsigned int i;

	/*
	 * A reserved speed code reads "unknown" in a link that was read
	 * (the widths say so): it stays 0, the link stays present.
	 */
	if (state[LINK_WIDTH] == P2PD_PRESENT) {
		if (state[LINK_SPEED] == P2PD_UNKNOWN)
			state[LINK_SPEED] = P2PD_PRESENT;
		if (state[LINK_MAX_SPEED] == P2PD_UNKNOWN)
			state[LINK_MAX_SPEED] = P2PD_PRESENT;
	}
	for (i = 0; i < NR_LINK_FIELDS; i++)
		if (state[i] != state[LINK_SPEED])
			return parse_fail(p, p->line,
					  "link fields disagree on whether the link was read");
	link->state = state[LINK_SPEED];
	if (link->state != P2PD_PRESENT)
		link->speed = link->width = link->max_speed =
			link->max_width = 0;
	return 0;
}

/* parent= and host_bridge=: lower buses of the function's own domain. */
static int check_place(struct parser *p, const struct p2pd_function *f)
{
	unsigned int hb_domain = P2PD_HOST_BRIDGE_DOMAIN(f->host_bridge);
	unsigned int hb_bus = P2PD_HOST_BRIDGE_BUS(f->host_bridge);
	unsigned int domain = P2PD_ADDR_DOMAIN(f->addr);
	unsigned int bus = P2PD_ADDR_BUS(f->addr);

	/*
	 * A function without an upstream bridge sits on its root bus, or,
	 * as an SR-IOV VF of a root-bus PF, on a virtual bus above it.
	 */
	if (!f->has_parent && (hb_domain != domain || hb_bus > bus))
		return parse_fail(p, p->line,
				  "parent=none but host_bridge is not the function's own or a lower bus");
	if (!f->has_parent)
		return 0;
	if (!p2pd_parent_plausible(f->addr, f->parent))
		return parse_fail(p, p->line,
				  "parent must be on a lower bus of the same domain");
	if (hb_domain != domain || hb_bus >= bus)
		return parse_fail(p, p->line,
				  "host_bridge must be a lower bus of the same domain");
	return 0;
}

/* Fields a line from an older module lacks: that module did not say. */
static void fill_added_fields(struct p2pd_function *f, unsigned int seen)
{
	if (!(seen & 1u << P2PD_F_PRI))
		f->pri = P2PD_UNKNOWN;
	if (!(seen & 1u << P2PD_F_PASID))
		f->pasid = P2PD_UNKNOWN;
}

/* Checks that need several fields of the line. */
static int check_line(struct parser *p, struct fn_ctx *c)
{
	unsigned int all = (1u << P2PD_F_COUNT) - 1, i;

	if ((c->lf.seen | FIELDS_ADDED_LATER) != all) {
		for (i = 0; i < P2PD_F_COUNT; i++)
			if (!((c->lf.seen | FIELDS_ADDED_LATER) & (1u << i)))
				break;
		return parse_fail(p, p->line, "%s= is missing",
				  p2pd_field_name((enum p2pd_field)i));
	}
	if (check_acs(p, c) || check_link(p, c) || check_place(p, c->f))
		return -1;
	fill_added_fields(c->f, c->lf.seen);
	return 0;
}

/* Append @f, read from the current line, to the parser's functions. */
static int append_function(struct parser *p, const struct p2pd_function *f)
{
	if (p->nr == TOPO_MAX_FUNCTIONS)
		return parse_fail(p, p->line, "more than %d functions",
				  TOPO_MAX_FUNCTIONS);
	if (p->nr == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 64;
		struct parsed_fn *n = realloc(p->fns, cap * sizeof(*n));

		if (!n)
			return parse_fail(p, p->line, "out of memory");
		p->fns = n;
		p->cap = cap;
	}
	p->fns[p->nr].f = *f;
	p->fns[p->nr].line = p->line;
	p->nr++;
	return 0;
}

int parse_function_line(struct parser *p, char *line)
{
	struct p2pd_function f;
	struct fn_ctx c;

	memset(&f, 0, sizeof(f));
	memset(&c, 0, sizeof(c));
	c.f = &f;
	if (parse_tokens(p, line, fn_token, &c))
		return -1;
	if (!c.have_addr)
		return parse_fail(p, p->line, "empty function line");
	if (check_line(p, &c))
		return -1;
	return append_function(p, &f);
}
