// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Prometheus text exposition format: see prom.h. Reference: the format is
 * "metric{label="value",...} value\n" after "# HELP" and "# TYPE" lines;
 * label values escape \ " and newline, HELP text escapes \ and newline.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "prom.h"
#include "utf8.h"

struct wd_prom_key {
	uint64_t hash;
	char *v[WD_PROM_MAX_LABELS];
};

static int reserve(struct wd_prom_buf *b, size_t more)
{
	size_t ncap;
	char *tmp;

	if (b->failed)
		return -1;
	if (b->len + more + 1 <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 4096;
	while (ncap < b->len + more + 1)
		ncap *= 2;
	tmp = realloc(b->data, ncap);
	if (!tmp) {
		b->failed = true;
		return -1;
	}
	b->data = tmp;
	b->cap = ncap;
	return 0;
}

void wd_prom_printf(struct wd_prom_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void put_escaped(struct wd_prom_buf *b, const char *s, bool quote)
{
	for (; *s; s++) {
		size_t n = wd_utf8_len(s);

		if (reserve(b, 4))
			return;
		if (n > 1) {
			memcpy(b->data + b->len, s, n);
			b->len += n;
			s += n - 1;
		} else if (!n) {	/* the exposition format is UTF-8 */
			memcpy(b->data + b->len, WD_UTF8_REPLACEMENT, 3);
			b->len += 3;
		} else if (*s == '\\' || (quote && *s == '"')) {
			b->data[b->len++] = '\\';
			b->data[b->len++] = *s;
		} else if (*s == '\n') {
			b->data[b->len++] = '\\';
			b->data[b->len++] = 'n';
		} else {
			b->data[b->len++] = *s;
		}
	}
	if (b->data)
		b->data[b->len] = '\0';
}

void wd_prom_escape(struct wd_prom_buf *b, const char *value)
{
	put_escaped(b, value, true);
}

void wd_prom_buf_free(struct wd_prom_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static void free_values(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i]);
		v[i] = NULL;
	}
}

int wd_prom_add(struct wd_prom_family *f, const char *const *values, uint64_t value)
{
	struct wd_prom_sample *s;

	if (wd_grow(&f->s, &f->cap, f->n, sizeof(*f->s), 64))
		return -ENOMEM;
	s = &f->s[f->n];
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < f->nlabels; i++) {
		s->v[i] = strdup(values[i] ? values[i] : "");
		if (!s->v[i]) {
			free_values(s->v, i);
			return -ENOMEM;
		}
	}
	s->value = value;
	f->n++;
	return 0;
}

static int cmp_values(char *const *a, char *const *b)
{
	for (size_t i = 0; i < WD_PROM_MAX_LABELS; i++) {
		int c;

		if (!a[i] || !b[i])
			return (b[i] == NULL) - (a[i] == NULL);
		c = strcmp(a[i], b[i]);
		if (c)
			return c;
	}
	return 0;
}

/* qsort() must not be given a NULL array, even empty. */
static void sort(struct wd_prom_family *f, int (*cmp)(const void *, const void *))
{
	if (f->n > 1)
		qsort(f->s, f->n, sizeof(*f->s), cmp);
}

static int cmp_labels(const void *a, const void *b)
{
	return cmp_values(((const struct wd_prom_sample *)a)->v,
			  ((const struct wd_prom_sample *)b)->v);
}

/* Largest first; equal values by labels, so that admission is deterministic. */
static int cmp_value_desc(const void *a, const void *b)
{
	const struct wd_prom_sample *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return cmp_values(x->v, y->v);
}

void wd_prom_merge(struct wd_prom_family *f)
{
	size_t out = 0;

	if (!f->n)
		return;
	sort(f, cmp_labels);
	for (size_t i = 1; i < f->n; i++) {
		if (!cmp_values(f->s[out].v, f->s[i].v)) {
			f->s[out].value += f->s[i].value;
			free_values(f->s[i].v, f->nlabels);
			continue;
		}
		f->s[++out] = f->s[i];
	}
	f->n = out + 1;
}

void wd_prom_family_clear(struct wd_prom_family *f)
{
	for (size_t i = 0; i < f->n; i++)
		free_values(f->s[i].v, f->nlabels);
	free(f->s);
	f->s = NULL;
	f->n = f->cap = 0;
}

/* FNV-1a over the values, each with its terminating NUL. */
static uint64_t hash_values(char *const *v, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++) {
		const char *p = v[i];

		do {
			h ^= (unsigned char)*p;
			h *= 1099511628211ULL;
		} while (*p++);
	}
	return h;
}

/* Index of the first key with hash >= h. */
static size_t key_lower_bound(const struct wd_prom_cap *c, uint64_t h)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->keys[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool admitted(const struct wd_prom_cap *c, char *const *v, size_t n)
{
	uint64_t h = hash_values(v, n);

	for (size_t i = key_lower_bound(c, h); i < c->n && c->keys[i].hash == h; i++)
		if (!cmp_values(c->keys[i].v, v))
			return true;
	return false;
}

static int admit(struct wd_prom_cap *c, char *const *v, size_t n)
{
	struct wd_prom_key k = { .hash = hash_values(v, n) };
	size_t at;

	if (wd_grow(&c->keys, &c->cap, c->n, sizeof(*c->keys), 32))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		k.v[i] = strdup(v[i]);
		if (!k.v[i]) {
			free_values(k.v, i);
			return -ENOMEM;
		}
	}
	at = key_lower_bound(c, k.hash);
	memmove(&c->keys[at + 1], &c->keys[at], (c->n - at) * sizeof(k));
	c->keys[at] = k;
	c->n++;
	return 0;
}

/* Admit new label sets, largest first, while there is room. */
static int admit_new(struct wd_prom_cap *c, struct wd_prom_family *f)
{
	size_t room = c->max > 1 ? c->max - 1 : 0;
	int err = 0;

	sort(f, cmp_value_desc);
	for (size_t i = 0; i < f->n && c->n < room && !err; i++)
		if (!admitted(c, f->s[i].v, f->nlabels))
			err = admit(c, f->s[i].v, f->nlabels);
	return err;
}

int wd_prom_cap_apply(struct wd_prom_cap *c, struct wd_prom_family *f)
{
	const char *other[WD_PROM_MAX_LABELS];
	uint64_t rest = 0;
	size_t out = 0;
	int err;

	err = admit_new(c, f);
	if (err)
		return err;
	c->folded = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (admitted(c, f->s[i].v, f->nlabels)) {
			f->s[out++] = f->s[i];
			continue;
		}
		rest += f->s[i].value;
		c->folded++;
		free_values(f->s[i].v, f->nlabels);
	}
	f->n = out;
	sort(f, cmp_labels);
	for (size_t i = 0; i < f->nlabels; i++)
		other[i] = WD_PROM_OTHER;
	return wd_prom_add(f, other, rest);
}

void wd_prom_cap_free(struct wd_prom_cap *c)
{
	for (size_t i = 0; i < c->n; i++)
		free_values(c->keys[i].v, WD_PROM_MAX_LABELS);
	free(c->keys);
	c->keys = NULL;
	c->n = c->cap = 0;
}

void wd_prom_render_header(struct wd_prom_buf *b, const char *name, const char *type,
			   const char *help)
{
	wd_prom_printf(b, "# HELP %s ", name);
	put_escaped(b, help, false);
	wd_prom_printf(b, "\n# TYPE %s %s\n", name, type);
}

void wd_prom_render_family(struct wd_prom_buf *b, const struct wd_prom_family *f)
{
	wd_prom_render_header(b, f->name, f->type, f->help);
	for (size_t i = 0; i < f->n; i++) {
		wd_prom_printf(b, "%s", f->name);
		for (size_t j = 0; j < f->nlabels; j++) {
			wd_prom_printf(b, "%s%s=\"", j ? "," : "{", f->labels[j]);
			wd_prom_escape(b, f->s[i].v[j]);
			wd_prom_printf(b, "\"%s", j + 1 == f->nlabels ? "}" : "");
		}
		wd_prom_printf(b, " %" PRIu64 "\n", f->s[i].value);
	}
}

void wd_prom_render_value(struct wd_prom_buf *b, const char *name, const char *type,
			  const char *help, uint64_t value)
{
	wd_prom_render_header(b, name, type, help);
	wd_prom_printf(b, "%s %" PRIu64 "\n", name, value);
}
