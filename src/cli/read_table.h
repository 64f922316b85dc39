/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop read's rows counted by key: an array of rows and an
 * open-addressing index into it, the key and its equality given by the
 * table's user (read_rows.c: drops by reason and location; read_stacks.c:
 * by reason, location and stack). Rows stay in the order first seen.
 */
#ifndef WD_READ_TABLE_H
#define WD_READ_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wd_read_table {
	size_t size;			/* of a row */
	uint32_t (*hash)(const void *row);
	bool (*same)(const void *a, const void *b);
	char *rows;
	size_t n, cap;
	uint32_t *slots;		/* row index + 1, 0 = empty */
	size_t n_slots;
};

/* The row equal to key; a copy of key if there is none yet. NULL: out of memory. */
void *wd_table_get(struct wd_read_table *t, const void *key);
void wd_table_free(struct wd_read_table *t);
/* FNV-1a of len bytes of s after h, then an end mark: "a"+"b" differs from "ab"+"". */
uint32_t wd_table_hash_field(uint32_t h, const char *s, size_t len);

#endif /* WD_READ_TABLE_H */
