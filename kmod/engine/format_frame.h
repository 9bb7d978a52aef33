/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's own helpers for writing the ABI's files, shared by the
 * files format.c was split into; not part of the contract (format.h).
 */
#ifndef P2PDIAG_ENGINE_FORMAT_FRAME_H
#define P2PDIAG_ENGINE_FORMAT_FRAME_H

#include "p2pdiag/format.h"
#include "p2pdiag/model.h"

/* The @len bytes at @s are exactly @word (a table's NUL-terminated word). */
static inline int p2pd_same_word(const char *word, const char *s,
				 unsigned long len)
{
	unsigned long i;

	for (i = 0; i < len; i++)
		if (word[i] != s[i] || !word[i])
			return 0;
	return !word[len];
}

/* Between two lines of a long text: b->resched, where the caller set one. */
static inline void p2pd_line_done(const struct p2pd_buf *b)
{
	if (b->resched)
		b->resched();
}

/**
 * p2pd_put_header_key() - " <key>=" in a header line.
 * @b: output
 * @key: one of abi.h's P2PD_HEADER_* key names
 */
void p2pd_put_header_key(struct p2pd_buf *b, const char *key);

/**
 * p2pd_put_header() - the header's start: magic, abi= and generation=.
 * @b: output
 * @m: the model whose generation it names
 */
void p2pd_put_header(struct p2pd_buf *b, const struct p2pd_model *m);

/**
 * p2pd_put_trailer() - the last line of every file and view (ABI.txt).
 * @b: output, holding the file's text so far
 * @generation: the header's generation, said again
 */
void p2pd_put_trailer(struct p2pd_buf *b, unsigned long generation);

#endif /* P2PDIAG_ENGINE_FORMAT_FRAME_H */
