// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reset-reason catalogue: lookup, printing, and its sections of the
 * generated reference documents. The data lives in rst_catalogue_data.h.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "json.h"
#include "rst_catalogue.h"
#include "rst_catalogue_data.h"
#include "suggest.h"
#include "tcp_names.h"

#define N_RST	(sizeof(rst_catalogue) / sizeof(rst_catalogue[0]))

size_t wd_rst_catalogue_count(void)
{
	return N_RST;
}

const struct wd_rst_entry *wd_rst_catalogue_at(size_t i)
{
	return i < N_RST ? &rst_catalogue[i] : NULL;
}

const struct wd_rst_entry *wd_rst_catalogue_find(const char *name)
{
	if (!name || !*name)
		return NULL;
	name = wd_rst_strip(name);
	for (size_t i = 0; i < N_RST; i++)
		if (!strcasecmp(rst_catalogue[i].name, name))
			return &rst_catalogue[i];
	return NULL;
}

const char *wd_rst_catalogue_suggest(const char *name)
{
	const char *names[N_RST];

	if (!name || !*name)
		return NULL;
	for (size_t i = 0; i < N_RST; i++)
		names[i] = rst_catalogue[i].name;
	return wd_suggest(wd_rst_strip(name), names, N_RST);
}

static const char *severity_key(enum wd_cat_severity s)
{
	switch (s) {
	case WD_SEV_BENIGN:
		return "benign";
	case WD_SEV_DEPENDS:
		return "depends";
	case WD_SEV_PROBLEM:
		return "problem";
	}
	return "unknown";
}

static void join(char *buf, size_t len, const char *const *v)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; v && *v && off < len; v++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", *v);
}

/* ---------------------------------------------------------------- text */

void wd_rst_catalogue_print(FILE *f, const struct wd_rst_entry *e)
{
	char buf[1024];

	fprintf(f, "%s%s: %s\n", WD_RST_SCHEME, e->name, e->summary);
	snprintf(buf, sizeof(buf), "TCP reset sent (enum sk_rst_reason, since %s)", e->since);
	wd_catalogue_field(f, "Kind:", buf);
	snprintf(buf, sizeof(buf), "%s. %s", wd_severity_name(e->severity), e->severity_note);
	wd_catalogue_field(f, "Severity:", buf);
	wd_catalogue_field(f, "Meaning:", e->meaning);
	join(buf, sizeof(buf), e->functions);
	wd_catalogue_field(f, "Sent in:", buf);
	join(buf, sizeof(buf), e->counters);
	wd_catalogue_field(f, "Counters:", buf[0] ? buf : "none (no MIB counter)");
	join(buf, sizeof(buf), e->sysctls);
	wd_catalogue_field(f, "Sysctls:", buf[0] ? buf : "none");
	wd_catalogue_field(f, "Check:", e->settings);
	wd_catalogue_field(f, "Action:", e->action);
	wd_catalogue_field(f, "Reproduced:", e->reproduced);
	wd_catalogue_field(f, "History:", e->history);
}

/* ---------------------------------------------------------------- JSON */

static void json_list(struct wd_json *j, const char *key, const char *const *v)
{
	wd_json_open(j, key, '[');
	for (size_t i = 0; v && v[i]; i++)
		wd_json_str(j, NULL, v[i]);
	wd_json_close(j, ']');
}

void wd_rst_catalogue_json_fields(struct wd_json *j, const struct wd_rst_entry *e)
{
	wd_json_str(j, "name", e->name);
	wd_json_str(j, "kind", "rst");
	wd_json_str(j, "since", e->since);
	wd_json_str(j, "summary", e->summary);
	wd_json_str(j, "meaning", e->meaning);
	json_list(j, "functions", e->functions);
	json_list(j, "counters", e->counters);
	json_list(j, "sysctls", e->sysctls);
	wd_json_str(j, "check", e->settings);
	wd_json_str(j, "action", e->action);
	wd_json_str(j, "severity", severity_key(e->severity));
	wd_json_str(j, "severity_note", e->severity_note);
	wd_json_str(j, "reproduced", e->reproduced);
	wd_json_str(j, "history", e->history);
}

/* ------------------------------------------------------------ markdown */

static void md_list(FILE *f, const char *label, const char *const *v, const char *none)
{
	fprintf(f, "- **%s:** ", label);
	if (!v || !*v) {
		fprintf(f, "%s\n", none);
		return;
	}
	for (size_t i = 0; v[i]; i++)
		fprintf(f, "%s`%s`", i ? ", " : "", v[i]);
	fputc('\n', f);
}

static void md_anchor(char *buf, size_t len, const char *name)
{
	size_t i, off = (size_t)snprintf(buf, len, "rst");

	for (i = 0; name[i] && off + 1 < len; i++)
		buf[off++] = (char)tolower((unsigned char)name[i]);
	buf[off] = '\0';
}

static void md_entry(FILE *f, const struct wd_rst_entry *e)
{
	fprintf(f, "### rst:%s\n\n", e->name);
	fprintf(f, "*%s*\n\n", e->summary);
	fprintf(f, "- **Since:** %s\n", e->since);
	fprintf(f, "- **Severity:** %s. %s\n", wd_severity_name(e->severity), e->severity_note);
	fprintf(f, "- **Meaning:** %s\n", e->meaning);
	md_list(f, "Sent in", e->functions, "-");
	md_list(f, "Counters", e->counters, "none");
	md_list(f, "Sysctls", e->sysctls, "none");
	fprintf(f, "- **Check:** %s\n", e->settings);
	fprintf(f, "- **Action:** %s\n", e->action);
	if (*e->reproduced)
		fprintf(f, "- **Reproduced:** %s\n", e->reproduced);
	if (*e->history)
		fprintf(f, "- **History:** %s\n", e->history);
	fputc('\n', f);
}

void wd_rst_catalogue_markdown(FILE *f)
{
	char anchor[96];

	fputs("## TCP reset reasons (`enum sk_rst_reason`)\n\n", f);
	fputs("Why the kernel sent a TCP reset, as tcp:tcp_send_reset says it "
	      "(6.10 and later; before, resets carry no reason). Named `rst:NAME` "
	      "(`whydrop explain rst:TCP_ABORT_ON_CLOSE`) apart from drop reasons "
	      "of the same name. Numbers differ between kernels and come from the "
	      "running one. Every reset counts in `TcpOutRsts`. 'Reproduced' names "
	      "the scenario of `tests/system/tcp_events.sh` that makes this kernel "
	      "send it, counted against the kernel's own counters.\n\n", f);
	fputs("| Reason | Since | Severity | Summary |\n|---|---|---|---|\n", f);
	for (size_t i = 0; i < N_RST; i++) {
		const struct wd_rst_entry *e = &rst_catalogue[i];

		md_anchor(anchor, sizeof(anchor), e->name);
		fprintf(f, "| [rst:%s](#%s) | %s | %s | %s |\n", e->name, anchor, e->since,
			severity_key(e->severity), e->summary);
	}
	fputc('\n', f);
	for (size_t i = 0; i < N_RST; i++)
		md_entry(f, &rst_catalogue[i]);
}

/* ----------------------------------------------------------------- man */

/* roff-escaped text; `code` becomes bold (as catalogue.c writes it). */
static void roff(FILE *f, const char *s)
{
	bool bold = false;

	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '`')
			fputs((bold = !bold) ? "\\fB" : "\\fR", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
	if (bold)
		fputs("\\fR", f);
}

static void man_line(FILE *f, const char *label, const char *text)
{
	if (!text || !*text)
		return;
	fprintf(f, ".br\n\\fI%s\\fR ", label);
	roff(f, text);
	fputc('\n', f);
}

void wd_rst_catalogue_man(FILE *f)
{
	char buf[1024];

	fputs(".SS TCP reset reasons (enum sk_rst_reason, 6.10+)\n", f);
	fputs("Named rst:NAME, as in\n.B whydrop explain rst:TCP_ABORT_ON_CLOSE\\fR.\n", f);
	for (size_t i = 0; i < N_RST; i++) {
		const struct wd_rst_entry *e = &rst_catalogue[i];

		fprintf(f, ".TP\n.B rst:%s\n", e->name);
		snprintf(buf, sizeof(buf), "%s (since %s, %s).", e->summary, e->since,
			 severity_key(e->severity));
		roff(f, buf);
		fputc('\n', f);
		man_line(f, "Meaning:", e->meaning);
		join(buf, sizeof(buf), e->counters);
		man_line(f, "Counters:", buf);
		man_line(f, "Action:", e->action);
	}
}
