// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include <strings.h>

#include "callsites.h"
#include "json.h"
#include "suggest.h"

#include "callsites_data.h"

#define N_CALLSITES (sizeof(callsites) / sizeof(callsites[0]))

size_t wd_callsite_count(void)
{
	return N_CALLSITES;
}

const struct wd_callsite *wd_callsite_at(size_t i)
{
	return i < N_CALLSITES ? &callsites[i] : NULL;
}

/* "ip_defrag.cold" and "foo.isra.0" are the same function for us. */
static size_t base_len(const char *function)
{
	return strcspn(function, ".");
}

const struct wd_callsite *wd_callsite_find(const char *function)
{
	size_t n;

	if (!function)
		return NULL;
	n = base_len(function);
	for (size_t i = 0; i < N_CALLSITES; i++)
		if (strlen(callsites[i].function) == n &&
		    !strncmp(callsites[i].function, function, n))
			return &callsites[i];
	return NULL;
}

static const char *bare(const char *reason)
{
	return strncasecmp(reason, "SKB_DROP_REASON_", 16) ? reason : reason + 16;
}

const struct wd_callsite *wd_callsite_for(const char *reason, const char *function)
{
	const struct wd_callsite *c = wd_callsite_find(function);

	if (!c || !reason)
		return NULL;
	for (const char *const *r = c->reasons; *r; r++)
		if (!strcasecmp(*r, bare(reason)))
			return c;
	return NULL;
}

const char *wd_callsite_suggest(const char *function)
{
	const char *names[N_CALLSITES];

	for (size_t i = 0; i < N_CALLSITES; i++)
		names[i] = callsites[i].function;
	return wd_suggest(function, names, N_CALLSITES);
}

static void join(char *buf, size_t len, const char *const *v, const char *sep)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; *v && off < len; v++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? sep : "", *v);
}

void wd_callsite_print(FILE *f, const struct wd_callsite *c)
{
	char buf[256];

	fprintf(f, "%s (call site): %s\n", c->function, c->summary);
	join(buf, sizeof(buf), c->reasons, ", ");
	wd_catalogue_field(f, "Reasons:", buf);
	wd_catalogue_field(f, "Kernels:", c->kernels);
	snprintf(buf, sizeof(buf), "%s%s", wd_severity_name(c->severity),
		 c->noise ? " (hidden by top and count as expected: --show-all shows it)" : "");
	wd_catalogue_field(f, "Severity:", buf);
	wd_catalogue_field(f, "Meaning:", c->meaning);
	wd_catalogue_field(f, "Check:", c->check);
	wd_catalogue_field(f, "Source:", c->seen);
}

void wd_callsite_json_fields(struct wd_json *j, const struct wd_callsite *c)
{
	wd_json_str(j, "function", c->function);
	wd_json_open(j, "reasons", '[');
	for (const char *const *r = c->reasons; *r; r++)
		wd_json_str(j, NULL, *r);
	wd_json_close(j, ']');
	wd_json_str(j, "kernels", c->kernels);
	wd_json_str(j, "summary", c->summary);
	wd_json_str(j, "severity", wd_severity_name(c->severity));
	wd_json_bool(j, "expected", c->noise);
	wd_json_str(j, "meaning", c->meaning);
	wd_json_str(j, "check", c->check);
	wd_json_str(j, "source", c->seen);
}

/* A table cell: a '|' would end it. */
static void cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

void wd_callsites_markdown(FILE *f)
{
	char reasons[256];

	fputs("# whydrop: call sites that drop without a specific reason\n\n", f);
	fputs("<!-- Generated from src/lib/callsites_data.h by `make docs`; "
	      "do not edit by hand. -->\n\n", f);
	fputs("`NOT_SPECIFIED` (and generic reasons such as `QUEUE_PURGE`) only say "
	      "*where* the kernel freed a packet. This table says what that place "
	      "means. `whydrop top`, `watch` and `count` show the summary as the hint "
	      "of such a drop, and `whydrop explain FUNCTION` prints the entry. "
	      "Entries marked *expected* form the default list of drops that `top` "
	      "and `count` hide (see `whydrop(8)`, NOISE). *Source* says whether the "
	      "drop was reproduced here (lab scenario, VM or host run) or is taken "
	      "from the kernel source only.\n\n", f);
	fputs("| Function | Reasons | Kernels | Severity | Meaning | Check | Source |\n", f);
	fputs("|---|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < N_CALLSITES; i++) {
		const struct wd_callsite *c = &callsites[i];

		join(reasons, sizeof(reasons), c->reasons, ", ");
		fprintf(f, "| `%s` |", c->function);
		cell(f, reasons);
		cell(f, c->kernels);
		fprintf(f, " %s%s |", wd_severity_name(c->severity), c->noise ? ", expected" : "");
		cell(f, c->meaning);
		cell(f, c->check);
		cell(f, c->seen);
		fputc('\n', f);
	}
}
