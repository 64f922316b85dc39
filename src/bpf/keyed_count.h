/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Adding to a count in a hash map, as every exact count here does: the
 * caller decides where a count goes that the hash has no room for (an
 * overflow slot), so that none is lost.
 */
#ifndef WHYDROP_KEYED_COUNT_H
#define WHYDROP_KEYED_COUNT_H

/* Add n to key's count in hash; false when the hash is full. */
static __always_inline bool hash_add(void *hash, const void *key, __u64 n)
{
	__u64 *val = bpf_map_lookup_elem(hash, key);

	if (val) {
		*val += n;
		return true;
	}
	if (!bpf_map_update_elem(hash, key, &n, BPF_NOEXIST))
		return true;
	/* Another CPU may have inserted the key meanwhile. */
	val = bpf_map_lookup_elem(hash, key);
	if (!val)
		return false;
	*val += n;
	return true;
}

/*
 * Add n to key's count in hash (NULL: none), else to slot of the overflow
 * array; false when the count went there, for the caller's statistics.
 */
static __always_inline bool hash_add_or_overflow(void *hash, const void *key, __u64 n,
						 void *overflow, __u32 slot)
{
	__u64 *val;

	if (hash && hash_add(hash, key, n))
		return true;
	val = bpf_map_lookup_elem(overflow, &slot);
	if (val)
		*val += n;
	return false;
}

#endif /* WHYDROP_KEYED_COUNT_H */
