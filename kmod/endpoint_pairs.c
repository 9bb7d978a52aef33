// SPDX-License-Identifier: GPL-2.0
/*
 * devices/<addr>/pairs: every pair of one function, expanded, formatted
 * for each read() from the window it asks for.
 *
 * No rebuild keeps the functions' pairs as text (thousands of functions,
 * millions of lines), and sysfs gives a binary attribute no open or
 * release callback, so there is no per-open text to keep the seq_file
 * way either.  What a read needs to start in the middle of the file is
 * where its lines start: on the first read of a function's file in a
 * snapshot, the file is formatted once, counting only, into an index of
 * line offsets, which is published with cmpxchg() (two readers racing
 * at that first read may both build it; one is kept) and lives and dies
 * with the snapshot.  A read then finds the line that holds its offset by
 * binary search and formats only the lines its window covers, into the
 * reader's buffer, from a held snapshot and outside any RCU read-side
 * section.  So a read costs O(log n + the bytes of the lines it covers)
 * however many readers interleave (the first, the whole file once more,
 * counting), and the only state readers share is an index that never
 * changes once published: no cache to thrash, no lock.  The text is the
 * one p2pd_format_endpoint_pairs_file() writes, byte for byte; the
 * trailer still tells a reader whose reads were served from two
 * snapshots.
 *
 * The index is run-length: consecutive functions whose lines are of one
 * length (a NIC's virtual functions, seen from one peer: one group pair,
 * addresses of one width), or that have no line (bridges, functions that
 * are no P2P endpoint), make one run, stored as its first function and
 * the offset of its first line.  A line inside a run is found by
 * division.  An index takes 8 bytes a run, at most a run a function: on
 * 8 switches of 8 NICs with 63 VFs each (4,177 functions), each file's
 * 4,095 lines (658 KB) make at most 33 runs (about 280 bytes), where a u32
 * per line would take 16 KB; every file read once, 1.2 MB, not 64 MB.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <p2pdiag/format.h>
#include "p2pdiag.h"

/* A run of functions whose lines are of one length (0: no line). */
struct p2pd_pairs_run {
	u32 y;		/* the run's first function (model index) */
	u32 off;	/* where its line starts in the text */
};

/*
 * One function's file in one snapshot.  run[nr_runs] ends the last run:
 * y is the number of functions, off the trailer's offset.
 */
struct p2pd_pairs_index {
	atomic_long_t reads;		/* served from it, for dynamic debug */
	atomic_long_t formatted;	/* bytes those reads formatted */
	u32 len;			/* the whole text */
	u32 peers;			/* the header's pairs= */
	u32 nr_runs;
	struct p2pd_pairs_run run[];
};

/*
 * Count function @x's text once, line by line, into its index.  Lines of
 * a read-only snapshot format the same every time, so the offsets hold
 * for every later read of the snapshot.
 */
static struct p2pd_pairs_index *
p2pd_pairs_index_build(const struct p2pd_snapshot *s, int x)
{
	const struct p2pd_model *m = &s->model;
	struct p2pd_peer_judgement j;
	struct p2pd_pairs_index *ix;
	struct p2pd_pairs_run *run;
	unsigned long start, line, last = ULONG_MAX;
	unsigned int y, nr = 0, peers = 0;
	struct p2pd_buf b;

	/* a run a function at most, and the end */
	run = kvmalloc_array(m->nr_fn + 1, sizeof(*run), GFP_KERNEL);
	if (!run)
		return ERR_PTR(-ENOMEM);
	for (y = 0; y < m->nr_fn; y++)
		peers += p2pd_is_endpoint_peer(m, x, y);
	p2pd_buf_init(&b, NULL, 0);
	p2pd_format_endpoint_pairs_header(&b, m, x, peers);
	p2pd_peer_judgement_init(&j);
	for (y = 0; y < m->nr_fn; y++) {
		/* one line a peer: thousands of VFs take a while */
		cond_resched();
		start = b.len;
		if (p2pd_is_endpoint_peer(m, x, y))
			p2pd_format_endpoint_pair_line(&b, m, &s->groups, x, y,
						       &j);
		line = b.len - start;
		if (line == last)
			continue;
		if (start > U32_MAX)
			goto free_runs;
		run[nr].y = y;
		run[nr].off = start;
		nr++;
		last = line;
	}
	run[nr].y = m->nr_fn;
	run[nr].off = b.len;
	p2pd_format_endpoint_pairs_trailer(&b, m);
	if (b.len > U32_MAX)
		goto free_runs;

	ix = kvmalloc(struct_size(ix, run, nr + 1), GFP_KERNEL);
	if (!ix) {
		kvfree(run);
		return ERR_PTR(-ENOMEM);
	}
	atomic_long_set(&ix->reads, 0);
	atomic_long_set(&ix->formatted, 0);
	ix->len = b.len;
	ix->peers = peers;
	ix->nr_runs = nr;
	memcpy(ix->run, run, (nr + 1) * sizeof(*run));
	kvfree(run);
	return ix;

free_runs:
	kvfree(run);
	return ERR_PTR(-EFBIG);
}

/* @s's index of function @x (@name), built now if no reader has yet. */
static struct p2pd_pairs_index *
p2pd_pairs_index_of(const struct p2pd_snapshot *s, int x, const char *name)
{
	struct p2pd_pairs_index *ix, *old;

	/* pairs with the cmpxchg() below: an index is read whole once seen */
	ix = smp_load_acquire(&s->pairs_index[x]);
	if (ix)
		return ix;
	ix = p2pd_pairs_index_build(s, x);
	if (IS_ERR(ix))
		return ix;
	pr_debug("generation %lu: devices/%s/pairs formatted (%u bytes, %u runs)\n",
		 s->model.generation, name, ix->len, ix->nr_runs);
	old = cmpxchg(&s->pairs_index[x], NULL, ix);
	if (old) {
		kvfree(ix);
		return old;
	}
	return ix;
}

/* The last run that starts at or before @off: the one that holds it. */
static unsigned int p2pd_pairs_run_at(const struct p2pd_pairs_index *ix,
				      unsigned long off)
{
	unsigned int lo = 0, hi = ix->nr_runs + 1, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ix->run[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Format the bytes [@off, @off + @count) of function @x's text into @buf:
 * the lines that cover them, from the line that holds @off.
 */
static ssize_t p2pd_pairs_window(const struct p2pd_snapshot *s, int x,
				 struct p2pd_pairs_index *ix, char *buf,
				 unsigned long off, size_t count)
{
	const struct p2pd_pairs_run *run = ix->run;
	const struct p2pd_model *m = &s->model;
	struct p2pd_peer_judgement j;
	unsigned long at = 0, len, k;
	unsigned int r = 0, y = 0;
	struct p2pd_buf b;
	int ret;

	if (off >= run[0].off) {
		r = p2pd_pairs_run_at(ix, off);
		y = run[r].y;
		at = run[r].off;
		/* a run that holds @off has lines: the end's has none */
		if (r < ix->nr_runs) {
			len = (run[r + 1].off - run[r].off) /
			      (run[r + 1].y - run[r].y);
			k = (off - run[r].off) / len;
			y += k;
			at += k * len;
		}
	}
	p2pd_buf_init_window_at(&b, buf, count, off, at);
	if (!at)
		p2pd_format_endpoint_pairs_header(&b, m, x, ix->peers);
	p2pd_peer_judgement_init(&j);
	for (; r < ix->nr_runs && !p2pd_buf_full(&b); r++) {
		if (run[r + 1].off == run[r].off)
			continue;	/* functions without a line */
		for (y = max(y, run[r].y); y < run[r + 1].y; y++) {
			if (p2pd_buf_full(&b))
				break;
			cond_resched();
			ret = p2pd_format_endpoint_pair_line(&b, m, &s->groups,
							     x, y, &j);
			/* it had a line when the index was built */
			if (WARN_ON_ONCE(ret))
				return -EIO;
		}
	}
	if (!p2pd_buf_full(&b)) {
		if (WARN_ON_ONCE(b.len != run[ix->nr_runs].off))
			return -EIO;
		p2pd_format_endpoint_pairs_trailer(&b, m);
	}
	atomic_long_inc(&ix->reads);
	atomic_long_add(b.len - at, &ix->formatted);
	return min_t(unsigned long, b.len - off, count);
}

/**
 * p2pd_endpoint_pairs_read() - a read() of devices/<addr>/pairs.
 * @s: a snapshot held with p2pd_snapshot_get()
 * @x: the function's index in @s's model
 * @name: its address, for dynamic debug
 * @buf: the reader's buffer
 * @off: the offset in the text
 * @count: the bytes wanted
 *
 * The first read of the file in @s builds its index (formatting the file
 * once, counting); every read formats only the lines that cover its
 * window.
 *
 * Context: process context, may sleep (gives the CPU away between lines).
 * Return: the bytes read, 0 at the end, -ENOMEM, or -EFBIG for a text
 * past 4 GiB.
 */
ssize_t p2pd_endpoint_pairs_read(const struct p2pd_snapshot *s, int x,
				 const char *name, char *buf, loff_t off,
				 size_t count)
{
	struct p2pd_pairs_index *ix = p2pd_pairs_index_of(s, x, name);

	if (IS_ERR(ix))
		return PTR_ERR(ix);
	if (off >= ix->len || !count)
		return 0;
	return p2pd_pairs_window(s, x, ix, buf, off, count);
}

/**
 * p2pd_endpoint_pairs_init() - room for @s's functions' indexes, empty.
 * @s: a snapshot being built, its model walked
 *
 * Return: 0 or -ENOMEM.
 */
int p2pd_endpoint_pairs_init(struct p2pd_snapshot *s)
{
	s->pairs_index = kvcalloc(max(s->model.nr_fn, 1U),
				  sizeof(*s->pairs_index), GFP_KERNEL);
	return s->pairs_index ? 0 : -ENOMEM;
}

/**
 * p2pd_endpoint_pairs_free() - free @s's indexes, with the snapshot.
 * @s: the snapshot, no longer readable
 *
 * Says (dynamic debug) what each indexed file's reads formatted.
 *
 * Context: process context.
 */
void p2pd_endpoint_pairs_free(struct p2pd_snapshot *s)
{
	char name[P2PD_ADDR_STRLEN];
	struct p2pd_pairs_index *ix;
	struct p2pd_buf b;
	unsigned int x;

	for (x = 0; s->pairs_index && x < s->model.nr_fn; x++) {
		ix = s->pairs_index[x];
		if (!ix)
			continue;
		p2pd_buf_init(&b, name, sizeof(name));
		p2pd_put_addr(&b, s->model.fn[x].addr);
		p2pd_buf_terminate(&b);
		pr_debug("generation %lu: devices/%s/pairs: %ld reads formatted %ld bytes\n",
			 s->model.generation, name,
			 atomic_long_read(&ix->reads),
			 atomic_long_read(&ix->formatted));
		kvfree(ix);
		cond_resched();
	}
	kvfree(s->pairs_index);
}
