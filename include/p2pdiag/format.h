/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Text of the ABI: one function's field values, a topology line, a pairs
 * line, the fix for a pair.  Built into the module (sysfs files) and into
 * p2pdiag-check (libpci mode prints exactly what the module would), so the
 * two can be compared byte for byte.
 */
#ifndef P2PDIAG_FORMAT_H
#define P2PDIAG_FORMAT_H

#include "model.h"
#include "verdict.h"

/*
 * A bounded output buffer.  With p == 0 it only counts, so a caller can
 * size an allocation with one pass and fill it with a second.  Output past
 * size is dropped and remembered in overflow; len counts everything.
 */
struct p2pd_buf {
	char *p;
	unsigned long size;
	unsigned long len;
	unsigned long skip;	/* a window: the first skip bytes are dropped */
	int overflow;
	/*
	 * Called once for every line of a many-line text (a function, pair,
	 * group or group pair), written, counted or skipped, when set: the
	 * module gives the CPU away there (cond_resched()), for trees of
	 * thousands of functions.  Set only where the caller may sleep.
	 */
	void (*resched)(void);
};

struct p2pd_groups;

/* One per-function field, in ABI order (the topology line's order). */
enum p2pd_field {
	P2PD_F_ROLE,
	P2PD_F_PARENT,
	P2PD_F_HOST_BRIDGE,
	P2PD_F_NUMA_NODE,
	P2PD_F_VENDOR,
	P2PD_F_DEVICE,
	P2PD_F_CLASS,
	P2PD_F_ACS_CAP,
	P2PD_F_ACS_CTRL,
	P2PD_F_ACS,
	P2PD_F_ATS,
	P2PD_F_PRI,
	P2PD_F_PASID,
	P2PD_F_LINK_SPEED,
	P2PD_F_LINK_WIDTH,
	P2PD_F_LINK_MAX_SPEED,
	P2PD_F_LINK_MAX_WIDTH,
	P2PD_F_IOMMU_GROUP,
	P2PD_F_IOMMU_DOMAIN,
	P2PD_F_P2P_ENDPOINT,
	P2PD_F_PHYSFN,
	P2PD_F_COUNT
};

/**
 * p2pd_buf_init() - start writing into @p, which holds @size bytes.
 * @b: the buffer
 * @p: storage, or 0 to count only
 * @size: bytes at @p
 */
void p2pd_buf_init(struct p2pd_buf *b, char *p, unsigned long size);

/**
 * p2pd_buf_init_window() - write bytes @skip to @skip + @size of the text
 * into @p and drop the rest: one read() of a text that is not kept whole.
 * @b: the buffer
 * @p: storage
 * @size: bytes at @p
 * @skip: offset of the window in the text
 *
 * b->len - @skip, where positive and at most @size, is what was written.
 */
void p2pd_buf_init_window(struct p2pd_buf *b, char *p, unsigned long size,
			  unsigned long skip);

/**
 * p2pd_buf_init_window_at() - p2pd_buf_init_window() for a text whose
 * formatting starts at byte @at, the start of a line at or before @skip:
 * one read() that formats only the lines its window covers.
 * @b: the buffer
 * @p: storage
 * @size: bytes at @p
 * @skip: offset of the window in the text
 * @at: the offset of the text the first byte formatted will have
 */
void p2pd_buf_init_window_at(struct p2pd_buf *b, char *p, unsigned long size,
			     unsigned long skip, unsigned long at);

/**
 * p2pd_buf_init_cap() - count only, and become full past @cap bytes: the
 * size of a text that must not exceed @cap.
 * @b: the buffer
 * @cap: the most bytes wanted
 */
void p2pd_buf_init_cap(struct p2pd_buf *b, unsigned long cap);

/**
 * p2pd_buf_full() - whether output was dropped: formatters that write many
 * lines stop then.
 * @b: the buffer
 */
int p2pd_buf_full(const struct p2pd_buf *b);

/**
 * p2pd_buf_terminate() - NUL-terminate what was written.
 * @b: the buffer
 *
 * Return: 0, or -1 when the text did not fit (it is cut at size - 1).
 */
int p2pd_buf_terminate(struct p2pd_buf *b);

void p2pd_put_str(struct p2pd_buf *b, const char *s);
void p2pd_put_char(struct p2pd_buf *b, char c);
void p2pd_put_udec(struct p2pd_buf *b, unsigned long v);
void p2pd_put_dec(struct p2pd_buf *b, long v);
/* lower-case hex with at least @digits digits, no prefix */
void p2pd_put_hex(struct p2pd_buf *b, unsigned long v, unsigned int digits);
/*
 * "dddd:bb:dd.f", the domain with at least four hex digits as lspci and
 * sysfs write it: "10000:e1:00.0" behind Intel VMD
 */
void p2pd_put_addr(struct p2pd_buf *b, unsigned long long addr);
/**
 * p2pd_put_host_bridge() - a root bus as "dddd:bb", the domain whole and
 * with at least four hex digits, as p2pd_put_addr() writes it.
 * @b: output
 * @host_bridge: P2PD_HOST_BRIDGE() of the root bus
 *
 * The one spelling of a host bridge: the ABI's host_bridge field, the
 * pairs' host blockers and the tool's messages all come from here.
 */
void p2pd_put_host_bridge(struct p2pd_buf *b, unsigned long long host_bridge);
/* "6.12.95" from P2PD_RELEASE(6, 12, 95) */
void p2pd_put_release(struct p2pd_buf *b, unsigned int release);
/* "16.0" from 160 */
void p2pd_put_speed(struct p2pd_buf *b, unsigned int tenths);
/* "SrcValid+ TransBlk- ReqRedir+ ..." as lspci prints ACSCtl */
void p2pd_put_acs_words(struct p2pd_buf *b, unsigned int ctrl);
/* "RR+CR" as in blockers */
void p2pd_put_acs_short(struct p2pd_buf *b, unsigned int bits);
/**
 * p2pd_put_acs_redirect() - the redirecting bits a port has set in its
 * ACSCtl, "RR+CR" as in blockers: the one place that picks them out for
 * the words.
 * @b: output
 * @f: the port
 */
void p2pd_put_acs_redirect(struct p2pd_buf *b, const struct p2pd_function *f);

/**
 * p2pd_acs_word_bit() - the ACS control bit that lspci's word names: the
 * reverse of p2pd_put_acs_words(), for readers of the acs= field.
 * @s: the word, without its +/- sign; need not be NUL-terminated
 * @len: its length
 *
 * Return: the P2PD_ACS_* bit, or 0 when @s is not one of the words.
 */
unsigned int p2pd_acs_word_bit(const char *s, unsigned long len);

/**
 * p2pd_cpu_word() - the topology header's cpu= word for a model's
 * P2PD_CPU_* flags, which the tool's reports print too.
 * @cpu_flags: the model's cpu_flags
 *
 * Return: "amd_zen", "amd" or "other".
 */
const char *p2pd_cpu_word(unsigned int cpu_flags);

/**
 * p2pd_cpu_word_flags() - the P2PD_CPU_* flags that the topology header's
 * cpu= word stands for: the reverse of what p2pd_format_topology() writes.
 * @s: the word; need not be NUL-terminated
 * @len: its length
 * @flags: set to the flags when @s is a cpu= word, untouched otherwise
 *
 * Return: 0, or -1 when @s is not amd_zen, amd or other.
 */
int p2pd_cpu_word_flags(const char *s, unsigned long len, unsigned int *flags);

/**
 * p2pd_release_word() - read a kernel release as the topology header's
 * kernel= writes it, or as uname -r prints it ("6.12.95+deb12-amd64": the
 * numbers up to the first character that is neither digit nor dot).
 * @s: the text; need not be NUL-terminated
 * @len: its length
 * @release: set to P2PD_RELEASE() (a sublevel above 255 as 255) on success
 *
 * Return: 0, or -1 when @s does not start with "<major>.<minor>" (an
 * optional ".<sublevel>" after) or a number is out of range.
 */
int p2pd_release_word(const char *s, unsigned long len, unsigned int *release);

/**
 * p2pd_field_name() - the file and key name of @field, or NULL.
 * @field: the field
 */
const char *p2pd_field_name(enum p2pd_field field);

/**
 * p2pd_format_field() - the value of one field, as its sysfs file holds it
 * (without the trailing newline).
 * @b: output
 * @f: the function
 * @field: which value
 */
void p2pd_format_field(struct p2pd_buf *b, const struct p2pd_function *f,
		       enum p2pd_field field);

/**
 * p2pd_field_text() - p2pd_format_field() into a string.
 * @s: output, NUL-terminated (cut to fit)
 * @size: bytes at @s, at least 1
 * @f: the function
 * @field: which value
 *
 * Return: @s.
 */
char *p2pd_field_text(char *s, unsigned long size,
		      const struct p2pd_function *f, enum p2pd_field field);

/**
 * p2pd_format_topology() - the whole topology file: header and one line
 * per function.
 * @b: output
 * @m: the model
 */
void p2pd_format_topology(struct p2pd_buf *b, const struct p2pd_model *m);

/**
 * p2pd_acs_fix_applies() - whether clearing ACS redirect gives @p a direct
 * path, so that p2pd_format_fix() and p2pd_format_config_acs() name ports.
 * @p: the judged pair
 *
 * Return: 1 when @p has blockers and meets the other end below a common
 * bridge or towards a host bridge that routes P2P; 0 otherwise (the two
 * formatters then write "none").
 */
int p2pd_acs_fix_applies(const struct p2pd_pair *p);

/**
 * p2pd_format_fix() - the kernel parameter that removes @p's blockers, or
 * "none".
 * @b: output
 * @m: the model
 * @p: the judged pair
 */
void p2pd_format_fix(struct p2pd_buf *b, const struct p2pd_model *m,
		     const struct p2pd_pair *p);

/**
 * p2pd_format_config_acs() - the same fix in the pci=config_acs= form
 * (clears RR, CR and EC on each redirecting port, leaves the rest), or
 * "none".
 * @b: output
 * @m: the model
 * @p: the judged pair
 */
void p2pd_format_config_acs(struct p2pd_buf *b, const struct p2pd_model *m,
			    const struct p2pd_pair *p);

/*
 * The ports one kernel parameter names for a whole machine: the kernel
 * keeps one disable_acs_redir= (or config_acs=) list, a second replaces the
 * first, so every port that matters goes into one.  Model indices, in
 * address order, each once.
 */
#define P2PD_MAX_FIX_PORTS	256

struct p2pd_port_set {
	int port[P2PD_MAX_FIX_PORTS];
	unsigned int nr;
	int overflow;		/* more ports than P2PD_MAX_FIX_PORTS */
};

/**
 * p2pd_port_set_add() - add the ports whose redirect @p's fix clears
 * (none where clearing would not give the pair a direct path).
 * @s: the set, zeroed before the first call
 * @p: the judged pair
 *
 * Return: how many ports were new, or -1 when the set is full.
 */
int p2pd_port_set_add(struct p2pd_port_set *s, const struct p2pd_pair *p);

/**
 * p2pd_format_fix_set() - one pci=disable_acs_redir= naming every port of
 * @s, or "none".
 * @b: output
 * @m: the model the indices refer to
 * @s: the ports
 */
void p2pd_format_fix_set(struct p2pd_buf *b, const struct p2pd_model *m,
			 const struct p2pd_port_set *s);

/**
 * p2pd_format_config_acs_set() - the same in the pci=config_acs= form.
 * @b: output
 * @m: the model the indices refer to
 * @s: the ports
 */
void p2pd_format_config_acs_set(struct p2pd_buf *b, const struct p2pd_model *m,
				const struct p2pd_port_set *s);

/**
 * p2pd_format_setpci() - the runtime command that clears the redirect bits
 * of one port: "setpci -s <addr> ECAP_ACS+0x6.w=<value>".
 * @b: output
 * @f: the port
 */
void p2pd_format_setpci(struct p2pd_buf *b, const struct p2pd_function *f);

/**
 * p2pd_format_blocker() - "addr:RR+CR" for one redirecting port: an item of
 * p2pd_format_blockers(), for readers that list the ports one by one.
 * @b: output
 * @f: the port
 */
void p2pd_format_blocker(struct p2pd_buf *b, const struct p2pd_function *f);

/**
 * p2pd_format_blockers() - "addr:RR+CR,..." for the redirecting ports,
 * "addr:HB" for a root bus whose host bridge does not route P2P, or "none".
 * @b: output
 * @m: the model
 * @p: the judged pair
 */
void p2pd_format_blockers(struct p2pd_buf *b, const struct p2pd_model *m,
			  const struct p2pd_pair *p);

/**
 * p2pd_format_pair() - one line of the pairs file, with its newline.
 * @b: output
 * @m: the model
 * @p: the judged pair
 */
void p2pd_format_pair(struct p2pd_buf *b, const struct p2pd_model *m,
		      const struct p2pd_pair *p);

/**
 * p2pd_format_pairs() - the whole pairs file: header and every pair of P2P
 * endpoints, judged.
 * @b: output
 * @m: the model
 */
void p2pd_format_pairs(struct p2pd_buf *b, const struct p2pd_model *m);

/**
 * p2pd_format_topology_file() - the topology file as the module publishes
 * it: p2pd_format_topology() and the trailer line.
 * @b: output
 * @m: the model
 */
void p2pd_format_topology_file(struct p2pd_buf *b, const struct p2pd_model *m);

/**
 * p2pd_format_pairs_file() - the pairs file as the module publishes it:
 * p2pd_format_pairs() and the trailer line.
 * @b: output
 * @m: the model
 */
void p2pd_format_pairs_file(struct p2pd_buf *b, const struct p2pd_model *m);

/**
 * p2pd_format_group_pair() - one group-pair line of the grouped pairs file:
 * "group_a=<n> group_b=<n> pairs=<k> " and @rep's pair line.
 * @b: output
 * @m: the model
 * @g: its groups
 * @ga: one group
 * @gb: the other, or @ga
 * @rep: p2pd_judge_group_pair() of @ga and @gb
 */
void p2pd_format_group_pair(struct p2pd_buf *b, const struct p2pd_model *m,
			    const struct p2pd_groups *g, int ga, int gb,
			    const struct p2pd_pair *rep);

/**
 * p2pd_format_pairs_grouped() - the grouped pairs file without its trailer:
 * header, one line per endpoint group, one per group pair.
 * @b: output
 * @m: the model
 * @g: its groups (p2pd_group_endpoints())
 */
void p2pd_format_pairs_grouped(struct p2pd_buf *b, const struct p2pd_model *m,
			       const struct p2pd_groups *g);

/**
 * p2pd_format_pairs_grouped_file() - the pairs file as the module publishes
 * it: p2pd_format_pairs_grouped() and the trailer line.
 * @b: output
 * @m: the model
 * @g: its groups
 */
void p2pd_format_pairs_grouped_file(struct p2pd_buf *b,
				    const struct p2pd_model *m,
				    const struct p2pd_groups *g);

/**
 * p2pd_format_pairs_limit() - the pairs file without its trailer when the
 * grouped text would exceed @limit bytes: the header only, with
 * status=limit-exceeded and the limit.
 * @b: output
 * @m: the model
 * @g: its groups
 * @limit: the limit in bytes
 */
void p2pd_format_pairs_limit(struct p2pd_buf *b, const struct p2pd_model *m,
			     const struct p2pd_groups *g, unsigned long limit);

/**
 * p2pd_format_pairs_limit_file() - p2pd_format_pairs_limit() and the
 * trailer line.
 * @b: output
 * @m: the model
 * @g: its groups
 * @limit: the limit in bytes
 */
void p2pd_format_pairs_limit_file(struct p2pd_buf *b, const struct p2pd_model *m,
				  const struct p2pd_groups *g,
				  unsigned long limit);

/**
 * p2pd_format_endpoint_pairs_file() - every pair of one function, expanded,
 * in the peer's address order, between a header naming it and the trailer
 * (devices/<addr>/pairs).  The lines are those of p2pd_format_pairs() that
 * hold the function, byte for byte.
 * @b: output; with a window, formatting stops once it is full
 * @m: the model
 * @g: its groups
 * @x: index of the function
 */
void p2pd_format_endpoint_pairs_file(struct p2pd_buf *b,
				     const struct p2pd_model *m,
				     const struct p2pd_groups *g, int x);

/*
 * The same file a line at a time, for a reader that starts in its middle
 * (the module's devices/<addr>/pairs): the header, one call of
 * p2pd_format_endpoint_pair_line() for each peer in address order, and
 * the trailer give p2pd_format_endpoint_pairs_file()'s text.
 */

/**
 * p2pd_is_endpoint_peer() - whether @y's pair with @x has a line in @x's
 * file (unless it cannot be judged): both are P2P endpoints, not one.
 * @m: the model
 * @x: index of the file's function
 * @y: index of another function
 */
static inline int p2pd_is_endpoint_peer(const struct p2pd_model *m, int x,
					unsigned int y)
{
	return m->fn[x].p2p_endpoint && (int)y != x && m->fn[y].p2p_endpoint;
}

/**
 * struct p2pd_peer_judgement - the group pair judged last, which stands
 * for every member pair of it (p2pd_judge_member()).
 * @ga: its first group, P2PD_NO_INDEX before any
 * @gb: its second group
 * @pair: the judgement
 */
struct p2pd_peer_judgement {
	int ga, gb;
	struct p2pd_pair pair;
};

static inline void p2pd_peer_judgement_init(struct p2pd_peer_judgement *j)
{
	j->ga = P2PD_NO_INDEX;
	j->gb = P2PD_NO_INDEX;
}

/**
 * p2pd_format_endpoint_pairs_header() - the first line of @x's file.
 * @b: output
 * @m: the model
 * @x: index of the function
 * @peers: the number of y for which p2pd_is_endpoint_peer(@m, @x, y)
 */
void p2pd_format_endpoint_pairs_header(struct p2pd_buf *b,
				       const struct p2pd_model *m, int x,
				       unsigned int peers);

/**
 * p2pd_format_endpoint_pair_line() - the line of the pair of @x and @y,
 * the same whatever @j held before.
 * @b: output
 * @m: the model
 * @g: its groups
 * @x: index of the file's function
 * @y: index of a peer (p2pd_is_endpoint_peer())
 * @j: the last judgement, reused when @y's group pair is its own
 *
 * Return: 0, or -1 when the pair cannot be judged (no line).
 */
int p2pd_format_endpoint_pair_line(struct p2pd_buf *b,
				   const struct p2pd_model *m,
				   const struct p2pd_groups *g, int x, int y,
				   struct p2pd_peer_judgement *j);

/**
 * p2pd_format_endpoint_pairs_trailer() - the last line of a function's
 * file.
 * @b: output, at the trailer's offset in the text
 * @m: the model
 */
void p2pd_format_endpoint_pairs_trailer(struct p2pd_buf *b,
					const struct p2pd_model *m);

#endif /* P2PDIAG_FORMAT_H */
