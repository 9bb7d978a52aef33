// SPDX-License-Identifier: GPL-2.0
/*
 * Byte strings kept once, in a hash table of ids (FNV-1a, linear
 * probing, grown at half full).
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/intern.h"

static uint64_t fnv1a(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int grow_slots(struct intern *t)
{
	uint32_t n = t->nr_slots ? 2 * t->nr_slots : 1024, i, id;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (id = 1; id < t->nr; id++) {
		i = (uint32_t)t->blob[id].hash & (n - 1);
		while (slot[i])
			i = (i + 1) & (n - 1);
		slot[i] = id;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slots = n;
	return 0;
}

/* The slot that holds @data's id, or the free one where it would go. */
static uint32_t probe(const struct intern *t, const void *data, size_t len,
		      uint64_t h)
{
	uint32_t i, id;

	for (i = (uint32_t)h & (t->nr_slots - 1); (id = t->slot[i]);
	     i = (i + 1) & (t->nr_slots - 1)) {
		const struct intern_blob *b = &t->blob[id];

		if (b->hash == h && b->len == len && (!len || !memcmp(b->data, data, len)))
			break;
	}
	return i;
}

uint32_t intern_find(const struct intern *t, const void *data, size_t len)
{
	return t->nr_slots ? t->slot[probe(t, data, len, fnv1a(data, len))] : 0;
}

uint32_t intern_add(struct intern *t, const void *data, size_t len)
{
	uint64_t h = fnv1a(data, len);
	uint32_t i, id;
	void *copy;

	if (!t->nr)
		t->nr = 1;	/* id 0 stays free: "none" */
	if (2 * (uint64_t)t->nr >= t->nr_slots && grow_slots(t))
		return 0;
	i = probe(t, data, len, h);
	if (t->slot[i])
		return t->slot[i];
	if (fleet_grow(&t->blob, &t->alloc, t->nr, sizeof(*t->blob), 256))
		return 0;
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	if (len)
		memcpy(copy, data, len);
	id = t->nr++;
	t->blob[id] = (struct intern_blob){ copy, len, h };
	t->slot[i] = id;
	return id;
}

int fleet_grow(void *arrayp, size_t *alloc, size_t nr, size_t size, size_t first)
{
	void **p = arrayp, *n;
	size_t want = *alloc ? 2 * *alloc : first;

	if (nr < *alloc)
		return 0;
	n = realloc(*p, want * size);
	if (!n)
		return -1;
	*p = n;
	*alloc = want;
	return 0;
}

const void *intern_get(const struct intern *t, uint32_t id, size_t *len)
{
	if (!id || id >= t->nr)
		return NULL;
	if (len)
		*len = t->blob[id].len;
	return t->blob[id].data;
}

void intern_free(struct intern *t)
{
	uint32_t id;

	for (id = 1; id < t->nr; id++)
		free(t->blob[id].data);
	free(t->blob);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
