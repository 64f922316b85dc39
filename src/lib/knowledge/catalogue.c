// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Drop-reason catalogue: lookup, printing, and the generated reference
 * documents. The data lives in catalogue_data.h.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "callsites.h"
#include "catalogue.h"
#include "catalogue_data.h"
#include "json.h"
#include "rst_catalogue.h"
#include "suggest.h"

#define N_ENTRIES	(sizeof(catalogue) / sizeof(catalogue[0]))
#define N_RENAMES	(sizeof(catalogue_renames) / sizeof(catalogue_renames[0]))
#define N_SEVERITIES	(sizeof(severities) / sizeof(severities[0]))
#define NAME_MAX_LEN	128
#define WRAP_COLS	78

size_t wd_catalogue_count(void)
{
	return N_ENTRIES;
}

const struct wd_cat_entry *wd_catalogue_at(size_t i)
{
	return i < N_ENTRIES ? &catalogue[i] : NULL;
}

/* Drop "SUBSYS:" and "SKB_DROP_REASON_" prefixes; copy to buf. */
static const char *normalize(const char *name, char *buf, size_t len)
{
	const char *colon = strrchr(name, ':');
	size_t plen = strlen("SKB_DROP_REASON_");

	if (colon)
		name = colon + 1;
	if (!strncasecmp(name, "SKB_DROP_REASON_", plen))
		name += plen;
	else if (!strncasecmp(name, "SKB_", 4) &&
		 (!strcasecmp(name + 4, "CONSUMED") ||
		  !strcasecmp(name + 4, "NOT_DROPPED_YET")))
		name += 4;
	snprintf(buf, len, "%s", name);
	return buf;
}

static const struct wd_cat_entry *find_exact(const char *n)
{
	for (size_t i = 0; i < N_ENTRIES; i++)
		if (!strcasecmp(catalogue[i].name, n))
			return &catalogue[i];
	return NULL;
}

static const struct wd_cat_entry *find_alias(const char *n)
{
	for (size_t i = 0; i < N_ENTRIES; i++) {
		const char *const *a = catalogue[i].aliases;

		for (; a && *a; a++)
			if (!strcasecmp(*a, n))
				return &catalogue[i];
	}
	for (size_t i = 0; i < N_RENAMES; i++)
		if (!strcasecmp(catalogue_renames[i].old, n))
			return find_exact(catalogue_renames[i].cur);
	return NULL;
}

const struct wd_cat_entry *wd_catalogue_find(const char *name)
{
	char buf[NAME_MAX_LEN];
	const struct wd_cat_entry *e;

	if (!name || !*name)
		return NULL;
	normalize(name, buf, sizeof(buf));
	e = find_exact(buf);
	return e ? e : find_alias(buf);
}

bool wd_catalogue_is_sentinel(const char *name)
{
	static const char *const sentinels[] = {
		"NOT_DROPPED_YET", "CONSUMED", "MAX", "SUBSYS_MASK",
		"RX_CONTINUE", "RX_QUEUED", "OVS_DROP_MAX",
	};
	char buf[NAME_MAX_LEN];

	if (!name)
		return false;
	normalize(name, buf, sizeof(buf));
	if (!strncmp(buf, "__", 2))
		return true;
	for (size_t i = 0; i < sizeof(sentinels) / sizeof(sentinels[0]); i++)
		if (!strcasecmp(buf, sentinels[i]))
			return true;
	return false;
}

const char *wd_catalogue_suggest(const char *name)
{
	const char *names[N_ENTRIES];
	char buf[NAME_MAX_LEN];

	if (!name || !*name)
		return NULL;
	for (size_t i = 0; i < N_ENTRIES; i++)
		names[i] = catalogue[i].name;
	return wd_suggest(normalize(name, buf, sizeof(buf)), names, N_ENTRIES);
}

/* A severity as text says it, and as JSON does. */
static const struct {
	const char *name, *key;
} severities[] = {
	[WD_SEV_BENIGN] = { "usually benign", "benign" },
	[WD_SEV_DEPENDS] = { "depends", "depends" },
	[WD_SEV_PROBLEM] = { "usually a problem", "problem" },
};

const char *wd_severity_name(enum wd_cat_severity s)
{
	return (size_t)s < N_SEVERITIES ? severities[s].name : "unknown";
}

const char *wd_severity_key(enum wd_cat_severity s)
{
	return (size_t)s < N_SEVERITIES ? severities[s].key : "unknown";
}

/* ---------------------------------------------------------------- text */

/* Print text word-wrapped; continuation lines start with indent spaces. */
static void wrap(FILE *f, const char *text, int indent, int col)
{
	const char *p = text;

	while (*p) {
		const char *w = p;
		int len;

		while (*w == ' ')
			w++;
		len = (int)strcspn(w, " ");
		if (!len)
			break;
		if (col > indent && col + 1 + len > WRAP_COLS) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, (size_t)len, f);
		col += len;
		p = w + len;
	}
	fputc('\n', f);
}

void wd_catalogue_join(char *buf, size_t len, const char *const *v)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; v && *v && off < len; v++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					off ? ", " : "", *v);
}

void wd_catalogue_field(FILE *f, const char *label, const char *text)
{
	int col;

	if (!text || !*text)
		return;
	col = fprintf(f, "  %-12s", label);
	wrap(f, text, 14, col);
}

static void field(FILE *f, const char *label, const char *text)
{
	wd_catalogue_field(f, label, text);
}

void wd_catalogue_list_field(FILE *f, const char *label, const char *const *v,
			     const char *none)
{
	char buf[1024];

	wd_catalogue_join(buf, sizeof(buf), v);
	field(f, label, buf[0] ? buf : none);
}

static void all_aliases(char *buf, size_t len, const struct wd_cat_entry *e)
{
	size_t off;

	wd_catalogue_join(buf, len, e->aliases);
	off = strlen(buf);
	for (size_t i = 0; i < N_RENAMES && off < len; i++)
		if (!strcmp(catalogue_renames[i].cur, e->name))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? ", " : "",
						catalogue_renames[i].old);
}

void wd_cat_out_field(const struct wd_cat_out *o, const char *label, const char *text)
{
	char lab[32];

	if (!text || !*text)
		return;
	if (o->md) {
		fprintf(o->f, "- **%s:** %s\n", label, text);
		return;
	}
	snprintf(lab, sizeof(lab), "%s:", label);
	field(o->f, lab, text);
}

void wd_cat_out_list(const struct wd_cat_out *o, const char *label, const char *const *v,
		     const char *none)
{
	char lab[32];

	if (o->md) {
		wd_catalogue_md_list(o->f, label, v, none);
		return;
	}
	snprintf(lab, sizeof(lab), "%s:", label);
	wd_catalogue_list_field(o->f, lab, v, none);
}

void wd_cat_out_severity(const struct wd_cat_out *o, enum wd_cat_severity s, const char *note,
			 const char *meaning)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s. %s", wd_severity_name(s), note);
	wd_cat_out_field(o, "Severity", buf);
	wd_cat_out_field(o, "Meaning", meaning);
}

void wd_cat_out_advice(const struct wd_cat_out *o, const char *const *counters,
		       const char *const *sysctls, const char *check, const char *action)
{
	wd_cat_out_list(o, "Counters", counters, o->md ? "none" : "none (no MIB counter)");
	wd_cat_out_list(o, "Sysctls", sysctls, "none");
	wd_cat_out_field(o, "Check", check);
	wd_cat_out_field(o, "Action", action);
}

/* The fields after the layer: the same in explain's text and in the reference. */
static void entry_fields(const struct wd_cat_out *o, const struct wd_cat_entry *e)
{
	char buf[1024];

	wd_cat_out_severity(o, e->severity, e->severity_note, e->meaning);
	wd_cat_out_list(o, "Dropped in", e->functions, "-");
	if (o->md)
		wd_causes_markdown_reason(o->f, e->name);
	else
		wd_causes_print_reason(o->f, e->name);
	wd_cat_out_advice(o, e->counters, e->sysctls, e->settings, e->action);
	all_aliases(buf, sizeof(buf), e);
	wd_cat_out_field(o, "Old names", buf);
	wd_cat_out_field(o, "History", e->history);
}

void wd_catalogue_print(FILE *f, const struct wd_cat_entry *e)
{
	const struct wd_cat_out o = { f, false };
	char buf[1024];

	fprintf(f, "%s: %s\n", e->name, e->summary);
	snprintf(buf, sizeof(buf), "%s (%s reason, since %s)", e->layer,
		 e->subsys, e->since);
	field(f, "Layer:", buf);
	entry_fields(&o, e);
}

/* ---------------------------------------------------------------- JSON */

void wd_catalogue_json_fields(struct wd_json *j, const struct wd_cat_entry *e)
{
	wd_json_str(j, "name", e->name);
	wd_json_str(j, "subsystem", e->subsys);
	wd_json_str(j, "layer", e->layer);
	WD_CAT_JSON_COMMON(j, e);
	wd_json_open(j, "old_names", '[');
	for (const char *const *a = e->aliases; a && *a; a++)
		wd_json_str(j, NULL, *a);
	for (size_t i = 0; i < N_RENAMES; i++)
		if (!strcmp(catalogue_renames[i].cur, e->name))
			wd_json_str(j, NULL, catalogue_renames[i].old);
	wd_json_close(j, ']');
	wd_json_str(j, "history", e->history ? e->history : "");
	wd_causes_json_reason(j, e->name);
}

/* ------------------------------------------------------------ markdown */

static const char *const subsys_order[] = { "core", "openvswitch", "mac80211" };
static const char *const subsys_title[] = {
	"Core reasons (`enum skb_drop_reason`)",
	"openvswitch reasons (module `openvswitch`, 6.6+)",
	"mac80211 reasons (module `mac80211`, 6.4+)",
};

void wd_catalogue_md_list(FILE *f, const char *label, const char *const *v,
			  const char *none)
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

static void md_entry(FILE *f, const struct wd_cat_entry *e)
{
	const struct wd_cat_out o = { f, true };

	fprintf(f, "### %s\n\n", e->name);
	fprintf(f, "*%s*\n\n", e->summary);
	fprintf(f, "- **Layer:** %s\n", e->layer);
	fprintf(f, "- **Since:** %s\n", e->since);
	entry_fields(&o, e);
	fputc('\n', f);
}

static void md_index(FILE *f, const char *subsys)
{
	fputs("| Reason | Layer | Since | Severity | Summary |\n", f);
	fputs("|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < N_ENTRIES; i++) {
		const struct wd_cat_entry *e = &catalogue[i];
		char anchor[NAME_MAX_LEN];
		size_t j;

		if (strcmp(e->subsys, subsys))
			continue;
		for (j = 0; e->name[j] && j < sizeof(anchor) - 1; j++)
			anchor[j] = (char)tolower((unsigned char)e->name[j]);
		anchor[j] = '\0';
		fprintf(f, "| [%s](#%s) | %s | %s | %s | %s |\n", e->name,
			anchor, e->layer, e->since, wd_severity_key(e->severity),
			e->summary);
	}
	fputc('\n', f);
}

static void md_renames(FILE *f)
{
	fputs("## Old and renamed names\n\n", f);
	fputs("`whydrop explain` and `whydrop reasons` accept these and show "
	      "the entry of the current name.\n\n", f);
	fputs("| Old name | Current name |\n|---|---|\n", f);
	for (size_t i = 0; i < N_ENTRIES; i++)
		for (const char *const *a = catalogue[i].aliases; a && *a; a++)
			fprintf(f, "| %s | %s |\n", *a, catalogue[i].name);
	for (size_t i = 0; i < N_RENAMES; i++)
		fprintf(f, "| %s | %s |\n", catalogue_renames[i].old,
			catalogue_renames[i].cur);
	fputc('\n', f);
}

void wd_catalogue_markdown(FILE *f)
{
	fputs("# whydrop: drop-reason reference\n\n", f);
	fputs("<!-- Generated from src/lib/knowledge/catalogue_data.h by `make docs`; "
	      "do not edit by hand. -->\n\n", f);
	fputs("Every reason the Linux kernel can give for dropping a packet "
	      "(`skb:kfree_skb`), what it means, where it happens, the "
	      "counters that move with it, the settings to check and what to "
	      "do. Reason numbers differ between kernels; `whydrop reasons` "
	      "shows this kernel's numbers and `whydrop explain REASON` adds "
	      "live sysctl values and counter rates.\n\n", f);
	fputs("Counter names are spelled as `nstat -az` prints them. "
	      "`softnet:NAME` is a column of /proc/net/softnet_stat summed "
	      "over CPUs, `netdev:NAME` a /sys/class/net/DEV/statistics file "
	      "summed over devices, `Xfrm*` a line of /proc/net/xfrm_stat. "
	      "'Since' is the first mainline release with the name; stable "
	      "and distribution kernels may have it earlier.\n\n", f);
	fputs("To make the kernel drop packets for a reason on demand, in network "
	      "namespaces: the recipes of the drop-reason lab, `docs/lab.md` (one "
	      "script per reason, for one or both families, in `tests/lab/scenarios/`).\n\n", f);
	for (size_t s = 0; s < 3; s++) {
		fprintf(f, "## %s\n\n", subsys_title[s]);
		md_index(f, subsys_order[s]);
		for (size_t i = 0; i < N_ENTRIES; i++)
			if (!strcmp(catalogue[i].subsys, subsys_order[s]))
				md_entry(f, &catalogue[i]);
	}
	md_renames(f);
	wd_rst_catalogue_markdown(f);
}

/* ----------------------------------------------------------------- man */

/* roff-escaped text; `code` becomes bold. */
void wd_catalogue_roff(FILE *f, const char *s)
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

void wd_catalogue_man_line(FILE *f, const char *label, const char *text)
{
	if (!text || !*text)
		return;
	fputs(".br\n", f);
	fprintf(f, "\\fI%s\\fR ", label);
	wd_catalogue_roff(f, text);
	fputc('\n', f);
}

static void man_entry(FILE *f, const struct wd_cat_entry *e)
{
	char buf[1024];

	fprintf(f, ".TP\n.B %s\n", e->name);
	snprintf(buf, sizeof(buf), "%s (%s, since %s, %s).", e->summary,
		 e->layer, e->since, wd_severity_key(e->severity));
	wd_catalogue_roff(f, buf);
	fputc('\n', f);
	wd_catalogue_man_line(f, "Meaning:", e->meaning);
	wd_catalogue_join(buf, sizeof(buf), e->counters);
	wd_catalogue_man_line(f, "Counters:", buf);
	wd_catalogue_join(buf, sizeof(buf), e->sysctls);
	wd_catalogue_man_line(f, "Sysctls:", buf);
	wd_catalogue_man_line(f, "Action:", e->action);
}

void wd_catalogue_man(FILE *f)
{
	fputs(WD_MAN_BEGIN "\n", f);
	fputs(".SH DROP REASONS\n", f);
	fputs("Reasons as the kernel names them, without the "
	      "SKB_DROP_REASON_ prefix. Numbers differ between kernels: see\n"
	      ".B whydrop reasons\n"
	      "for this kernel's, and\n"
	      ".B whydrop explain\n"
	      ".I REASON\n"
	      "for the full entry with live counters.\n", f);
	for (size_t s = 0; s < 3; s++) {
		fputs(".SS ", f);
		wd_catalogue_roff(f, subsys_title[s]);
		fputc('\n', f);
		for (size_t i = 0; i < N_ENTRIES; i++)
			if (!strcmp(catalogue[i].subsys, subsys_order[s]))
				man_entry(f, &catalogue[i]);
	}
	wd_rst_catalogue_man(f);
	fputs(WD_MAN_END "\n", f);
}
