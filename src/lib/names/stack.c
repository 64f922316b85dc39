// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "stack.h"

/* Frames of the tracer itself, above the function that freed the skb. */
static bool tracing_frame(const char *name)
{
	static const char *const prefixes[] = {
		"bpf_prog_", "bpf_trampoline_", "bpf_trace_run", "__bpf_trace_",
		"__traceiter_", "trace_kfree_skb", NULL,
	};

	for (const char *const *p = prefixes; *p; p++)
		if (!strncmp(name, *p, strlen(*p)))
			return true;
	return false;
}

static int push(struct wd_stack *s, const char *frame, const char *function)
{
	char **f = realloc(s->frames, (s->n + 1) * sizeof(*f));

	if (!f)
		return -ENOMEM;
	s->frames = f;
	f = realloc(s->functions, (s->n + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	s->functions = f;
	s->frames[s->n] = strdup(frame);
	s->functions[s->n] = strdup(function);
	if (!s->frames[s->n] || !s->functions[s->n]) {
		free(s->frames[s->n]);
		free(s->functions[s->n]);
		return -ENOMEM;
	}
	s->n++;
	return 0;
}

int wd_stack_symbolise(const struct wd_ksyms *k, const uint64_t *ips, size_t n,
		       struct wd_stack *out)
{
	bool above = true;	/* still in the tracer's own frames */
	char frame[320];
	int err = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n && ips[i] && !err; i++) {
		const struct wd_ksym *s = wd_ksym_format(k, ips[i], true, frame, sizeof(frame));

		if (above && s && tracing_frame(s->name))
			continue;
		above = false;
		err = push(out, frame, s ? s->name : frame);
	}
	if (err)
		wd_stack_free(out);
	return err;
}

int wd_stack_pseudo(struct wd_stack *out, const char *what)
{
	memset(out, 0, sizeof(*out));
	return push(out, what, what);
}

void wd_stack_free(struct wd_stack *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->frames[i]);
		free(s->functions[i]);
	}
	free(s->frames);
	free(s->functions);
	memset(s, 0, sizeof(*s));
}

const char *wd_stack_error_frame(int32_t stack_id, char *buf, size_t len)
{
	if (stack_id == -EEXIST)
		snprintf(buf, len, "[stack lost: bucket collision]");
	else if (stack_id == -ENOMEM)
		snprintf(buf, len, "[stack lost: stack map full]");
	else if (stack_id == -EFAULT)
		snprintf(buf, len, "[stack lost: not readable]");
	else
		snprintf(buf, len, "[stack lost: error %d]", (int)-stack_id);
	return buf;
}

/* ---------------------------------------------------------- folded */

static void append_clean(char *dst, size_t *used, const char *s)
{
	for (; *s; s++)
		dst[(*used)++] = (*s == ';' || (unsigned char)*s <= ' ' || *s == 0x7f) ? '_' : *s;
}

int wd_folded_add(struct wd_folded *fo, const char *root, const struct wd_stack *st,
		  uint64_t count)
{
	size_t len = root ? strlen(root) + 1 : 1, used = 0;
	char *text;

	for (size_t i = 0; i < st->n; i++)
		len += strlen(st->functions[i]) + 1;
	text = malloc(len);
	if (!text)
		return -ENOMEM;
	if (root)
		append_clean(text, &used, root);
	/* Outermost frame first: the stack is stored innermost first. */
	for (size_t i = st->n; i-- > 0;) {
		if (used)
			text[used++] = ';';
		append_clean(text, &used, st->functions[i]);
	}
	text[used] = '\0';
	if (wd_grow(&fo->v, &fo->cap, fo->n, sizeof(*fo->v), 64)) {
		free(text);
		return -ENOMEM;
	}
	fo->v[fo->n].text = text;
	fo->v[fo->n].count = count;
	fo->n++;
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct wd_folded_line *)a)->text,
		      ((const struct wd_folded_line *)b)->text);
}

void wd_folded_write(FILE *f, struct wd_folded *fo)
{
	if (fo->n)
		qsort(fo->v, fo->n, sizeof(*fo->v), cmp_line);
	for (size_t i = 0; i < fo->n;) {
		uint64_t sum = 0;
		size_t j = i;

		for (; j < fo->n && !strcmp(fo->v[j].text, fo->v[i].text); j++)
			sum += fo->v[j].count;
		if (sum && fo->v[i].text[0])
			fprintf(f, "%s %" PRIu64 "\n", fo->v[i].text, sum);
		i = j;
	}
}

void wd_folded_free(struct wd_folded *fo)
{
	for (size_t i = 0; i < fo->n; i++)
		free(fo->v[i].text);
	free(fo->v);
	memset(fo, 0, sizeof(*fo));
}
