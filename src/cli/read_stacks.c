// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * read --stacks: drops counted per (reason, location, recorded stack), one
 * exact count each, from the packet comments. The key is the comment's
 * words themselves: the frames keep their offsets, as count keeps them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drop_comment.h"
#include "grow.h"
#include "read_stacks.h"

#define MAX_FRAMES	128	/* as read --lines prints them */

struct wd_read_stack {
	char *reason;		/* NULL: a location-only recording */
	uint32_t code;
	char *function, *location;
	char *stack;		/* the comment's stack= word, "" if none */
	char **frames;		/* as watch prints them, "f+0x1 [mod]", innermost first */
	size_t n_frames;
	uint32_t hash;
	uint64_t count;
};

static uint32_t fnv(uint32_t h, const char *s, size_t len)
{
	for (size_t i = 0; s && i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return (h ^ 0xff) * 16777619u;	/* a separator: "a"+"b" differs from "ab"+"" */
}

/* The stack= word of a comment, NULL-terminated copy in buf; "" when none. */
static const char *stack_word(const char *comment, size_t *len)
{
	const char *p = comment;

	for (; p && (p = strstr(p, "stack=")); p += 6) {
		if (p != comment && p[-1] != ' ')
			continue;
		p += 6;
		*len = strcspn(p, " \n");
		return p;
	}
	*len = 0;
	return "";
}

static bool same(const struct wd_read_stack *e, const struct wd_pcapng_meta *m,
		 const char *stack, size_t len)
{
	const char *reason = m->has_reason ? m->reason : NULL;

	if ((e->reason == NULL) != (reason == NULL) || (reason && strcmp(e->reason, reason)))
		return false;
	return !strcmp(e->location, m->location) && strlen(e->stack) == len &&
	       !memcmp(e->stack, stack, len);
}

/* "f1;f2+0x1[mod]" into frames "f1", "f2+0x1 [mod]"; "" gives WD_READ_NO_STACK. */
static int split_frames(struct wd_read_stack *e)
{
	const char *p = e->stack;
	size_t n = 0;

	e->frames = calloc(MAX_FRAMES, sizeof(*e->frames));
	if (!e->frames)
		return -ENOMEM;
	if (!*p) {
		e->frames[0] = strdup(WD_READ_NO_STACK);
		e->n_frames = 1;
		return e->frames[0] ? 0 : -ENOMEM;
	}
	while (*p && n < MAX_FRAMES) {
		size_t len = strcspn(p, ";"), b = strcspn(p, "[");
		char *f = malloc(len + 2);

		if (!f)
			return -ENOMEM;
		if (b > 0 && b < len)	/* module frames as watch prints them */
			snprintf(f, len + 2, "%.*s %.*s", (int)b, p, (int)(len - b), p + b);
		else
			snprintf(f, len + 1, "%.*s", (int)len, p);
		wd_pcapng_stack_frame(f);
		e->frames[n++] = f;
		e->n_frames = n;
		p += len + (p[len] == ';');
	}
	return 0;
}

static int rehash(struct wd_read_stacks *rs)
{
	size_t n = rs->n_slots ? rs->n_slots * 2 : 256;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < rs->n; i++) {
		size_t k = rs->v[i].hash & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(rs->slots);
	rs->slots = s;
	rs->n_slots = n;
	return 0;
}

static int add_new(struct wd_read_stacks *rs, const struct wd_pcapng_meta *m,
		   const char *stack, size_t len, uint32_t h)
{
	struct wd_read_stack *e;

	if ((rs->n + 1) * 2 > rs->n_slots && rehash(rs))
		return -ENOMEM;
	if (wd_grow(&rs->v, &rs->cap, rs->n, sizeof(*rs->v), 64))
		return -ENOMEM;
	e = &rs->v[rs->n];
	*e = (struct wd_read_stack){ .code = m->code, .hash = h, .count = 1 };
	e->reason = m->has_reason ? strdup(m->reason) : NULL;
	e->function = strdup(m->function);
	e->location = strdup(m->location);
	e->stack = strndup(stack, len);
	rs->n++;	/* freed with the others, whatever failed */
	if ((m->has_reason && !e->reason) || !e->function || !e->location || !e->stack)
		return -ENOMEM;
	if (split_frames(e))
		return -ENOMEM;
	for (size_t k = h & (rs->n_slots - 1);; k = (k + 1) & (rs->n_slots - 1)) {
		if (!rs->slots[k]) {
			rs->slots[k] = (uint32_t)rs->n;
			return 0;
		}
	}
}

int wd_read_stacks_add(struct wd_read_stacks *rs, const struct wd_pcapng_meta *m,
		       const char *comment)
{
	size_t len;
	const char *stack = stack_word(comment, &len);
	const char *reason = m->has_reason ? m->reason : "";
	uint32_t h;

	h = fnv(fnv(fnv(2166136261u, reason, strlen(reason)), m->location,
		    strlen(m->location)), stack, len);
	if (len)
		rs->with_stack++;
	else
		rs->without++;
	for (size_t k = rs->n_slots ? h & (rs->n_slots - 1) : 0; rs->n_slots && rs->slots[k];
	     k = (k + 1) & (rs->n_slots - 1)) {
		struct wd_read_stack *e = &rs->v[rs->slots[k] - 1];

		if (e->hash == h && same(e, m, stack, len)) {
			e->count++;
			return 0;
		}
	}
	return add_new(rs, m, stack, len, h);
}

/* Largest first; then by reason, location and stack, so the output is stable. */
static int cmp_stack(const void *a, const void *b)
{
	const struct wd_read_stack *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	c = strcmp(x->reason ? x->reason : "", y->reason ? y->reason : "");
	if (c)
		return c;
	c = strcmp(x->location, y->location);
	return c ? c : strcmp(x->stack, y->stack);
}

int wd_read_stacks_doc(struct wd_read_stacks *rs, struct wd_count_doc *doc)
{
	free(rs->rows);
	rs->rows = calloc(rs->n ? rs->n : 1, sizeof(*rs->rows));
	if (!rs->rows)
		return -ENOMEM;
	/* the index is not used again */
	if (rs->n)
		qsort(rs->v, rs->n, sizeof(*rs->v), cmp_stack);
	for (size_t i = 0; i < rs->n; i++)
		rs->rows[i] = (struct wd_stack_row){
			.reason = rs->v[i].reason, .code = rs->v[i].code,
			.function = rs->v[i].function, .location = rs->v[i].location,
			.count = rs->v[i].count,
			.frames = (const char *const *)rs->v[i].frames,
			.n_frames = rs->v[i].n_frames,
		};
	free(rs->slots);
	rs->slots = NULL;
	rs->n_slots = 0;
	doc->has_stacks = true;
	doc->stacks = rs->rows;
	doc->n_stacks = rs->n;
	return 0;
}

void wd_read_stacks_free(struct wd_read_stacks *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct wd_read_stack *e = &rs->v[i];

		for (size_t k = 0; e->frames && k < e->n_frames; k++)
			free(e->frames[k]);
		free(e->frames);
		free(e->reason);
		free(e->function);
		free(e->location);
		free(e->stack);
	}
	free(rs->v);
	free(rs->slots);
	free(rs->rows);
	memset(rs, 0, sizeof(*rs));
}
