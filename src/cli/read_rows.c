// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop read: the drops of a recording counted by (reason, location), as
 * count does; --group-by is the engine of count and top (groups.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "read.h"

/* ---- rows counted by key: an array and an open-addressing index into it ---- */

static void *row_at(const struct table *t, size_t i)
{
	return t->rows + i * t->size;
}

void wd_table_free(struct table *t)
{
	free(t->rows);
	free(t->slots);
	t->rows = NULL;
	t->slots = NULL;
	t->n = t->cap = t->n_slots = 0;
}

static int rehash(struct table *t)
{
	size_t n_slots = t->n_slots ? t->n_slots * 2 : 64;
	uint32_t *slots = calloc(n_slots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		size_t j = t->hash(row_at(t, i)) & (n_slots - 1);

		while (slots[j])
			j = (j + 1) & (n_slots - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->n_slots = n_slots;
	return 0;
}

/* The row equal to key; a copy of key if there is none yet. NULL: out of memory. */
static void *table_get(struct table *t, const void *key)
{
	size_t j;

	if (!t->slots && rehash(t))
		return NULL;
	j = t->hash(key) & (t->n_slots - 1);
	for (; t->slots[j]; j = (j + 1) & (t->n_slots - 1))
		if (t->same(row_at(t, t->slots[j] - 1), key))
			return row_at(t, t->slots[j] - 1);
	if (wd_grow(&t->rows, &t->cap, t->n, t->size, 32))
		return NULL;
	memcpy(row_at(t, t->n), key, t->size);
	t->slots[j] = (uint32_t)++t->n;
	if (t->n * 2 >= t->n_slots && rehash(t))
		return NULL;
	return row_at(t, t->n - 1);
}

static uint32_t fnv(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return (h ^ 0xffu) * 16777619u;	/* the end of a field */
}

/* ---- drops by (reason, location), as count ---- */

static uint32_t row_hash(const void *p)
{
	const struct read_row *r = p;

	return fnv(fnv(r->m.has_reason ? 1u : 2u, r->m.reason), r->m.location);
}

static bool same_row(const void *a, const void *b)
{
	const struct read_row *x = a, *y = b;

	return x->m.has_reason == y->m.has_reason && !strcmp(x->m.reason, y->m.reason) &&
	       !strcmp(x->m.location, y->m.location);
}

void wd_read_table_init(struct table *drops)
{
	*drops = (struct table){ .size = sizeof(struct read_row), .hash = row_hash,
				 .same = same_row };
}

int wd_read_add_drop(struct table *t, const struct wd_pcapng_meta *m)
{
	struct read_row key = { .m = *m }, *r = table_get(t, &key);

	if (!r)
		return -ENOMEM;
	r->count++;
	return 0;
}
