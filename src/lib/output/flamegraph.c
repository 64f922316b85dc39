// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Flame graphs: the tree of frames built from folded stacks, and the
 * folded text parser. The SVG is written by flamegraph_svg.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "grow.h"
#include "flamegraph_tree.h"

static struct wd_flame_node *node_new(const char *name, size_t len)
{
	struct wd_flame_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->name = strndup(name, len);
	if (!n->name) {
		free(n);
		return NULL;
	}
	return n;
}

static void node_free(struct wd_flame_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		node_free(n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n);
}

int wd_flame_init(struct wd_flame *fg)
{
	memset(fg, 0, sizeof(*fg));
	fg->root = node_new("all", 3);
	return fg->root ? 0 : -ENOMEM;
}

void wd_flame_free(struct wd_flame *fg)
{
	node_free(fg->root);
	memset(fg, 0, sizeof(*fg));
}

uint64_t wd_flame_total(const struct wd_flame *fg)
{
	return fg->root ? fg->root->total : 0;
}

/* Compare a frame's name with the len bytes at s, as strcmp would. */
static int name_cmp(const char *name, const char *s, size_t len)
{
	int c = strncmp(name, s, len);

	if (c)
		return c;
	return name[len] ? 1 : 0;
}

/*
 * The child of n named by the len bytes at s, made (in name order) when
 * missing. NULL: out of memory.
 */
static struct wd_flame_node *child(struct wd_flame_node *n, const char *s, size_t len)
{
	struct wd_flame_node *k;
	size_t lo = 0, hi = n->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = name_cmp(n->kids[mid]->name, s, len);

		if (!c)
			return n->kids[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (wd_grow(&n->kids, &n->cap, n->n, sizeof(*n->kids), 4))
		return NULL;
	k = node_new(s, len);
	if (!k)
		return NULL;
	memmove(n->kids + lo + 1, n->kids + lo, (n->n - lo) * sizeof(*n->kids));
	n->kids[lo] = k;
	n->n++;
	return k;
}

/* Frames in a stack, or 0 when one is empty or there are too many. */
static size_t count_frames(const char *stack)
{
	size_t frames = 1;

	for (const char *p = stack; *p; p++) {
		if (*p != ';')
			continue;
		if (p == stack || p[1] == ';' || !p[1])
			return 0;
		if (++frames > WD_FLAME_MAX_DEPTH)
			return 0;
	}
	return *stack ? frames : 0;
}

int wd_flame_add(struct wd_flame *fg, const char *stack, uint64_t count)
{
	struct wd_flame_node *path[WD_FLAME_MAX_DEPTH], *n = fg->root;
	size_t frames = count_frames(stack), i = 0;
	const char *p = stack;

	if (!frames)
		return -EINVAL;
	if (!count)
		return 0;
	if (count > UINT64_MAX - fg->root->total)
		return -EOVERFLOW;
	/* Make the frames first: counts are added only once all exist. */
	while (i < frames) {
		size_t len = strcspn(p, ";");

		n = child(n, p, len);
		if (!n)
			return -ENOMEM;
		path[i++] = n;
		p += len + (p[len] == ';');
	}
	fg->root->total += count;
	for (i = 0; i < frames; i++)
		path[i]->total += count;
	if (frames > fg->depth)
		fg->depth = frames;
	return 0;
}

/* The count at the end of a line of len bytes; -1 when there is none. */
static int split_count(const char *line, size_t len, size_t *stack_len, uint64_t *count)
{
	size_t end = len, start;
	uint64_t v = 0;

	while (end && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r'))
		end--;
	start = end;
	while (start && line[start - 1] >= '0' && line[start - 1] <= '9')
		start--;
	if (start == end || !start || (line[start - 1] != ' ' && line[start - 1] != '\t'))
		return -1;
	for (size_t i = start; i < end; i++) {
		unsigned int d = (unsigned int)(line[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*count = v;
	*stack_len = start - 1;
	while (*stack_len && (line[*stack_len - 1] == ' ' || line[*stack_len - 1] == '\t'))
		(*stack_len)--;
	return 0;
}

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

static int parse_line(struct wd_flame *fg, const char *s, size_t len)
{
	size_t stack_len;
	uint64_t count;
	char *stack;
	int err;

	if (blank(s, len))
		return 0;
	if (split_count(s, len, &stack_len, &count) || memchr(s, '\0', stack_len))
		return -EINVAL;
	stack = strndup(s, stack_len);
	if (!stack)
		return -ENOMEM;
	err = wd_flame_add(fg, stack, count);
	free(stack);
	return err;
}

int wd_flame_parse(struct wd_flame *fg, const char *text, size_t len, size_t *line)
{
	size_t off = 0;
	int err = 0;

	*line = 0;
	while (off < len && !err) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : len - off;

		(*line)++;
		err = parse_line(fg, text + off, n);
		off += n + 1;
	}
	if (!err)
		*line = 0;
	return err;
}
