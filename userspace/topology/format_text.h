/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared formatter (kmod/engine/buf.c and the text files beside it)
 * writes into fixed buffers, as the kernel needs; userspace wants whole
 * files as strings.
 */
#ifndef P2PDIAG_FORMAT_TEXT_H
#define P2PDIAG_FORMAT_TEXT_H

#include <stddef.h>

#include "p2pdiag/format.h"

/*
 * format_text() - @fn (p2pd_format_topology, p2pd_format_pairs) of @m into
 * a malloc'd, NUL-terminated string of *@len bytes: one pass to count,
 * one to write.  NULL when memory ran out.
 */
char *format_text(void (*fn)(struct p2pd_buf *, const struct p2pd_model *),
		  const struct p2pd_model *m, size_t *len);

/*
 * format_pairs_file() - the pairs file as the module publishes it for @m
 * (grouped, with its trailer), as format_text() returns texts.
 */
char *format_pairs_file(const struct p2pd_model *m, size_t *len);

/*
 * format_pairs_like() - the pairs text without its trailer that a module
 * serving @module_text would write for @m: grouped, or, when that text's
 * header says status=limit-exceeded, the same answer with its limit.
 */
char *format_pairs_like(const struct p2pd_model *m, const char *module_text,
			size_t module_len, size_t *len);

/* "65535.255.255": the longest release text, with its NUL. */
#define RELEASE_TEXT_MAX	16

/* P2PD_RELEASE(6, 12, 95) as "6.12.95" into @buf; returns @buf. */
char *release_text(char buf[RELEASE_TEXT_MAX], unsigned int release);

#endif /* P2PDIAG_FORMAT_TEXT_H */
