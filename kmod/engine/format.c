// SPDX-License-Identifier: GPL-2.0
/*
 * The two files of p2pdiag's sysfs ABI (abi.h): the topology file (its
 * header, one escaped line per function) and the pairs file (one line per
 * pair), with the header and trailer that frame every view of them
 * (format_frame.h).  The field values, fixes and words are their own
 * files (field.c, fix_text.c, acs_words.c, release_words.c); the buffer
 * is buf.c's.  Freestanding C shared by the module (which serves these
 * texts) and p2pdiag-check (which prints the same texts in libpci mode,
 * so the two can be compared byte for byte).
 */
#include "p2pdiag/format.h"
#include "uapi/p2pdiag/abi.h"
#include "format_frame.h"

/* A field value inside a topology line: spaces become "\x20". */
static void put_escaped_field(struct p2pd_buf *b,
			      const struct p2pd_function *f,
			      enum p2pd_field field)
{
	char tmp[160];
	struct p2pd_buf t;
	unsigned long i;

	p2pd_buf_init(&t, tmp, sizeof(tmp));
	p2pd_format_field(&t, f, field);
	p2pd_buf_terminate(&t);
	for (i = 0; tmp[i]; i++) {
		if (tmp[i] == ' ')
			p2pd_put_str(b, "\\x20");
		else
			p2pd_put_char(b, tmp[i]);
	}
}

/* " <key>=" in a header line, with the ABI's key names (abi.h). */
void p2pd_put_header_key(struct p2pd_buf *b, const char *key)
{
	p2pd_put_char(b, ' ');
	p2pd_put_str(b, key);
	p2pd_put_char(b, '=');
}

void p2pd_put_header(struct p2pd_buf *b, const struct p2pd_model *m)
{
	p2pd_put_str(b, P2PD_HEADER_PREFIX);
	p2pd_put_udec(b, P2PD_ABI_VERSION);
	p2pd_put_header_key(b, P2PD_HEADER_GENERATION);
	p2pd_put_udec(b, m->generation);
}

/*
 * " root_bus_first=<addr>,...": the function heading each root bus's
 * device list, in address order, which the kernel's host-bridge test looks
 * at; nothing when no function is marked (a reader then takes each root
 * bus's lowest address, as a boot-time scan orders them).
 */
static void put_root_bus_heads(struct p2pd_buf *b, const struct p2pd_model *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_fn; i++) {
		if (!m->fn[i].root_bus_first || m->fn[i].has_parent)
			continue;
		if (n++)
			p2pd_put_char(b, ',');
		else
			p2pd_put_header_key(b, P2PD_HEADER_ROOT_BUS_FIRST);
		p2pd_put_addr(b, m->fn[i].addr);
	}
}

void p2pd_format_topology(struct p2pd_buf *b, const struct p2pd_model *m)
{
	unsigned int i;
	int field;

	p2pd_put_header(b, m);
	p2pd_put_header_key(b, P2PD_HEADER_FUNCTIONS);
	p2pd_put_udec(b, m->nr_fn);
	/* re-judging a saved topology needs the host-bridge facts */
	p2pd_put_header_key(b, P2PD_HEADER_CPU);
	p2pd_put_str(b, p2pd_cpu_word(m->cpu_flags));
	if (m->kernel_release) {
		p2pd_put_header_key(b, P2PD_HEADER_KERNEL);
		p2pd_put_release(b, m->kernel_release);
	}
	put_root_bus_heads(b, m);
	p2pd_put_char(b, '\n');

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];

		p2pd_put_str(b, "addr=");
		p2pd_put_addr(b, f->addr);
		for (field = 0; field < P2PD_F_COUNT; field++) {
			p2pd_put_char(b, ' ');
			p2pd_put_str(b, p2pd_field_name(field));
			p2pd_put_char(b, '=');
			put_escaped_field(b, f, field);
		}
		p2pd_put_char(b, '\n');
		p2pd_line_done(b);
	}
}

static void put_common(struct p2pd_buf *b, const struct p2pd_model *m,
		       const struct p2pd_pair *p)
{
	if (p->common_kind == P2PD_COMMON_BRIDGE)
		p2pd_put_addr(b, m->fn[p->common].addr);
	else
		p2pd_put_str(b, p2pd_common_name(p->common_kind));
}

static void put_bottleneck(struct p2pd_buf *b, const struct p2pd_pair *p)
{
	if (p->bottleneck_fn == P2PD_NO_INDEX) {
		p2pd_put_str(b, P2PD_WORD_NONE);
		return;
	}
	p2pd_put_speed(b, p->bottleneck.speed);
	p2pd_put_char(b, 'x');
	p2pd_put_udec(b, p->bottleneck.width);
}

void p2pd_format_pair(struct p2pd_buf *b, const struct p2pd_model *m,
		      const struct p2pd_pair *p)
{
	p2pd_put_str(b, "a=");
	p2pd_put_addr(b, m->fn[p->a].addr);
	p2pd_put_str(b, " b=");
	p2pd_put_addr(b, m->fn[p->b].addr);
	p2pd_put_str(b, " class=");
	p2pd_put_str(b, p2pd_class_name(p->cls));
	p2pd_put_str(b, " verdict=");
	p2pd_put_str(b, p2pd_verdict_name(p->verdict));
	p2pd_put_str(b, " map=");
	p2pd_put_str(b, p2pd_map_name(p->map));
	p2pd_put_str(b, " distance=");
	if (p->distance == P2PD_DISTANCE_UNKNOWN)
		p2pd_put_str(b, P2PD_WORD_UNKNOWN);
	else
		p2pd_put_dec(b, p->distance);
	p2pd_put_str(b, " common=");
	put_common(b, m, p);
	p2pd_put_str(b, " blockers=");
	p2pd_format_blockers(b, m, p);
	p2pd_put_str(b, " bottleneck=");
	put_bottleneck(b, p);
	p2pd_put_str(b, " degraded=");
	p2pd_put_char(b, p->degraded ? '1' : '0');
	p2pd_put_str(b, " nccl_p2p=");
	p2pd_put_char(b, p->nccl_p2p ? '1' : '0');
	p2pd_put_str(b, " fix=");
	p2pd_format_fix(b, m, p);
	p2pd_put_char(b, '\n');
}

void p2pd_format_pairs(struct p2pd_buf *b, const struct p2pd_model *m)
{
	struct p2pd_pair pair;
	int a = P2PD_NO_INDEX, bi = P2PD_NO_INDEX;

	p2pd_put_header(b, m);
	p2pd_put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, p2pd_count_pairs(m));
	p2pd_put_char(b, '\n');
	while (!p2pd_buf_full(b) && p2pd_next_pair(m, &a, &bi)) {
		if (!p2pd_judge(m, a, bi, &pair))
			p2pd_format_pair(b, m, &pair);
		p2pd_line_done(b);
	}
}

/*
 * The last line of both files (ABI.txt): the generation again and the
 * bytes before this line.  A reader whose read() calls were served from
 * two snapshots finds a generation other than the header's (generations
 * only grow, so equal ends mean one snapshot throughout); one whose text
 * was cut short finds no such line, or another byte count.
 */
void p2pd_put_trailer(struct p2pd_buf *b, unsigned long generation)
{
	unsigned long bytes = b->len;

	p2pd_put_str(b, P2PD_TRAILER_PREFIX);
	p2pd_put_udec(b, generation);
	p2pd_put_str(b, P2PD_TRAILER_BYTES);
	p2pd_put_udec(b, bytes);
	p2pd_put_char(b, '\n');
}

void p2pd_format_topology_file(struct p2pd_buf *b, const struct p2pd_model *m)
{
	p2pd_format_topology(b, m);
	p2pd_put_trailer(b, m->generation);
}

void p2pd_format_pairs_file(struct p2pd_buf *b, const struct p2pd_model *m)
{
	p2pd_format_pairs(b, m);
	p2pd_put_trailer(b, m->generation);
}
