// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include <strings.h>

#include "callsites.h"
#include "json.h"
#include "suggest.h"

#include "callsites_data.h"

#define N_CALLSITES (sizeof(callsites) / sizeof(callsites[0]))
#define N_CAUSES (sizeof(causes) / sizeof(causes[0]))

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

bool wd_cause_function_is(const char *entry, const char *function)
{
	size_t n;

	if (!entry || !function)
		return false;
	n = base_len(function);
	return strlen(entry) == n && !strncmp(entry, function, n);
}

size_t wd_cause_count(void)
{
	return N_CAUSES;
}

const struct wd_cause *wd_cause_at(size_t i)
{
	return i < N_CAUSES ? &causes[i] : NULL;
}

bool wd_cause_has_function(const char *function)
{
	for (size_t i = 0; i < N_CAUSES; i++)
		if (wd_cause_function_is(causes[i].function, function))
			return true;
	return false;
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

void wd_callsite_print(FILE *f, const struct wd_callsite *c)
{
	char buf[256];

	fprintf(f, "%s (call site): %s\n", c->function, c->summary);
	wd_catalogue_list_field(f, "Reasons:", c->reasons, "");
	wd_catalogue_field(f, "Kernels:", c->kernels);
	snprintf(buf, sizeof(buf), "%s%s", wd_severity_name(c->severity),
		 c->noise ? " (hidden by top and count as expected: --show-all shows it)" : "");
	wd_catalogue_field(f, "Severity:", buf);
	wd_catalogue_field(f, "Meaning:", c->meaning);
	wd_catalogue_field(f, "Check:", c->check);
	wd_catalogue_list_field(f, "Counters:", c->counters, "");
	wd_catalogue_field(f, "Source:", c->seen);
}

void wd_cause_print(FILE *f, const struct wd_cause *c)
{
	fprintf(f, "%s at %s: %s\n", c->reason, c->function, c->text);
	wd_catalogue_field(f, "Severity:", wd_severity_name(c->severity));
	wd_catalogue_field(f, "Meaning:", c->meaning);
	wd_catalogue_list_field(f, "Counters:", c->counters, "");
	wd_catalogue_list_field(f, "Sysctls:", c->sysctls, "");
	wd_catalogue_field(f, "Remedy:", c->remedy);
	wd_catalogue_field(f, "Source:", c->seen);
}

void wd_cause_json_fields(struct wd_json *j, const struct wd_cause *c)
{
	wd_json_str(j, "reason", c->reason);
	wd_json_str(j, "function", c->function);
	wd_json_str(j, "cause", c->text);
	wd_json_str(j, "severity", wd_severity_name(c->severity));
	wd_json_str(j, "meaning", c->meaning);
	wd_json_strv(j, "counters", c->counters);
	wd_json_strv(j, "sysctls", c->sysctls);
	wd_json_str(j, "remedy", c->remedy);
	wd_json_str(j, "source", c->seen);
}

void wd_callsite_json_fields(struct wd_json *j, const struct wd_callsite *c)
{
	wd_json_str(j, "function", c->function);
	wd_json_strv(j, "reasons", c->reasons);
	wd_json_str(j, "kernels", c->kernels);
	wd_json_str(j, "summary", c->summary);
	wd_json_str(j, "severity", wd_severity_name(c->severity));
	wd_json_bool(j, "expected", c->noise);
	wd_json_str(j, "meaning", c->meaning);
	wd_json_str(j, "check", c->check);
	wd_json_str(j, "source", c->seen);
	wd_json_strv(j, "counters", c->counters);
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

/* `a`, `b` into a cell; "-" when none. */
static void code_cell(FILE *f, const char *const *v)
{
	fputs(" ", f);
	if (!v || !*v)
		fputs("-", f);
	for (size_t i = 0; v && v[i]; i++)
		fprintf(f, "%s`%s`", i ? ", " : "", v[i]);
	fputs(" |", f);
}

/* The causes by place: one row each, in the table's order. */
static void causes_markdown(FILE *f)
{
	fputs("\n## Causes by place\n\n", f);
	fputs("A reason can mean different things at different places: IP_INHDR in "
	      "`ip_forward` is a TTL that ran out (a routing loop, a traceroute), in "
	      "`ip_rcv_core` a broken header. These entries say what a reason means at "
	      "one function; where one place has several causes, the counters that "
	      "moved over the same interval (and the sysctls, read in the namespace) "
	      "tell them apart. `whydrop top`, `watch` and `count` show the chosen "
	      "cause as the hint of a row, `count --json` as its `cause` object (text, "
	      "confidence, evidence), and `whydrop explain REASON` or `FUNCTION` lists "
	      "them. Function `*`: wherever the reason happens, chosen only when its "
	      "counters moved. A sysctl written `NAME=V` is one the cause needs.\n\n", f);
	fputs("| Reason | Function | Cause | Severity | Counters | Sysctls | Meaning | "
	      "Remedy | Source |\n", f);
	fputs("|---|---|---|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < N_CAUSES; i++) {
		const struct wd_cause *c = &causes[i];

		fprintf(f, "| %s | `%s` |", c->reason, c->function);
		cell(f, c->text);
		fprintf(f, " %s |", wd_severity_name(c->severity));
		code_cell(f, c->counters);
		code_cell(f, c->sysctls);
		cell(f, c->meaning);
		cell(f, c->remedy);
		cell(f, c->seen);
		fputc('\n', f);
	}
}

void wd_callsites_markdown(FILE *f)
{
	char reasons[256];

	fputs("# whydrop: call sites that drop without a specific reason\n\n", f);
	fputs("<!-- Generated from src/lib/knowledge/callsites_data.h by `make docs`; "
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

		wd_catalogue_join(reasons, sizeof(reasons), c->reasons);
		fprintf(f, "| `%s` |", c->function);
		cell(f, reasons);
		cell(f, c->kernels);
		fprintf(f, " %s%s |", wd_severity_name(c->severity), c->noise ? ", expected" : "");
		cell(f, c->meaning);
		cell(f, c->check);
		cell(f, c->seen);
		fputc('\n', f);
	}
	causes_markdown(f);
}

static bool covers(const struct wd_callsite *c, const char *reason)
{
	for (const char *const *r = c->reasons; *r; r++)
		if (!strcmp(*r, reason))
			return true;
	return false;
}

/* "at ip_forward", "when qdisc:drops@tbf moves": where a cause applies. */
static void where_of(const struct wd_cause *c, char *buf, size_t len)
{
	if (strcmp(c->function, "*"))
		snprintf(buf, len, "at %s", c->function);
	else
		snprintf(buf, len, "when %s moves", c->counters && *c->counters ?
			 c->counters[0] : "its counter");
}

void wd_causes_print_reason(FILE *f, const char *reason)
{
	const char *label = "By place:";
	char buf[512], where[128];

	for (size_t i = 0; i < N_CAUSES; i++) {
		if (strcmp(causes[i].reason, reason))
			continue;
		where_of(&causes[i], where, sizeof(where));
		snprintf(buf, sizeof(buf), "%s: %s", where, causes[i].text);
		wd_catalogue_field(f, label, buf);
		label = "";
	}
	for (size_t i = 0; i < N_CALLSITES; i++) {
		if (!covers(&callsites[i], reason))
			continue;
		snprintf(buf, sizeof(buf), "at %s (call site): %s", callsites[i].function,
			 callsites[i].summary);
		wd_catalogue_field(f, label, buf);
		label = "";
	}
}

/* A call site as one of a reason's causes: the same object a cause writes. */
static void callsite_cause_json(struct wd_json *j, const struct wd_callsite *c,
				const char *reason)
{
	const struct wd_cause cause = {
		.reason = reason, .function = c->function, .text = c->summary,
		.meaning = c->meaning, .remedy = c->check, .counters = c->counters,
		.severity = c->severity, .seen = c->seen,
	};

	wd_cause_json_fields(j, &cause);
}

void wd_causes_json_reason(struct wd_json *j, const char *reason)
{
	wd_json_open(j, "causes", '[');
	for (size_t i = 0; i < N_CAUSES; i++) {
		if (strcmp(causes[i].reason, reason))
			continue;
		wd_json_open(j, NULL, '{');
		wd_cause_json_fields(j, &causes[i]);
		wd_json_close(j, '}');
	}
	for (size_t i = 0; i < N_CALLSITES; i++) {
		if (!covers(&callsites[i], reason))
			continue;
		wd_json_open(j, NULL, '{');
		callsite_cause_json(j, &callsites[i], reason);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

void wd_causes_markdown_reason(FILE *f, const char *reason)
{
	bool any = false;
	char where[128];

	for (size_t i = 0; i < N_CAUSES; i++) {
		if (strcmp(causes[i].reason, reason))
			continue;
		if (!any)
			fputs("- **By place** (`docs/callsites.md`):\n", f);
		any = true;
		where_of(&causes[i], where, sizeof(where));
		if (strcmp(causes[i].function, "*"))
			fprintf(f, "  - at `%s`: %s\n", causes[i].function, causes[i].text);
		else
			fprintf(f, "  - %s: %s\n", where, causes[i].text);
	}
	for (size_t i = 0; i < N_CALLSITES; i++) {
		if (!covers(&callsites[i], reason))
			continue;
		if (!any)
			fputs("- **By place** (`docs/callsites.md`):\n", f);
		any = true;
		fprintf(f, "  - at `%s` (call site): %s\n", callsites[i].function,
			callsites[i].summary);
	}
}

size_t wd_causes_print_function(FILE *f, const char *function)
{
	size_t n = 0;

	for (size_t i = 0; i < N_CAUSES; i++) {
		if (!wd_cause_function_is(causes[i].function, function))
			continue;
		if (n++)
			fputc('\n', f);
		wd_cause_print(f, &causes[i]);
	}
	return n;
}

size_t wd_causes_json_function(struct wd_json *j, const char *function)
{
	size_t n = 0;

	for (size_t i = 0; i < N_CAUSES; i++) {
		if (!wd_cause_function_is(causes[i].function, function))
			continue;
		wd_json_open(j, NULL, '{');
		wd_cause_json_fields(j, &causes[i]);
		wd_json_close(j, '}');
		n++;
	}
	return n;
}
