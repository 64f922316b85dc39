/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Arrays of structs kept sorted by a 64-bit key: where a key is or goes. */
#ifndef WD_SORTED_H
#define WD_SORTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The index of the first of n elements (each size bytes, from base, sorted
 * by the uint64_t at offset in each) whose key is >= key; n when none is.
 */
size_t wd_lower_bound_u64(const void *base, size_t n, size_t size, size_t offset, uint64_t key);

/* Whether id is among the n sorted ids. */
bool wd_sorted_has_u64(const uint64_t *ids, size_t n, uint64_t id);

/* wd_lower_bound_u64 over an array of structs by a 64-bit member (checked
 * at compile time: an array of size -1 does not build). */
#define WD_LOWER_BOUND(arr, n, member, key)					\
	((void)sizeof(char[sizeof((arr)->member) == sizeof(uint64_t) ? 1 : -1]),	\
	 wd_lower_bound_u64((arr), (n), sizeof(*(arr)),				\
			    offsetof(__typeof__(*(arr)), member), (key)))

#endif /* WD_SORTED_H */
