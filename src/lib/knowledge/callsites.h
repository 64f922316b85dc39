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
	const char *const *counters;	/* move with such drops (diagnose.h); NULL: none */
};

/*
 * What a reason means at one place: (reason, function) -> cause. A
 * generic reason means different things at different functions (IP_INHDR
 * at ip_forward is a TTL that expired, at ip_rcv_core a broken header);
 * several entries at one place are told apart by the counters that move
 * with each and by sysctls (diagnose.h). function "*": wherever the
 * reason happens, chosen only when its counters moved (QDISC_DROP by the
 * kind of qdisc that dropped).
 */
struct wd_cause {
	const char *reason;		/* current name, no prefix */
	const char *function;		/* the drop location's function, or "*" */
	const char *text;		/* the hint: one line, <= WD_CAT_SUMMARY_MAX */
	const char *meaning;		/* what happened */
	const char *remedy;		/* what to check and do */
	const char *const *counters;	/* nstat names (both families), "conntrack:drop",
					 * "qdisc:drops@KIND": move with exactly this cause */
	const char *const *sysctls;	/* "NAME" (its value is evidence), "NAME=V" (the
					 * cause needs that value) */
	enum wd_cat_severity severity;
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

size_t wd_cause_count(void);
const struct wd_cause *wd_cause_at(size_t i);
/* Does the entry (or a call site) name this function? A ".isra.0" suffix is ignored. */
bool wd_cause_function_is(const char *entry, const char *function);
/* Is a function named by a cause entry (explain FUNCTION)? */
bool wd_cause_has_function(const char *function);

void wd_callsite_print(FILE *f, const struct wd_callsite *c);
struct wd_json;
void wd_callsite_json_fields(struct wd_json *j, const struct wd_callsite *c);
/* A cause entry as text ("  at FUNCTION: text", indented fields) and JSON. */
void wd_cause_print(FILE *f, const struct wd_cause *c);
void wd_cause_json_fields(struct wd_json *j, const struct wd_cause *c);
/* docs/callsites.md, deterministic: call sites, then causes by place. */
void wd_callsites_markdown(FILE *f);
/*
 * What one reason means by place: its causes and the call sites that cover
 * it, as explain's "By place:" lines, a JSON array "causes" written into an
 * open object, or Markdown (docs/reasons.md). Nothing when it has none.
 */
void wd_causes_print_reason(FILE *f, const char *reason);
void wd_causes_json_reason(struct wd_json *j, const char *reason);
void wd_causes_markdown_reason(FILE *f, const char *reason);
/* Every cause at one function (explain FUNCTION); the number printed. */
size_t wd_causes_print_function(FILE *f, const char *function);
size_t wd_causes_json_function(struct wd_json *j, const char *function);

#endif /* WD_CALLSITES_H */
