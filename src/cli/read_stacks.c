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
#include "read_stacks.h"

#define MAX_FRAMES	128	/* as read --lines prints them */

/* A row of the table; a key borrows its strings, a row owns copies (own()). */
struct wd_read_stack {
	char *reason;		/* NULL: a location-only recording */
	uint32_t code;
	char *function, *location;
	char *stack;		/* the comment's stack= word, "" if none */
	size_t stack_len;
	char **frames;		/* as watch prints them, "f+0x1 [mod]", innermost first */
	size_t n_frames;
	uint32_t hash;
	uint64_t count;		/* 0: a new row, before own() */
};

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

static uint32_t stack_hash(const void *row)
{
	return ((const struct wd_read_stack *)row)->hash;
}

static bool same_stack(const void *a, const void *b)
{
	const struct wd_read_stack *x = a, *y = b;

	if (x->hash != y->hash || (x->reason == NULL) != (y->reason == NULL) ||
	    (x->reason && strcmp(x->reason, y->reason)))
		return false;
	return !strcmp(x->location, y->location) && x->stack_len == y->stack_len &&
	       !memcmp(x->stack, y->stack, x->stack_len);
}

void wd_read_stacks_init(struct wd_read_stacks *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->t = (struct wd_read_table){ .size = sizeof(struct wd_read_stack), .hash = stack_hash,
				.same = same_stack };
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

/* A new row's own copies of the key's strings, and its frames. */
static int own(struct wd_read_stack *e)
{
	struct wd_read_stack k = *e;

	e->reason = k.reason ? strdup(k.reason) : NULL;
	e->function = strdup(k.function);
	e->location = strdup(k.location);
	e->stack = strndup(k.stack, k.stack_len);
	if ((k.reason && !e->reason) || !e->function || !e->location || !e->stack)
		return -ENOMEM;
	return split_frames(e);
}

int wd_read_stacks_add(struct wd_read_stacks *rs, const struct wd_pcapng_meta *m,
		       const char *comment)
{
	struct wd_read_stack key = { .code = m->code }, *e;
	const char *reason = m->has_reason ? m->reason : "";

	key.stack = (char *)stack_word(comment, &key.stack_len);
	key.reason = m->has_reason ? (char *)m->reason : NULL;
	key.function = (char *)m->function;
	key.location = (char *)m->location;
	key.hash = wd_table_hash_field(wd_table_hash_field(wd_table_hash_field(2166136261u,
			reason, strlen(reason)), m->location, strlen(m->location)),
			key.stack, key.stack_len);
	if (key.stack_len)
		rs->with_stack++;
	else
		rs->without++;
	e = wd_table_get(&rs->t, &key);
	if (!e || (!e->count && own(e)))
		return -ENOMEM;
	e->count++;
	return 0;
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
	struct wd_read_stack *v = (struct wd_read_stack *)rs->t.rows;
	size_t n = rs->t.n;

	free(rs->rows);
	rs->rows = calloc(n ? n : 1, sizeof(*rs->rows));
	if (!rs->rows)
		return -ENOMEM;
	/* the index is not used again */
	if (n)
		qsort(v, n, sizeof(*v), cmp_stack);
	for (size_t i = 0; i < n; i++)
		rs->rows[i] = (struct wd_stack_row){
			.reason = v[i].reason, .code = v[i].code,
			.function = v[i].function, .location = v[i].location,
			.count = v[i].count,
			.frames = (const char *const *)v[i].frames,
			.n_frames = v[i].n_frames,
		};
	doc->has_stacks = true;
	doc->stacks = rs->rows;
	doc->n_stacks = n;
	return 0;
}

void wd_read_stacks_free(struct wd_read_stacks *rs)
{
	struct wd_read_stack *v = (struct wd_read_stack *)rs->t.rows;

	for (size_t i = 0; i < rs->t.n; i++) {
		for (size_t k = 0; v[i].frames && k < v[i].n_frames; k++)
			free(v[i].frames[k]);
		free(v[i].frames);
		free(v[i].reason);
		free(v[i].function);
		free(v[i].location);
		free(v[i].stack);
	}
	wd_table_free(&rs->t);
	free(rs->rows);
	wd_read_stacks_init(rs);
}
