// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --stacks, the BPF source's part: the (reason, location, stack) counts
 * read into a snapshot, and the stacks themselves. Nothing here runs in
 * the kernel's hot path (that is src/bpf/stacks.h). Its counting map has
 * no runs cache (unlike src/bpf/counting.h's), and nothing deletes keys,
 * so a read after detaching is exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "session.h"
#include "source_bpf.h"
#include "stack.h"

_Static_assert(sizeof(struct wd_stack_key) % 8 == 0, "a keyset key: whole words");

static int cmp_count(const void *x, const void *y)
{
	const struct wd_stack_total *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	if (a->reason != b->reason)
		return a->reason < b->reason ? -1 : 1;
	if (a->stack_id != b->stack_id)
		return a->stack_id < b->stack_id ? -1 : 1;
	return a->location < b->location ? -1 : a->location > b->location;
}

/* The per-reason overflow slots that counted something, after n rows of t. */
static size_t add_overflow(struct wd_stack_total *t, size_t n, const uint64_t *slots)
{
	for (uint32_t slot = 0; slot < WD_OVERFLOW_SLOTS; slot++)
		if (slots[slot])
			t[n++] = (struct wd_stack_total){ wd_slot_reason(slot), WD_STACK_NONE, 0,
							  slots[slot] };
	return n;
}

int wd_bpf_stack_totals(struct wd_bpf *b, struct wd_snapshot *snap, int ncpu)
{
	uint64_t *slots = calloc(WD_OVERFLOW_SLOTS, sizeof(*slots));
	struct wd_stack_total *t = NULL;
	struct wd_keyset ks;
	int err = slots ? 0 : -ENOMEM;
	size_t n = 0;

	wd_keyset_init(&ks, sizeof(struct wd_stack_key));
	if (!err)
		err = wd_map_read_hash(b->stack_counts_fd, &ks, ncpu);
	if (!err)
		err = wd_map_read_array(b->stack_overflow_fd, WD_OVERFLOW_SLOTS, slots, ncpu);
	if (!err) {
		t = calloc(ks.n + WD_OVERFLOW_SLOTS, sizeof(*t));
		err = t ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !err && i < ks.n; i++) {
		const struct wd_stack_key *k = wd_keyset_key(&ks, i);

		t[n++] = (struct wd_stack_total){ k->reason, k->stack_id, k->location,
						  *wd_keyset_count(&ks, i) };
	}
	if (!err) {
		n = add_overflow(t, n, slots);
		if (n)
			qsort(t, n, sizeof(*t), cmp_count);
		snap->has_stacks = true;
		snap->stacks = t;
		snap->n_stacks = n;
		t = NULL;
	}
	free(t);
	free(slots);
	wd_keyset_free(&ks);
	return err;
}

int wd_bpf_stack(struct wd_bpf *b, const struct wd_ksyms *ksyms, int32_t stack_id,
		 struct wd_stack *st)
{
	uint64_t ips[WD_STACK_DEPTH] = { 0 };
	uint32_t id = (uint32_t)stack_id;
	char what[96];

	if (stack_id == WD_STACK_NONE)
		return wd_stack_pseudo(st, "[stack not kept: --map-size stack counts full]");
	if (stack_id < 0)
		return wd_stack_pseudo(st, wd_stack_error_frame(stack_id, what, sizeof(what)));
	if (bpf_map_lookup_elem(b->stackmap_fd, &id, ips))
		return wd_stack_pseudo(st, "[stack gone from the stack map]");
	return wd_stack_symbolise(ksyms, ips, WD_STACK_DEPTH, st);
}
