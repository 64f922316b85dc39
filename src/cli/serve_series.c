// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the objects that series belong to and may outlive, a
 * cgroup (--per-cgroup) or a network namespace (--per-netns,
 * --per-interface). At each scrape every object the counts name is
 * summed; one that is gone (the caller says since when) and has not
 * dropped for --series-grace is retired: its samples are marked so, and
 * the cap (src/lib/output/prom.c) takes its series off the page. One that drops
 * again is back. Objects the counts no longer name are forgotten, so the
 * table holds no more than the counts do.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "serve.h"
#include "sorted.h"

static size_t lower_bound(const struct wd_objs *o, uint64_t id)
{
	return WD_LOWER_BOUND(o->v, o->n, id, id);
}

struct wd_obj *wd_objs_find(struct wd_objs *o, uint64_t id)
{
	size_t i = lower_bound(o, id);

	return i < o->n && o->v[i].id == id ? &o->v[i] : NULL;
}

void wd_objs_begin(struct wd_objs *o)
{
	for (size_t i = 0; i < o->n; i++) {
		o->v[i].seen = false;
		o->v[i].sum = 0;
	}
}

int wd_objs_count(struct wd_objs *o, uint64_t id, uint64_t count, double now)
{
	struct wd_obj *ob = wd_objs_find(o, id);
	size_t at;

	if (!ob) {
		if (wd_grow(&o->v, &o->cap, o->n, sizeof(*o->v), 64))
			return -1;
		at = lower_bound(o, id);
		memmove(&o->v[at + 1], &o->v[at], (o->n - at) * sizeof(*o->v));
		ob = &o->v[at];
		*ob = (struct wd_obj){ .id = id, .changed = now };
		o->n++;
	}
	ob->seen = true;
	ob->sum += count;
	return 0;
}

/* Gone for the grace period and silent for as long: off the page. */
static void judge(struct wd_objs *o, struct wd_obj *ob, double now)
{
	ob->retiring = false;
	if (ob->sum > ob->total) {
		ob->changed = now;
		ob->retired = false;	/* it drops again: back */
	}
	ob->total = ob->sum;
	if (ob->retired || !ob->id || !ob->gone)
		return;
	if (now - ob->gone >= o->grace && now - ob->changed >= o->grace) {
		ob->retired = ob->retiring = true;
		o->retired++;
	}
}

void wd_objs_settle(struct wd_objs *o, double now, wd_obj_gone_fn gone, void *ctx)
{
	size_t out = 0;

	for (size_t i = 0; i < o->n; i++) {
		struct wd_obj *ob = &o->v[i];

		if (!ob->seen) {
			free(ob->name);
			free(ob->ctr);
			continue;
		}
		ob->gone = ob->id ? gone(ctx, ob, now) : 0;
		judge(o, ob, now);
		o->v[out++] = *ob;
	}
	o->n = out;
}

bool wd_objs_retired(struct wd_objs *o, uint64_t id)
{
	const struct wd_obj *ob = wd_objs_find(o, id);

	return ob && ob->retired;
}

void wd_objs_free(struct wd_objs *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].name);
		free(o->v[i].ctr);
	}
	free(o->v);
	o->v = NULL;
	o->n = o->cap = 0;
}
