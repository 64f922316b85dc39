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
#include "sorted.h"
#include "utf8.h"

/*
 * A label set the cap has seen. Its value on the page is
 * raw + carry - offset: the input, what left the input (carried so that
 * the value never goes down), less what it had before its series began.
 */
struct wd_prom_key {
	uint64_t hash;
	char *v[WD_PROM_MAX_LABELS];
	uint64_t raw;		/* the input at the last apply (retired: at retirement) */
	uint64_t carry, offset;
	uint64_t shown;		/* its value at the last apply */
	bool admitted;		/* a series of its own */
	bool retired;		/* a tombstone: not on the page */
	bool exported;		/* has been on the page (own series or fold) */
	bool seen;		/* in this apply's input */
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
	return wd_prom_add_retired(f, values, value, false);
}

int wd_prom_add_retired(struct wd_prom_family *f, const char *const *values, uint64_t value,
			bool retired)
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
	s->retired = retired;
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

void wd_prom_merge(struct wd_prom_family *f)
{
	size_t out = 0;

	if (!f->n)
		return;
	sort(f, cmp_labels);
	for (size_t i = 1; i < f->n; i++) {
		if (!cmp_values(f->s[out].v, f->s[i].v)) {
			f->s[out].value += f->s[i].value;
			f->s[out].retired &= f->s[i].retired;
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

static int cmp_key_hash(const void *a, const void *b)
{
	const struct wd_prom_key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return cmp_values(x->v, y->v);
}

/* The key of these labels among the first n (sorted by hash), or NULL. */
static struct wd_prom_key *find_key(struct wd_prom_cap *c, size_t n, char *const *v,
				    size_t nlabels)
{
	uint64_t h = hash_values(v, nlabels);
	size_t lo = WD_LOWER_BOUND(c->keys, n, hash, h);

	for (; lo < n && c->keys[lo].hash == h; lo++)
		if (!cmp_values(c->keys[lo].v, v))
			return &c->keys[lo];
	return NULL;
}

/* A label set seen for the first time, appended (sorted at the end of the apply). */
static int new_key(struct wd_prom_cap *c, const struct wd_prom_sample *s, size_t nlabels)
{
	struct wd_prom_key *k;

	if (wd_grow(&c->keys, &c->cap, c->n, sizeof(*c->keys), 32))
		return -ENOMEM;
	k = &c->keys[c->n];
	memset(k, 0, sizeof(*k));
	for (size_t i = 0; i < nlabels; i++) {
		k->v[i] = strdup(s->v[i]);
		if (!k->v[i]) {
			free_values(k->v, i);
			return -ENOMEM;
		}
	}
	k->hash = hash_values(k->v, nlabels);
	k->raw = s->value;
	k->seen = true;
	c->n++;
	return 0;
}

static uint64_t key_value(const struct wd_prom_key *k)
{
	return k->raw + k->carry - k->offset;
}

/* Off the page: a series vanishes; a folded value stays in the fold. */
static void retire(struct wd_prom_cap *c, struct wd_prom_key *k)
{
	if (k->exported && !k->admitted)
		c->fold_base += k->shown;
	k->admitted = false;
	k->exported = false;
	k->retired = true;
	c->retired++;
}

/* One merged sample into the key of its labels; -ENOMEM only. */
static int take_sample(struct wd_prom_cap *c, size_t sorted, const struct wd_prom_sample *s,
		       size_t nlabels)
{
	struct wd_prom_key *k = find_key(c, sorted, s->v, nlabels);

	if (!k)
		return s->retired ? 0 : new_key(c, s, nlabels);
	k->seen = true;
	if (k->retired) {
		/* a tombstone comes back, counting from 0, once its input grows */
		if (s->retired || s->value <= k->raw) {
			k->raw = s->value < k->raw ? s->value : k->raw;
			return 0;
		}
		k->retired = false;
		k->offset = k->raw;
		k->carry = 0;
	}
	if (s->value < k->raw)
		k->carry += k->raw - s->value;
	k->raw = s->value;
	if (s->retired)
		retire(c, k);
	return 0;
}

/* Keys not in this input leave: retired first (a folded value stays), then freed. */
static void drop_unseen(struct wd_prom_cap *c)
{
	size_t out = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct wd_prom_key *k = &c->keys[i];

		if (k->seen) {
			c->keys[out++] = *k;
			continue;
		}
		if (!k->retired)
			retire(c, k);
		free_values(k->v, WD_PROM_MAX_LABELS);
	}
	c->n = out;
}

/* Largest first; equal values by labels, so that admission is deterministic. */
static int cmp_candidate(const void *a, const void *b)
{
	const struct wd_prom_key *x = *(struct wd_prom_key *const *)a;
	const struct wd_prom_key *y = *(struct wd_prom_key *const *)b;
	uint64_t vx = key_value(x), vy = key_value(y);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	return cmp_values(x->v, y->v);
}

/*
 * Room for label sets without a series, largest first. One that was in
 * the fold leaves its value there: its series starts from what it has
 * counted since the last apply.
 */
static int admit_new(struct wd_prom_cap *c)
{
	size_t room = c->max > 1 ? c->max - 1 : 0, used = 0, n = 0;
	struct wd_prom_key **cand;

	for (size_t i = 0; i < c->n; i++)
		used += c->keys[i].admitted;
	if (used >= room)
		return 0;
	cand = malloc((c->n ? c->n : 1) * sizeof(*cand));
	if (!cand)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++)
		if (!c->keys[i].admitted && !c->keys[i].retired)
			cand[n++] = &c->keys[i];
	if (n > 1)
		qsort(cand, n, sizeof(*cand), cmp_candidate);
	for (size_t i = 0; i < n && used < room; i++, used++) {
		if (cand[i]->exported) {
			c->fold_base += cand[i]->shown;
			cand[i]->offset += cand[i]->shown;
		}
		cand[i]->admitted = true;
	}
	free(cand);
	return 0;
}

/* The page: the admitted samples with their values, then the fold. */
static int keep_admitted(struct wd_prom_cap *c, struct wd_prom_family *f)
{
	const char *other[WD_PROM_MAX_LABELS];
	uint64_t rest = c->fold_base;
	size_t out = 0;

	c->folded = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct wd_prom_key *k = &c->keys[i];

		if (k->retired)
			continue;
		k->shown = key_value(k);
		k->exported = true;
		if (!k->admitted) {
			rest += k->shown;
			c->folded++;
		}
	}
	for (size_t i = 0; i < f->n; i++) {
		struct wd_prom_key *k = find_key(c, c->n, f->s[i].v, f->nlabels);

		if (k && k->admitted) {
			f->s[i].value = k->shown;
			f->s[out++] = f->s[i];
			continue;
		}
		free_values(f->s[i].v, f->nlabels);
	}
	f->n = out;
	for (size_t i = 0; i < f->nlabels; i++)
		other[i] = WD_PROM_OTHER;
	return wd_prom_add(f, other, rest);
}

int wd_prom_cap_apply(struct wd_prom_cap *c, struct wd_prom_family *f)
{
	size_t sorted = c->n;
	int err = 0;

	for (size_t i = 0; i < c->n; i++)
		c->keys[i].seen = false;
	for (size_t i = 0; !err && i < f->n; i++)
		err = take_sample(c, sorted, &f->s[i], f->nlabels);
	if (err)
		return err;
	drop_unseen(c);
	if (c->n > 1)
		qsort(c->keys, c->n, sizeof(*c->keys), cmp_key_hash);
	err = admit_new(c);
	if (err)
		return err;
	sort(f, cmp_labels);
	return keep_admitted(c, f);
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
