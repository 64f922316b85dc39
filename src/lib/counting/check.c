// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* count --fail-on: parsing the thresholds, and which were crossed; see check.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalogue.h"
#include "check.h"

#define EXAMPLE	"e.g. --fail-on 'NO_SOCKET>100/s,NETFILTER_DROP>0'"

/* --------------------------------------------------------------- parsing */

/* A copy of s without blanks, so that 'NO_SOCKET > 100/s' reads too. */
static void squeeze(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		if (!isspace((unsigned char)*s))
			out[n++] = *s;
	out[n] = '\0';
}

/* A non-negative decimal number, the whole string ("100", "0.5"): 0 or -1. */
static int number(const char *s, bool whole, double *out)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out))
		return -1;
	if (whole && (strchr(s, '.') || strpbrk(s, "eE")))
		return -1;
	return strpbrk(s, "xXpP") ? -1 : 0;
}

static int name_of(const char *word, struct wd_check_term *t, char *err, size_t len)
{
	const struct wd_cat_entry *e;
	const char *hint;

	if (!strcasecmp(word, "unexpected")) {
		t->what = WD_CHECK_UNEXPECTED;
		snprintf(t->reason, sizeof(t->reason), "unexpected");
		return 0;
	}
	if (!strcasecmp(word, "any")) {
		t->what = WD_CHECK_ANY;
		snprintf(t->reason, sizeof(t->reason), "any");
		return 0;
	}
	e = wd_catalogue_find(word);
	if (e) {
		t->what = WD_CHECK_REASON;
		snprintf(t->reason, sizeof(t->reason), "%s", e->name);
		return 0;
	}
	hint = wd_catalogue_suggest(word);
	snprintf(err, len, "--fail-on: unknown reason '%s'%s%s%s: a reason as `whydrop reasons` "
		 "names it, unexpected (any reason the noise list does not hide) or any (every "
		 "drop)", word, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
	return -1;
}

static int term(const char *s, struct wd_check_term *t, char *err, size_t len)
{
	size_t n = strcspn(s, "<>=!");
	char word[WD_CHECK_NAME + 32], num[64];
	const char *op = s + n, *v;

	memset(t, 0, sizeof(*t));
	if (!*op || !n) {
		snprintf(err, len, "--fail-on: '%s' is no threshold: write REASON>N (a count) or "
			 "REASON>N/s (a rate), %s", s, EXAMPLE);
		return -1;
	}
	if (*op != '>') {
		snprintf(err, len, "--fail-on: '%s': only > and >= compare (a check fails when "
			 "drops go above a threshold), %s", s, EXAMPLE);
		return -1;
	}
	t->or_equal = op[1] == '=';
	v = op + 1 + t->or_equal;
	if (n >= WD_CHECK_NAME) {
		snprintf(err, len, "--fail-on: '%.40s...' is too long for a reason name", s);
		return -1;
	}
	snprintf(word, sizeof(word), "%.*s", (int)n, s);
	if (name_of(word, t, err, len))
		return -1;
	snprintf(num, sizeof(num), "%s", v);
	n = strlen(num);
	t->per_second = n > 2 && !strcmp(num + n - 2, "/s");
	if (t->per_second)
		num[n - 2] = '\0';
	if (number(num, !t->per_second, &t->limit)) {
		snprintf(err, len, "--fail-on: '%s': the threshold must be a number of drops (0, "
			 "100) or a rate per second (100/s, 0.5/s), %s", s, EXAMPLE);
		return -1;
	}
	snprintf(word, sizeof(word), "%s", t->reason);
	snprintf(t->text, sizeof(t->text), "%s%s%s%s", word, t->or_equal ? ">=" : ">", num,
		 t->per_second ? "/s" : "");
	return 0;
}

int wd_check_parse(const char *spec, struct wd_check *c, char *err, size_t len)
{
	char buf[1024];
	const char *p = buf;
	size_t off = 0;

	memset(c, 0, sizeof(*c));
	if (strlen(spec) >= sizeof(buf)) {	/* cut, a threshold would change */
		snprintf(err, len, "--fail-on: %zu characters, at most %zu", strlen(spec),
			 sizeof(buf) - 1);
		return -1;
	}
	squeeze(spec, buf, sizeof(buf));
	if (!*buf) {
		snprintf(err, len, "--fail-on needs at least one threshold, %s", EXAMPLE);
		return -1;
	}
	while (*p) {
		char one[256];
		size_t n = strcspn(p, ",");

		if (!n || n >= sizeof(one)) {
			snprintf(err, len, "--fail-on '%s': %s", spec,
				 n ? "a threshold is too long" : "an empty threshold between commas");
			return -1;
		}
		if (c->n == WD_CHECK_MAX_TERMS) {
			snprintf(err, len, "--fail-on: at most %d thresholds", WD_CHECK_MAX_TERMS);
			return -1;
		}
		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		if (term(one, &c->t[c->n], err, len))
			return -1;
		if (off < sizeof(c->spec))
			off += (size_t)snprintf(c->spec + off, sizeof(c->spec) - off, "%s%s",
						c->n ? "," : "", c->t[c->n].text);
		c->n++;
		p += n;
		if (*p && !*++p) {
			snprintf(err, len, "--fail-on '%s': an empty threshold after the last "
				 "comma", spec);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------- the check */

static bool same_reason(const char *row, const char *want)
{
	const struct wd_cat_entry *e;

	if (!row)
		return false;
	if (!strcasecmp(row, want))
		return true;
	e = wd_catalogue_find(row);
	return e && !strcmp(e->name, want);
}

static double rate_of(uint64_t n, double duration)
{
	return duration > 0 ? (double)n / duration : 0.0;
}

static bool over(const struct wd_check_term *t, uint64_t n, double rate)
{
	double v = t->per_second ? rate : (double)n;

	return t->or_equal ? v >= t->limit : v > t->limit;
}

/* The reason's entry in o (made if new): rows are added largest first. */
static struct wd_check_reason *reason_in(struct wd_check_outcome *o, const char *reason)
{
	for (size_t i = 0; i < o->n_reasons; i++)
		if ((!reason && !o->reasons[i].reason) ||
		    (reason && o->reasons[i].reason && !strcmp(o->reasons[i].reason, reason)))
			return &o->reasons[i];
	if (o->n_reasons == WD_CHECK_MAX_REASONS)
		return NULL;
	o->reasons[o->n_reasons].reason = reason;
	return &o->reasons[o->n_reasons++];
}

/* The largest rows of a reason, largest first: their causes are said. */
static void keep_row(struct wd_check_reason *x, const struct wd_count_row *r)
{
	size_t cap = sizeof(x->rows) / sizeof(x->rows[0]), k;

	if (x->n_rows == cap && x->rows[cap - 1]->count >= r->count)
		return;
	k = x->n_rows < cap ? x->n_rows++ : cap - 1;
	for (; k > 0 && x->rows[k - 1]->count < r->count; k--)
		x->rows[k] = x->rows[k - 1];
	x->rows[k] = r;
}

static void add_row(struct wd_check_outcome *o, const struct wd_count_row *r)
{
	struct wd_check_reason *x = reason_in(o, r->reason);

	if (!x)
		return;
	x->count += r->count;
	keep_row(x, r);
}

static int cmp_reason(const void *a, const void *b)
{
	const struct wd_check_reason *x = a, *y = b;

	return x->count == y->count ? 0 : x->count < y->count ? 1 : -1;
}

/* Which rows a term takes: a reason's (hidden too), the shown ones, or all. */
static bool takes(const struct wd_check_term *t, const struct wd_count_row *r, bool hidden)
{
	switch (t->what) {
	case WD_CHECK_REASON:
		return same_reason(r->reason, t->reason);
	case WD_CHECK_UNEXPECTED:
		return !hidden;
	default:
		return true;
	}
}

static void eval_term(const struct wd_check_term *t, const struct wd_count_doc *doc,
		      struct wd_check_outcome *o)
{
	double d = doc->duration_s;

	o->term = t;
	for (size_t i = 0; i < doc->n_rows; i++)
		if (takes(t, &doc->rows[i], false))
			add_row(o, &doc->rows[i]);
	for (size_t i = 0; i < doc->n_hidden_rows; i++)
		if (takes(t, &doc->hidden_rows[i], true))
			add_row(o, &doc->hidden_rows[i]);
	if (o->n_reasons > 1)
		qsort(o->reasons, o->n_reasons, sizeof(o->reasons[0]), cmp_reason);
	for (size_t i = 0; i < o->n_reasons; i++) {
		struct wd_check_reason *x = &o->reasons[i];

		x->rate = rate_of(x->count, d);
		x->crossed = over(t, x->count, x->rate);
		if (t->what == WD_CHECK_UNEXPECTED) {	/* each reason on its own */
			if (x->count > o->count)
				o->count = x->count;
			o->crossed |= x->crossed;
		} else {
			o->count += x->count;
		}
	}
	o->rate = rate_of(o->count, d);
	if (t->what != WD_CHECK_UNEXPECTED)
		o->crossed = over(t, o->count, o->rate);
}

void wd_check_eval(const struct wd_check *c, const struct wd_count_doc *doc,
		   struct wd_check_result *r)
{
	memset(r, 0, sizeof(*r));
	r->check = c;
	for (size_t i = 0; c && i < c->n; i++) {
		eval_term(&c->t[i], doc, &r->o[i]);
		r->crossed |= r->o[i].crossed;
		r->n++;
	}
}
