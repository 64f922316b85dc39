/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The budget of records per second (--rate) for all CPUs together, shared
 * by the drop program and the TCP events program: a (second, used) word
 * taken with a compare-and-swap only while the second's budget lasts. A
 * CPU that finds it spent remembers the second in its own slot and, until
 * the next one, decides with no shared access and no precise clock: a
 * storm past the budget costs each event a per-CPU read. Losing a race is
 * one record not taken; user space counts what was not taken.
 */
#ifndef WHYDROP_RECORD_BUDGET_H
#define WHYDROP_RECORD_BUDGET_H

#define WD_NO_LIMIT	0xffffffffU	/* detail_budget: every record */
#define NSEC_PER_SEC	1000000000ULL

/* Set by user space before load; the verifier treats them as constants. */
const volatile __u32 detail_budget;	/* records per second, 0: none */
const volatile __u32 jiffies_hz;	/* HZ, from the coarse clock's resolution; 0: unknown */

/* Records of this second, for all CPUs: (second << 32) | used. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rate SEC(".maps");

/* The second in which this CPU found the budget spent (+1). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rate_spent SEC(".maps");

/*
 * The second, from jiffies where HZ is known: a tracing program may not use
 * bpf_ktime_get_coarse_ns(), and the precise clock costs more per event.
 */
static __always_inline __u64 this_second(void)
{
	if (jiffies_hz)
		return bpf_jiffies64() / jiffies_hz;
	return bpf_ktime_get_ns() / NSEC_PER_SEC;
}

static __always_inline bool record_allowed(void)
{
	__u64 sec = this_second(), old, new, *word, *spent;
	__u32 zero = 0;

	if (detail_budget == WD_NO_LIMIT)
		return true;
	spent = bpf_map_lookup_elem(&rate_spent, &zero);
	word = bpf_map_lookup_elem(&rate, &zero);
	if (!spent || !word || *spent == sec + 1)
		return false;
	old = *(volatile __u64 *)word;
	if (old >> 32 != (__u32)sec)
		new = (__u64)(__u32)sec << 32 | 1;
	else if ((__u32)old < detail_budget)
		new = old + 1;
	else
		goto spent;
	return __sync_val_compare_and_swap(word, old, new) == old;
spent:
	*spent = sec + 1;	/* +1: the slot starts at 0, which is a second too */
	return false;
}

#endif /* WHYDROP_RECORD_BUDGET_H */
