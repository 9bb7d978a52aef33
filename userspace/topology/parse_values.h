/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Value syntax of the topology file, each the inverse of one writer in
 * kmod/engine/ (field.c, buf.c).  Every function reads a whole
 * NUL-terminated value and returns 0 with the result, or -1 leaving it
 * untouched: a value is well formed exactly, or refused.  Private to the
 * parser.
 */
#ifndef P2PDIAG_PARSE_VALUES_H
#define P2PDIAG_PARSE_VALUES_H

#include <stddef.h>

#include "p2pdiag/model.h"

/*
 * Addresses and root buses are the engine's to read back as it writes
 * them: p2pd_parse_addr() and p2pd_parse_host_bridge() (p2pdiag/parse.h).
 */

/* "0x" and exactly @digits hex digits, as p2pd_put_hex() writes them. */
int parse_hex_field(const char *s, unsigned int digits, unsigned int *out);

/* Decimal digits only, at most @max. */
int parse_udec(const char *s, unsigned long max, unsigned long *out);

/* A NUMA node: "-1" or 0..INT_MAX. */
int parse_node(const char *s, int *out);

/* "16.0" -> 160: one digit after the point, as p2pd_put_speed() writes. */
int parse_speed(const char *s, unsigned int *out);

/*
 * parse_state_word() - "none", "unknown", "suspended", or anything else:
 * P2PD_PRESENT, a value for the field's own parser.  Never fails.
 */
enum p2pd_state parse_state_word(const char *s);

/*
 * lspci's ACS words, "SrcValid+ TransBlk- ...": each known word exactly
 * once, words this version does not know skipped; the control bits they
 * spell in *out.
 */
int parse_acs_words(const char *s, unsigned int *out);

/*
 * parse_word_index() - the index in 0..@count-1 whose @name_of is @s, or
 * -1: the one way back from an ABI word to its enum, so the parser takes
 * exactly the words the engine writes (a NULL name never matches).
 */
int parse_word_index(const char *s, unsigned int count,
		     const char *(*name_of)(unsigned int i));

/* A role word (p2pd_role_name()). */
int parse_role(const char *s, enum p2pd_role *out);

/* An IOMMU domain word (p2pd_iommu_domain_name()). */
int parse_iommu_domain(const char *s, enum p2pd_iommu_domain *out);

/* ats=: "none", "unknown", "suspended", "disabled" or "enabled stu=<0..31>". */
int parse_ats(const char *s, struct p2pd_function *f);

/* pri=: "none", "unknown", "suspended", "disabled" or "enabled". */
int parse_pri(const char *s, struct p2pd_function *f);

/* pasid=: a state word, or "enabled width=<0..31>" / "disabled width=<0..31>". */
int parse_pasid(const char *s, struct p2pd_function *f);

/*
 * parse_unescape() - @n bytes of @s with each "\xHH" (any byte but NUL and
 * newline) turned back into its byte, NUL-terminated into @out (n + 1 bytes).
 */
int parse_unescape(const char *s, size_t n, char *out);

#endif /* P2PDIAG_PARSE_VALUES_H */
