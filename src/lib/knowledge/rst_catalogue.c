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

/* ---------------------------------------------------------------- text */

/* The fields after the kind: the same in explain's text and in the reference. */
static void entry_fields(const struct wd_cat_out *o, const struct wd_rst_entry *e)
{
	wd_cat_out_severity(o, e->severity, e->severity_note, e->meaning);
	wd_cat_out_list(o, "Sent in", e->functions, o->md ? "-" : "");
	wd_cat_out_advice(o, e->counters, e->sysctls, e->settings, e->action);
	wd_cat_out_field(o, "Reproduced", e->reproduced);
	wd_cat_out_field(o, "History", e->history);
}

void wd_rst_catalogue_print(FILE *f, const struct wd_rst_entry *e)
{
	const struct wd_cat_out o = { f, false };
	char buf[1024];

	fprintf(f, "%s%s: %s\n", WD_RST_SCHEME, e->name, e->summary);
	snprintf(buf, sizeof(buf), "TCP reset sent (enum sk_rst_reason, since %s)", e->since);
	wd_catalogue_field(f, "Kind:", buf);
	entry_fields(&o, e);
}

/* ---------------------------------------------------------------- JSON */

void wd_rst_catalogue_json_fields(struct wd_json *j, const struct wd_rst_entry *e)
{
	wd_json_str(j, "name", e->name);
	wd_json_str(j, "kind", "rst");
	WD_CAT_JSON_COMMON(j, e);
	wd_json_str(j, "reproduced", e->reproduced);
	wd_json_str(j, "history", e->history);
}

/* ------------------------------------------------------------ markdown */

static void md_anchor(char *buf, size_t len, const char *name)
{
	size_t i, off = (size_t)snprintf(buf, len, "rst");

	for (i = 0; name[i] && off + 1 < len; i++)
		buf[off++] = (char)tolower((unsigned char)name[i]);
	buf[off] = '\0';
}

static void md_entry(FILE *f, const struct wd_rst_entry *e)
{
	const struct wd_cat_out o = { f, true };

	fprintf(f, "### rst:%s\n\n", e->name);
	fprintf(f, "*%s*\n\n", e->summary);
	fprintf(f, "- **Since:** %s\n", e->since);
	entry_fields(&o, e);
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
			wd_severity_key(e->severity), e->summary);
	}
	fputc('\n', f);
	for (size_t i = 0; i < N_RST; i++)
		md_entry(f, &rst_catalogue[i]);
}

/* ----------------------------------------------------------------- man */

void wd_rst_catalogue_man(FILE *f)
{
	char buf[1024];

	fputs(".SS TCP reset reasons (enum sk_rst_reason, 6.10+)\n", f);
	fputs("Named rst:NAME, as in\n.B whydrop explain rst:TCP_ABORT_ON_CLOSE\\fR.\n", f);
	for (size_t i = 0; i < N_RST; i++) {
		const struct wd_rst_entry *e = &rst_catalogue[i];

		fprintf(f, ".TP\n.B rst:%s\n", e->name);
		snprintf(buf, sizeof(buf), "%s (since %s, %s).", e->summary, e->since,
			 wd_severity_key(e->severity));
		wd_catalogue_roff(f, buf);
		fputc('\n', f);
		wd_catalogue_man_line(f, "Meaning:", e->meaning);
		wd_catalogue_join(buf, sizeof(buf), e->counters);
		wd_catalogue_man_line(f, "Counters:", buf);
		wd_catalogue_man_line(f, "Action:", e->action);
	}
}
