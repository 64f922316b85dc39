/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reset-reason catalogue: what each enum sk_rst_reason means, where the
 * kernel sends a reset with it, which counters move, what to check. Keyed
 * by name only (numbers come from the running kernel, tcp_names.h). Named
 * as `rst:NAME` on the command line (whydrop explain rst:TCP_ABORT_ON_CLOSE),
 * apart from drop reasons that share a name (NO_SOCKET, TCP_FLAGS).
 * docs/reasons.md and the man page get a section from it.
 */
#ifndef WD_RST_CATALOGUE_H
#define WD_RST_CATALOGUE_H

#include <stdio.h>

#include "catalogue.h"

struct wd_rst_entry {
	const char *name;		/* no SK_RST_REASON_ prefix */
	const char *since;		/* first mainline kernel with the name */
	const char *summary;		/* one line, <= WD_CAT_SUMMARY_MAX chars */
	const char *meaning;		/* what the kernel saw */
	const char *const *functions;	/* kernel functions that send it */
	const char *const *counters;	/* nstat names that move with it */
	const char *const *sysctls;	/* settings that decide it */
	const char *settings;		/* what to check, and where */
	const char *action;		/* what to do */
	enum wd_cat_severity severity;
	const char *severity_note;
	const char *reproduced;		/* how tests/system/tcp_events.sh makes it, "" if not */
	const char *history;		/* what it said before, "" if nothing */
};

/* By name: any case, with or without rst: or SK_RST_REASON_. NULL if unknown. */
const struct wd_rst_entry *wd_rst_catalogue_find(const char *name);
size_t wd_rst_catalogue_count(void);
const struct wd_rst_entry *wd_rst_catalogue_at(size_t i);
/* The closest name (without rst:) for a misspelt one, NULL when nothing is close. */
const char *wd_rst_catalogue_suggest(const char *name);

/* The entry as text (what `whydrop explain rst:NAME` prints before live values). */
void wd_rst_catalogue_print(FILE *f, const struct wd_rst_entry *e);
/* The entry's members, written into an object already open in j. */
struct wd_json;
void wd_rst_catalogue_json_fields(struct wd_json *j, const struct wd_rst_entry *e);

/* The sections of docs/reasons.md and of the man page's reasons (deterministic). */
void wd_rst_catalogue_markdown(FILE *f);
void wd_rst_catalogue_man(FILE *f);

#endif /* WD_RST_CATALOGUE_H */
