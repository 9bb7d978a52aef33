/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interning: each distinct byte string (a word of a report, a fact's key,
 * a server's whole set of facts) is kept once and named by a small number,
 * so that ten thousand servers of one model, which mostly agree, cost
 * their differences and not ten thousand copies.
 */
#ifndef P2PDIAG_FLEET_INTERN_H
#define P2PDIAG_FLEET_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct intern_blob {
	void *data;
	size_t len;
	uint64_t hash;
};

struct intern {
	struct intern_blob *blob;	/* by id; id 0 is never handed out */
	uint32_t nr;
	size_t alloc;
	uint32_t *slot;			/* open addressing: id, or 0 when free */
	uint32_t nr_slots;		/* a power of two, at least twice nr */
};

/*
 * intern_add() - the id of the @len bytes at @data, copied in on their
 * first sight.  Return: the id (>= 1), or 0 when memory ran out.
 */
uint32_t intern_add(struct intern *t, const void *data, size_t len);

/* The id of the @len bytes at @data, or 0 when they were never added. */
uint32_t intern_find(const struct intern *t, const void *data, size_t len);

/* The bytes of @id (NULL for 0), and their length in *@len when asked. */
const void *intern_get(const struct intern *t, uint32_t id, size_t *len);

void intern_free(struct intern *t);

/*
 * fleet_grow() - make room for one more element in the array at *@arrayp
 * of *@alloc elements of @size bytes, @nr of them used: doubled, or
 * @first when empty.  Return: 0, or -1 when memory ran out (the array
 * unchanged).
 */
int fleet_grow(void *arrayp, size_t *alloc, size_t nr, size_t size, size_t first);

#endif /* P2PDIAG_FLEET_INTERN_H */
