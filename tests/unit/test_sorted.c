// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Where a key is or goes in a sorted array of structs (src/lib/base/sorted.c),
 * against a linear scan over arrays with repeated keys, and at the edges. */
#include <stdlib.h>

#include "sorted.h"
#include "unit.h"

struct elem {
	uint32_t pad;
	uint64_t key;
	char tail;
};

static size_t linear(const struct elem *v, size_t n, uint64_t key)
{
	size_t i = 0;

	while (i < n && v[i].key < key)
		i++;
	return i;
}

static void test_against_scan(void)
{
	struct elem v[64];
	unsigned int seed = 7;
	int wrong = 0;

	for (size_t n = 0; n <= 64; n++) {
		uint64_t k = 0;

		for (size_t i = 0; i < n; i++) {
			k += (uint64_t)(rand_r(&seed) % 3);	/* repeats and gaps */
			v[i].key = k;
		}
		for (uint64_t key = 0; key <= k + 2; key++)
			wrong += WD_LOWER_BOUND(v, n, key, key) != linear(v, n, key);
	}
	CHECK_INT(wrong, 0);
}

static void test_edges(void)
{
	struct elem v[3] = { { .key = 5 }, { .key = 5 }, { .key = UINT64_MAX } };

	CHECK_INT(WD_LOWER_BOUND(v, 0, key, 5), 0);
	CHECK_INT(WD_LOWER_BOUND(v, 3, key, 0), 0);
	CHECK_INT(WD_LOWER_BOUND(v, 3, key, 5), 0);
	CHECK_INT(WD_LOWER_BOUND(v, 3, key, 6), 2);
	CHECK_INT(WD_LOWER_BOUND(v, 3, key, UINT64_MAX), 2);
	CHECK_INT(WD_LOWER_BOUND(v, 2, key, UINT64_MAX), 2);
}

static void test_has(void)
{
	const uint64_t ids[] = { 3, 3, 9, UINT64_MAX };

	CHECK_INT(wd_sorted_has_u64(ids, 0, 3), 0);
	CHECK_INT(wd_sorted_has_u64(ids, 4, 3), 1);
	CHECK_INT(wd_sorted_has_u64(ids, 4, 4), 0);
	CHECK_INT(wd_sorted_has_u64(ids, 4, 9), 1);
	CHECK_INT(wd_sorted_has_u64(ids, 4, 0), 0);
	CHECK_INT(wd_sorted_has_u64(ids, 4, UINT64_MAX), 1);
	CHECK_INT(wd_sorted_has_u64(ids, 3, UINT64_MAX), 0);
}

UNIT_MAIN(test_against_scan, test_edges, test_has)
