// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --stacks: the (reason, location, stack) counts and the stacks themselves.
 * Nothing here runs in the kernel's hot path (that is src/bpf/stacks.h).
 * Its counting map has no runs cache (unlike src/bpf/counting.h's), and
 * nothing deletes keys, so a read after detaching is exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core.h"
#include "grow.h"
#include "session.h"
#include "stack.h"

struct vec {
	struct wd_stack_total *v;
	size_t n, cap;
};

static int push(struct vec *v, struct wd_stack_total t)
{
	if (wd_grow(&v->v, &v->cap, v->n, sizeof(*v->v), 128))
		return -ENOMEM;
	v->v[v->n++] = t;
	return 0;
}

static int read_counts(struct wd_session *s, struct vec *v, uint64_t *vals, int ncpu)
{
	struct wd_stack_key key, next, *prev = NULL;
	int err = 0;

	while (!err && !bpf_map_get_next_key(s->stack_counts_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(s->stack_counts_fd, &key, vals))
			continue;
		err = push(v, (struct wd_stack_total){ key.reason, key.stack_id, key.location,
						       wd_cpu_sum(vals, ncpu) });
	}
	if (!err && errno != ENOENT)
		err = -errno;
	for (uint32_t slot = 0; !err && slot < WD_OVERFLOW_SLOTS; slot++) {
		uint64_t n;

		if (bpf_map_lookup_elem(s->stack_overflow_fd, &slot, vals))
			continue;
		n = wd_cpu_sum(vals, ncpu);
		if (n)
			err = push(v, (struct wd_stack_total){ wd_slot_reason(slot), WD_STACK_NONE,
							       0, n });
	}
	return err;
}

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

int wd_session_stack_totals(struct wd_session *s, struct wd_stack_total **out, size_t *n)
{
	int ncpu = libbpf_num_possible_cpus();
	struct vec v = { 0 };
	uint64_t *vals;
	int err;

	*out = NULL;
	*n = 0;
	if (!s->stacks)
		return 0;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	err = read_counts(s, &v, vals, ncpu);
	free(vals);
	if (err) {
		free(v.v);
		return err;
	}
	if (v.n)
		qsort(v.v, v.n, sizeof(*v.v), cmp_count);
	*out = v.v;
	*n = v.n;
	return 0;
}

int wd_session_stack(struct wd_session *s, int32_t stack_id, struct wd_stack *st)
{
	uint64_t ips[WD_STACK_DEPTH] = { 0 };
	uint32_t id = (uint32_t)stack_id;
	char what[96];

	if (stack_id == WD_STACK_NONE)
		return wd_stack_pseudo(st, "[stack not kept: --map-size stack counts full]");
	if (stack_id < 0)
		return wd_stack_pseudo(st, wd_stack_error_frame(stack_id, what, sizeof(what)));
	if (bpf_map_lookup_elem(s->stackmap_fd, &id, ips))
		return wd_stack_pseudo(st, "[stack gone from the stack map]");
	return wd_stack_symbolise(&s->ksyms, ips, WD_STACK_DEPTH, st);
}
