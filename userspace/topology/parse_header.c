// SPDX-License-Identifier: GPL-2.0
/*
 * The topology file's header line:
 *
 *   # p2pdiag abi=1 generation=<n> functions=<m> [cpu=amd_zen|amd|other]
 *     [kernel=<release>] [root_bus_first=<addr>,<addr>...|none]
 *
 * Each key the reader knows has a bit and a reader in header_keys[]; a
 * key may appear once, generation= and functions= must, and keys a newer
 * module adds are skipped.
 */
#include <limits.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "topology/parse_lines.h"
#include "topology/parse_values.h"
#include "p2pdiag/parse.h"

enum header_key_bit {
	HEADER_ABI		= 1u << 0,
	HEADER_GENERATION	= 1u << 1,
	HEADER_FUNCTIONS	= 1u << 2,
	HEADER_CPU		= 1u << 3,
	HEADER_KERNEL		= 1u << 4,
	HEADER_ROOT_BUS_FIRST	= 1u << 5,
};


struct header_ctx {
	struct topo_header *hdr;
	unsigned int seen;	/* enum header_key_bit */
	unsigned int cpu_flags;
};

/* A header number, at most @max; "key=value is not a number" otherwise. */
static int header_number(struct parser *p, const char *key, const char *value,
			 unsigned long max, unsigned long *v)
{
	char buf[SHOWN_LEN];

	if (parse_udec(value, max, v))
		return parse_fail(p, p->line, "%s=%s is not a number", key,
				  parse_shown(value, strlen(value), buf));
	return 0;
}

static int read_abi(struct parser *p, struct header_ctx *h, const char *value)
{
	unsigned long v;

	if (header_number(p, P2PD_HEADER_ABI, value, UINT_MAX, &v))
		return -1;
	if (v < P2PD_ABI_TOPOLOGY_SINCE || v > P2PD_ABI_VERSION)
		return parse_fail(p, p->line,
				  "abi=%lu: this reader knows abi=%d to %d only",
				  v, P2PD_ABI_TOPOLOGY_SINCE, P2PD_ABI_VERSION);
	h->hdr->abi = (unsigned int)v;
	return 0;
}

static int read_generation(struct parser *p, struct header_ctx *h,
			   const char *value)
{
	return header_number(p, P2PD_HEADER_GENERATION, value, ULONG_MAX,
			     &h->hdr->generation);
}

static int read_functions(struct parser *p, struct header_ctx *h,
			  const char *value)
{
	unsigned long v;

	if (header_number(p, P2PD_HEADER_FUNCTIONS, value, UINT_MAX, &v))
		return -1;
	if (v > TOPO_MAX_FUNCTIONS)
		return parse_fail(p, p->line,
				  "functions=%lu: more than the %d this reader accepts",
				  v, TOPO_MAX_FUNCTIONS);
	h->hdr->functions = (unsigned int)v;
	return 0;
}

static int read_cpu(struct parser *p, struct header_ctx *h, const char *value)
{
	char buf[SHOWN_LEN];

	if (p2pd_cpu_word_flags(value, strlen(value), &h->cpu_flags))
		return parse_fail(p, p->line,
				  "cpu=%s: expected amd_zen, amd or other",
				  parse_shown(value, strlen(value), buf));
	h->hdr->cpu_known = 1;
	return 0;
}

static int read_kernel(struct parser *p, struct header_ctx *h,
		       const char *value)
{
	char buf[SHOWN_LEN];

	if (p2pd_release_word(value, strlen(value), &h->hdr->kernel_release))
		return parse_fail(p, p->line,
				  "kernel=%s: expected a release such as 6.12.95",
				  parse_shown(value, strlen(value), buf));
	return 0;
}

/* "none", or addresses separated by commas; checked against the lines later */
static int read_root_bus_first(struct parser *p, struct header_ctx *h,
			       const char *value)
{
	char buf[SHOWN_LEN], addr[P2PD_ADDR_STRLEN];
	const char *s = value;

	if (!strcmp(value, P2PD_WORD_NONE))
		return 0;
	for (;;) {
		size_t n = strcspn(s, ",");

		if (h->hdr->nr_root_heads == TOPO_MAX_ROOT_BUSES)
			return parse_fail(p, p->line,
					  "root_bus_first= names more than %d root buses",
					  TOPO_MAX_ROOT_BUSES);
		if (n >= sizeof(addr))
			goto bad;
		memcpy(addr, s, n);
		addr[n] = '\0';
		if (p2pd_parse_addr(addr, &h->hdr->root_head[h->hdr->nr_root_heads]))
			goto bad;
		h->hdr->nr_root_heads++;
		if (!s[n])
			return 0;
		s += n + 1;
	}
bad:
	return parse_fail(p, p->line,
			  "root_bus_first=%s: expected none or dddd:bb:dd.f addresses separated by commas",
			  parse_shown(value, strlen(value), buf));
}

static const struct header_key {
	const char *name;
	enum header_key_bit bit;
	int (*read)(struct parser *p, struct header_ctx *h, const char *value);
} header_keys[] = {
	{ P2PD_HEADER_ABI, HEADER_ABI, read_abi },
	{ P2PD_HEADER_GENERATION, HEADER_GENERATION, read_generation },
	{ P2PD_HEADER_FUNCTIONS, HEADER_FUNCTIONS, read_functions },
	{ P2PD_HEADER_CPU, HEADER_CPU, read_cpu },
	{ P2PD_HEADER_KERNEL, HEADER_KERNEL, read_kernel },
	{ P2PD_HEADER_ROOT_BUS_FIRST, HEADER_ROOT_BUS_FIRST,
	  read_root_bus_first },
};

#define NR_HEADER_KEYS	(sizeof(header_keys) / sizeof(header_keys[0]))

static const char *header_key_word(unsigned int i)
{
	return header_keys[i].name;
}

static int header_token(struct parser *p, void *ctx, const char *key,
			const char *value)
{
	struct header_ctx *h = ctx;
	const struct header_key *k;
	int i;

	/* the pairs file has the same header, with pairs= for functions= */
	if (!strcmp(key, P2PD_HEADER_PAIRS))
		return parse_fail(p, p->line,
				  "this is a pairs file, not a topology file");
	i = parse_word_index(key, NR_HEADER_KEYS, header_key_word);
	if (i < 0)
		return 0;	/* a newer module's header key */
	k = &header_keys[i];
	if (h->seen & k->bit)
		return parse_fail(p, p->line, "header repeats %s=", key);
	h->seen |= k->bit;
	return k->read(p, h, value);
}

int parse_header(struct parser *p, char *line, struct topo_header *hdr,
		 unsigned int *cpu_flags)
{
	static const char prefix[] = P2PD_HEADER_PREFIX;
	static const char magic[] = P2PD_HEADER_MAGIC;
	struct header_ctx h = { .hdr = hdr };

	if (strncmp(line, prefix, sizeof(prefix) - 1))
		return parse_fail(p, p->line,
				  "not a p2pdiag topology file: the first line must start with \"%s\"",
				  P2PD_HEADER_PREFIX);
	/* the prefix ends inside the first token: read the tokens after the magic */
	if (parse_tokens(p, line + sizeof(magic) - 1, header_token, &h))
		return -1;
	if (!(h.seen & HEADER_GENERATION))
		return parse_fail(p, p->line, "header has no generation=");
	if (!(h.seen & HEADER_FUNCTIONS))
		return parse_fail(p, p->line, "header has no functions=");
	*cpu_flags = h.cpu_flags;
	return 0;
}
