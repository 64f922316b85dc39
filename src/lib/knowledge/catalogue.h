/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The drop-reason catalogue: what each reason means, where the kernel drops
 * with it, which MIB counters and sysctls go with it, and what to do. Keyed
 * by name only (numbers come from the running kernel, see reasons.h). One
 * source of truth: docs/reasons.md and the man page are generated from it.
 */
#ifndef WD_CATALOGUE_H
#define WD_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum wd_cat_severity {
	WD_SEV_BENIGN,		/* usually expected noise */
	WD_SEV_DEPENDS,		/* benign or not, depending on rate and context */
	WD_SEV_PROBLEM,		/* usually a real problem worth fixing */
};

/*
 * All string lists are NULL-terminated; an empty list ({ NULL }) means
 * "none" and is different from a missing list (NULL pointer), which the
 * completeness test rejects.
 */
struct wd_cat_entry {
	const char *name;		/* current name, no SKB_DROP_REASON_ prefix */
	const char *subsys;		/* "core", "openvswitch", "mac80211" */
	const char *layer;		/* "TCP", "IPv4 routing", "qdisc", ... */
	const char *since;		/* first mainline kernel with the name */
	const char *summary;		/* one line, <= WD_CAT_SUMMARY_MAX chars */
	const char *meaning;		/* what the kernel saw */
	const char *const *functions;	/* kernel functions that drop with it */
	const char *const *counters;	/* nstat names (TcpExt..., Udp..., Ip6...) */
	const char *const *sysctls;	/* "net.core.rmem_max"; '*' = every device */
	const char *settings;		/* other settings and where to look */
	const char *action;		/* what to do */
	enum wd_cat_severity severity;
	const char *severity_note;	/* when it is benign, when it is not */
	const char *const *aliases;	/* old or other names that mean this */
	const char *history;		/* renames, meaning changes; "" if none */
};

#define WD_CAT_SUMMARY_MAX	60

/*
 * Entry by name: any case, with or without the SKB_DROP_REASON_ prefix or a
 * "SUBSYS:" prefix ("OPENVSWITCH:OVS_DROP_LAST_ACTION"); old names resolve
 * to the entry of their current name. NULL if unknown.
 */
const struct wd_cat_entry *wd_catalogue_find(const char *name);
size_t wd_catalogue_count(void);
const struct wd_cat_entry *wd_catalogue_at(size_t i);

/* Closest catalogue name for a misspelt one, NULL when nothing is close. */
const char *wd_catalogue_suggest(const char *name);

/*
 * Names the kernel lists next to real reasons that are not drops
 * (NOT_DROPPED_YET, CONSUMED, MAX, SUBSYS_MASK, RX_CONTINUE, ...).
 */
bool wd_catalogue_is_sentinel(const char *name);

const char *wd_severity_name(enum wd_cat_severity s);	/* "usually benign", ... */
const char *wd_severity_key(enum wd_cat_severity s);	/* "benign", as JSON says it */

/* Full entry as text (what `whydrop explain` prints before live values). */
void wd_catalogue_print(FILE *f, const struct wd_cat_entry *e);
/* "  Label:      text" wrapped at 78 columns, as the entries print. */
void wd_catalogue_field(FILE *f, const char *label, const char *text);
/* A list as a field, "a, b"; none when it is empty ("": no line). */
void wd_catalogue_list_field(FILE *f, const char *label, const char *const *v,
			     const char *none);
/*
 * Where an entry's fields go: the text `whydrop explain` prints (md false)
 * or the entry's section of docs/reasons.md. Each catalogue writes its
 * fields once, for both.
 */
struct wd_cat_out {
	FILE *f;
	bool md;
};
/* "  Label:      text" or "- **Label:** text"; nothing when text is empty. */
void wd_cat_out_field(const struct wd_cat_out *o, const char *label, const char *text);
/* A list, "a, b" or "`a`, `b`"; none when it is empty (text only: "", no line). */
void wd_cat_out_list(const struct wd_cat_out *o, const char *label, const char *const *v,
		     const char *none);
/* Severity and Meaning, the first fields of a drop-reason and a reset-reason entry. */
void wd_cat_out_severity(const struct wd_cat_out *o, enum wd_cat_severity s, const char *note,
			 const char *meaning);
/* Counters, Sysctls, Check and Action, which both go on with. */
void wd_cat_out_advice(const struct wd_cat_out *o, const char *const *counters,
		       const char *const *sysctls, const char *check, const char *action);
/* "a, b" of a NULL-terminated list into buf ("" when none). */
void wd_catalogue_join(char *buf, size_t len, const char *const *v);
/*
 * The members a drop-reason entry and a reset-reason entry (rst_catalogue.h)
 * both have, in this order, from since to severity_note: a macro, as the
 * two are different types with the same member names.
 */
#define WD_CAT_JSON_COMMON(j, e) do {						\
	wd_json_str(j, "since", (e)->since);					\
	wd_json_str(j, "summary", (e)->summary);				\
	wd_json_str(j, "meaning", (e)->meaning);				\
	wd_json_strv(j, "functions", (e)->functions);				\
	wd_json_strv(j, "counters", (e)->counters);				\
	wd_json_strv(j, "sysctls", (e)->sysctls);				\
	wd_json_str(j, "check", (e)->settings);					\
	wd_json_str(j, "action", (e)->action);					\
	wd_json_str(j, "severity", wd_severity_key((e)->severity));		\
	wd_json_str(j, "severity_note", (e)->severity_note);			\
} while (0)
/* The entry's members, written into an object already open in j. */
struct wd_json;
void wd_catalogue_json_fields(struct wd_json *j, const struct wd_cat_entry *e);

/* Reference documents, deterministic (no live data). */
void wd_catalogue_markdown(FILE *f);
void wd_catalogue_man(FILE *f);	/* the reasons section of whydrop(8) */

/* Pieces of those documents, shared with the reset-reason catalogue. */
void wd_catalogue_md_list(FILE *f, const char *label, const char *const *v,
			  const char *none);	/* "- **Label:** `a`, `b`" */
void wd_catalogue_roff(FILE *f, const char *s);	/* escaped; `code` in bold */
void wd_catalogue_man_line(FILE *f, const char *label, const char *text);

/* Markers around the generated part of docs/whydrop.8. */
#define WD_MAN_BEGIN	".\\\" BEGIN GENERATED REASONS (make docs)"
#define WD_MAN_END	".\\\" END GENERATED REASONS"

#endif /* WD_CATALOGUE_H */
