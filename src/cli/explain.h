/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop explain, between its files: cmd_explain.c (options, the names
 * asked for, the listings of --all and --callsites) and explain_live.c
 * (what this machine says: the reason's number here, sysctls, counters).
 */
#ifndef WD_EXPLAIN_H
#define WD_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "callsites.h"
#include "catalogue.h"
#include "counters.h"
#include "reasons.h"
#include "rst_catalogue.h"
#include "tcp_names.h"

enum doc_kind { DOC_NONE, DOC_MARKDOWN, DOC_MAN };

struct explain_opts {
	double interval;
	bool json, all, callsites;
	enum doc_kind doc;
};

struct explain_ctx {
	struct wd_reasons reasons;
	bool have_reasons;
	char reasons_err[256];
	struct wd_counters before, after;
	double elapsed;
	char kernel[128];
	struct wd_tcp_names tcp;	/* reset reasons here, read on first use */
	int tcp_loaded;		/* 0 not yet, 1 loaded, -1 failed (tcp_err says why) */
	char tcp_err[256];
};

/* This kernel's number for the entry (or for name, without one); false if none. */
bool wd_explain_kernel_code(struct explain_ctx *x, const struct wd_cat_entry *e,
			    const char *name, uint32_t *code);
/* The counters of the n entries now, and again after --interval. 0 or -ENOMEM. */
int wd_explain_sample(struct explain_ctx *x, const struct explain_opts *o,
		      const struct wd_cat_entry **e, int n);
/* One entry (NULL: a reason the catalogue lacks, by name) and its live values. */
void wd_explain_text(struct explain_ctx *x, const struct wd_cat_entry *e, const char *name);
/* The one JSON document of the n names: reasons, call sites, places (causes), reset reasons. */
void wd_explain_json(struct explain_ctx *x, const struct wd_cat_entry **e,
		     const struct wd_callsite **sites, const struct wd_rst_entry **rsts,
		     const bool *places, char **names, int n);
/* The counters of a list now (and their rate over the sample), under a heading; none: nothing. */
void wd_explain_counters_text(const struct explain_ctx *x, const char *const *names);
/* A counter now (and its rate over the sample) as a JSON object. */
struct wd_json;
void wd_explain_counter_json(struct wd_json *j, const struct explain_ctx *x, const char *name);

/* explain_rst.c: reset reasons, named rst:NAME. */
bool wd_explain_is_rst(const char *name);
/* The entry of rst:NAME; NULL after saying so, with the closest name. */
const struct wd_rst_entry *wd_explain_rst_resolve(const char *name);
void wd_explain_rst_text(struct explain_ctx *x, const struct wd_rst_entry *e);
void wd_explain_rst_json(struct wd_json *j, struct explain_ctx *x, const struct wd_rst_entry *e);
void wd_explain_rst_free(struct explain_ctx *x);

#endif /* WD_EXPLAIN_H */
