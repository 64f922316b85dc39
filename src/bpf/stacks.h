/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --stacks: the kernel stack of each drop, counted exactly per (reason,
 * location, stack). Without --stacks want_stacks is false, the verifier
 * removes all of this, and the maps are sized 1 by user space: no cost.
 *
 * bpf_get_stackid() without BPF_F_REUSE_STACKID never overwrites a stored
 * stack, so an id always names one stack. A stack whose bucket holds
 * another one (-EEXIST), or that cannot be stored, is counted under its
 * error as stack id, and in a statistics slot: never merged into another.
 */
#ifndef WHYDROP_STACKS_H
#define WHYDROP_STACKS_H

#define WD_EEXIST	17

const volatile bool want_stacks;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, WD_STACK_MAP_ENTRIES);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, WD_STACK_DEPTH * sizeof(__u64));
} stackmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 10240);
	__type(key, struct wd_stack_key);
	__type(value, __u64);
} stack_counts SEC(".maps");

/* When stack_counts is full: by reason, never lost. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, WD_OVERFLOW_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} stack_overflow SEC(".maps");

static __always_inline void stack_add(const struct wd_stack_key *key)
{
	if (!hash_add_or_overflow(&stack_counts, key, 1, &stack_overflow,
				  wd_reason_slot(key->reason)))
		stat_inc(WD_STAT_STACK_OVERFLOW);
}

/* Count the drop by its stack; returns the stack id (<0: an error, counted). */
static __always_inline __s32 stacks_count(void *ctx, __u32 reason, __u64 location)
{
	struct wd_stack_key key;
	long id;

	if (!want_stacks)
		return WD_STACK_NONE;
	id = bpf_get_stackid(ctx, &stackmap, 0);
	if (id == -WD_EEXIST)
		stat_inc(WD_STAT_STACK_COLLISION);
	else if (id < 0)
		stat_inc(WD_STAT_STACK_ERROR);
	__builtin_memset(&key, 0, sizeof(key));
	key.reason = reason;
	key.stack_id = (__s32)id;
	key.location = location;
	stack_add(&key);
	return (__s32)id;
}

#endif /* WHYDROP_STACKS_H */
