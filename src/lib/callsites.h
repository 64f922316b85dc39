/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Call sites that free packets with NOT_SPECIFIED or a generic reason: the
 * drop location's function -> what it means there, whether it is usually
 * benign, what to check. Shown as hints by top/watch/count, by `whydrop
 * explain FUNCTION`, and generated into docs/callsites.md. Entries flagged
 * noise form the default list of expected drops (noise.h).
 */
#ifndef WD_CALLSITES_H
#define WD_CALLSITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "catalogue.h"

struct wd_callsite {
	const char *function;		/* the drop location's function */
	const char *const *reasons;	/* reasons it frees with (on some kernel) */
	const char *kernels;		/* "6.1: NOT_SPECIFIED; 6.18: SOCKET_CLOSE" */
	const char *summary;		/* one line, <= WD_CAT_SUMMARY_MAX chars */
	const char *meaning;
	const char *check;		/* what to look at */
	enum wd_cat_severity severity;
	bool noise;			/* expected: in the default hide list */
	const char *seen;		/* evidence: lab scenario, VM run, or source */
};

size_t wd_callsite_count(void);
const struct wd_callsite *wd_callsite_at(size_t i);
/* Entry of a function (exact name; a ".cold"/".isra" suffix is ignored). */
const struct wd_callsite *wd_callsite_find(const char *function);
/* The entry when it covers this reason at this function, else NULL. */
const struct wd_callsite *wd_callsite_for(const char *reason, const char *function);
/* Closest function name for a misspelt one, NULL when nothing is close. */
const char *wd_callsite_suggest(const char *function);

void wd_callsite_print(FILE *f, const struct wd_callsite *c);
struct wd_json;
void wd_callsite_json_fields(struct wd_json *j, const struct wd_callsite *c);
/* docs/callsites.md, deterministic. */
void wd_callsites_markdown(FILE *f);

#endif /* WD_CALLSITES_H */
