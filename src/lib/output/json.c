// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <math.h>

#include "json.h"
#include "utf8.h"

void wd_json_init(struct wd_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
}

void wd_json_escape(FILE *f, const char *s)
{
	size_t n;

	fputc('"', f);
	for (; *s; s += n ? n : 1) {
		unsigned char c = (unsigned char)*s;

		n = wd_utf8_len(s);
		if (!n)
			fputs(WD_UTF8_REPLACEMENT, f);	/* not UTF-8: JSON must be */
		else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fwrite(s, 1, n, f);
	}
	fputc('"', f);
}

static void key(struct wd_json *j, const char *k)
{
	if (j->need_comma[j->depth])
		fputs(", ", j->f);
	j->need_comma[j->depth] = true;
	if (k) {
		wd_json_escape(j->f, k);
		fputs(": ", j->f);
	}
}

void wd_json_open(struct wd_json *j, const char *k, char bracket)
{
	key(j, k);
	fputc(bracket, j->f);
	if (j->depth + 1 < WD_JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

void wd_json_close(struct wd_json *j, char bracket)
{
	if (j->depth > 0)
		j->depth--;
	fputc(bracket, j->f);
}

void wd_json_str(struct wd_json *j, const char *k, const char *val)
{
	key(j, k);
	wd_json_escape(j->f, val);
}

void wd_json_strv(struct wd_json *j, const char *k, const char *const *v)
{
	wd_json_open(j, k, '[');
	for (; v && *v; v++)
		wd_json_str(j, NULL, *v);
	wd_json_close(j, ']');
}

void wd_json_strn(struct wd_json *j, const char *k, const char *const *v, size_t n)
{
	wd_json_open(j, k, '[');
	for (size_t i = 0; i < n; i++)
		wd_json_str(j, NULL, v[i]);
	wd_json_close(j, ']');
}

void wd_json_uint(struct wd_json *j, const char *k, uint64_t val)
{
	key(j, k);
	fprintf(j->f, "%" PRIu64, val);
}

void wd_json_int(struct wd_json *j, const char *k, int64_t val)
{
	key(j, k);
	fprintf(j->f, "%" PRId64, val);
}

void wd_json_double(struct wd_json *j, const char *k, double val, int decimals)
{
	key(j, k);
	if (!isfinite(val))
		fputs("null", j->f);
	else
		fprintf(j->f, "%.*f", decimals, val);
}

void wd_json_bool(struct wd_json *j, const char *k, bool val)
{
	key(j, k);
	fputs(val ? "true" : "false", j->f);
}

void wd_json_str_opt(struct wd_json *j, const char *k, const char *val)
{
	if (val)
		wd_json_str(j, k, val);
}

void wd_json_uint_opt(struct wd_json *j, const char *k, uint64_t val)
{
	if (val)
		wd_json_uint(j, k, val);
}

void wd_json_flag(struct wd_json *j, const char *k, bool set)
{
	if (set)
		wd_json_bool(j, k, true);
}
