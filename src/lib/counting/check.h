/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The check of `whydrop count --fail-on SPEC`, for cron, CI and monitoring:
 * thresholds on the exact counts of one run, and which ones were crossed.
 *
 *   SPEC  = TERM[,TERM...]
 *   TERM  = WHAT OP NUMBER[/s]
 *   WHAT  = a reason (any case, with or without SKB_DROP_REASON_), or
 *           "unexpected" (each reason on its own, the drops the noise list
 *           does not hide), or "any" (every drop, summed)
 *   OP    = ">" or ">="; NUMBER a count, or with "/s" a rate per second
 *
 * A named reason counts all its drops, expected ones too. Pure: parsing and
 * arithmetic on a count document (format.h); whydrop exits WD_EXIT_CHECK
 * when a threshold was crossed.
 */
#ifndef WD_CHECK_H
#define WD_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"

#define WD_EXIT_CHECK		3	/* a --fail-on threshold was crossed */
#define WD_CHECK_MAX_TERMS	16
#define WD_CHECK_NAME		64

enum wd_check_what { WD_CHECK_REASON, WD_CHECK_UNEXPECTED, WD_CHECK_ANY };

struct wd_check_term {
	enum wd_check_what what;
	char reason[WD_CHECK_NAME];	/* the catalogue's name (WD_CHECK_REASON) */
	bool or_equal;			/* >= rather than > */
	bool per_second;
	double limit;
	char text[192];			/* as it is said back: "NO_SOCKET>100/s" */
};

struct wd_check {
	struct wd_check_term t[WD_CHECK_MAX_TERMS];
	size_t n;
	char spec[1536];			/* the terms, comma-separated, as said back */
};

/* Parse SPEC into c: 0, or -1 with one sentence in err saying what to write. */
int wd_check_parse(const char *spec, struct wd_check *c, char *err, size_t len);

#define WD_CHECK_MAX_REASONS	32

/* A reason's drops as a term saw them, and its rows (their causes). */
struct wd_check_reason {
	const char *reason;		/* NULL: location-only rows */
	uint64_t count;
	double rate;
	bool crossed;			/* this reason alone crossed (unexpected) */
	const struct wd_count_row *rows[8];	/* the largest, their causes said */
	size_t n_rows;
};

struct wd_check_outcome {
	const struct wd_check_term *term;
	bool crossed;
	uint64_t count;			/* the term's measure: the reason's, the sum, the */
	double rate;			/* ... largest unexpected reason's */
	struct wd_check_reason reasons[WD_CHECK_MAX_REASONS];	/* largest first */
	size_t n_reasons;
};

struct wd_check_result {
	const struct wd_check *check;
	struct wd_check_outcome o[WD_CHECK_MAX_TERMS];
	size_t n;
	bool crossed;			/* any term */
};

/* Every term against the document (its rows and hidden rows, its duration). */
void wd_check_eval(const struct wd_check *c, const struct wd_count_doc *doc,
		   struct wd_check_result *r);

#endif /* WD_CHECK_H */
