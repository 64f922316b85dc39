// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Where a key is or goes in a sorted array; see sorted.h. */
#include <string.h>

#include "sorted.h"

static uint64_t key_at(const void *base, size_t i, size_t size, size_t offset)
{
	uint64_t k;

	memcpy(&k, (const char *)base + i * size + offset, sizeof(k));
	return k;
}

size_t wd_lower_bound_u64(const void *base, size_t n, size_t size, size_t offset, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_at(base, mid, size, offset) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool wd_sorted_has_u64(const uint64_t *ids, size_t n, uint64_t id)
{
	size_t i = wd_lower_bound_u64(ids, n, sizeof(*ids), 0, id);

	return i < n && ids[i] == id;
}
