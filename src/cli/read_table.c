// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read's rows counted by key; see read_table.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "read_table.h"

static void *row_at(const struct wd_read_table *t, size_t i)
{
	return t->rows + i * t->size;
}

void wd_table_free(struct wd_read_table *t)
{
	free(t->rows);
	free(t->slots);
	t->rows = NULL;
	t->slots = NULL;
	t->n = t->cap = t->n_slots = 0;
}

static int rehash(struct wd_read_table *t)
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

void *wd_table_get(struct wd_read_table *t, const void *key)
{
	size_t j;

	/* room for one more first: a failure never leaves a row half added */
	if ((!t->slots || (t->n + 1) * 2 >= t->n_slots) && rehash(t))
		return NULL;
	j = t->hash(key) & (t->n_slots - 1);
	for (; t->slots[j]; j = (j + 1) & (t->n_slots - 1))
		if (t->same(row_at(t, t->slots[j] - 1), key))
			return row_at(t, t->slots[j] - 1);
	if (wd_grow(&t->rows, &t->cap, t->n, t->size, 32))
		return NULL;
	memcpy(row_at(t, t->n), key, t->size);
	t->slots[j] = (uint32_t)++t->n;
	return row_at(t, t->n - 1);
}

uint32_t wd_table_hash_field(uint32_t h, const char *s, size_t len)
{
	for (size_t i = 0; s && i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return (h ^ 0xffu) * 16777619u;
}
