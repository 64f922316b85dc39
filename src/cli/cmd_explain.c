// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop explain REASON...: the catalogue entry plus live context from
 * this machine (sysctl values, MIB counters and their rate, the reason's
 * number here). Plain reads of /proc and /sys: no BPF, no root.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "commands.h"
#include "explain.h"
#include "json.h"
#include "options.h"
#include "runtime.h"

#define MAX_REASONS	64

/* What goes together, once each option was accepted: 0, or 2 after a message. */
static int check_opts(const struct wd_cli *c)
{
	if (c->callsites && (c->all || c->doc == WD_DOC_MAN)) {
		fprintf(stderr, "whydrop explain: --callsites goes alone, or with --json or "
			"--markdown\n");
		return 2;
	}
	if (c->doc && !c->all && !c->callsites) {
		fprintf(stderr, "whydrop explain: --markdown and --man go with --all\n");
		return 2;
	}
	if (c->callsites || c->all)
		return 0;
	if (!c->n_words) {
		fputs("whydrop explain: which reason? (e.g. `whydrop explain "
		      "NO_SOCKET`; `whydrop reasons` lists them)\n", stderr);
		return 2;
	}
	if (c->n_words > MAX_REASONS) {
		fprintf(stderr, "whydrop explain: at most %d reasons at once\n", MAX_REASONS);
		return 2;
	}
	return 0;
}

/* ----------------------------------------------------------------- all */

/*
 * The entries of a list (count(), at(i)) as text, a blank line before each
 * but the first of all (first: this list comes first); as JSON, an array
 * key of one object each. Macros: the lists' entries have types of their own.
 */
#define PRINT_ENTRIES(count, at, print, first)					\
	do {									\
		for (size_t i_ = 0; i_ < count(); i_++) {			\
			if (i_ || !(first))					\
				putchar('\n');					\
			print(stdout, at(i_));					\
		}								\
	} while (0)

#define JSON_ENTRIES(j, key, count, at, fields)					\
	do {									\
		wd_json_open(j, key, '[');					\
		for (size_t i_ = 0; i_ < count(); i_++) {			\
			wd_json_open(j, NULL, '{');				\
			fields(j, at(i_));					\
			wd_json_close(j, '}');					\
		}								\
		wd_json_close(j, ']');						\
	} while (0)

static int explain_all(const struct explain_opts *o)
{
	struct wd_json j;

	if (o->doc == DOC_MARKDOWN) {
		wd_catalogue_markdown(stdout);
		return 0;
	}
	if (o->doc == DOC_MAN) {
		wd_catalogue_man(stdout);
		return 0;
	}
	if (!o->json) {
		PRINT_ENTRIES(wd_catalogue_count, wd_catalogue_at, wd_catalogue_print, true);
		PRINT_ENTRIES(wd_rst_catalogue_count, wd_rst_catalogue_at, wd_rst_catalogue_print,
			      false);
		return 0;
	}
	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	JSON_ENTRIES(&j, "reasons", wd_catalogue_count, wd_catalogue_at, wd_catalogue_json_fields);
	JSON_ENTRIES(&j, "resets", wd_rst_catalogue_count, wd_rst_catalogue_at,
		     wd_rst_catalogue_json_fields);
	wd_json_close(&j, '}');
	putchar('\n');
	return 0;
}

static int explain_callsites(const struct explain_opts *o)
{
	struct wd_json j;

	if (o->doc == DOC_MARKDOWN) {
		wd_callsites_markdown(stdout);
		return 0;
	}
	if (!o->json) {
		PRINT_ENTRIES(wd_callsite_count, wd_callsite_at, wd_callsite_print, true);
		PRINT_ENTRIES(wd_cause_count, wd_cause_at, wd_cause_print, false);
		return 0;
	}
	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	JSON_ENTRIES(&j, "callsites", wd_callsite_count, wd_callsite_at, wd_callsite_json_fields);
	JSON_ENTRIES(&j, "causes", wd_cause_count, wd_cause_at, wd_cause_json_fields);
	wd_json_close(&j, '}');
	putchar('\n');
	return 0;
}

/* ------------------------------------------------------------ resolve */

/* A number as the JSON prints it: this kernel's name for it, in place. */
static int number_to_name(struct explain_ctx *x, char **name)
{
	const struct wd_reason *r;

	if (!isdigit((unsigned char)(*name)[0]))
		return 0;
	r = x->have_reasons ? wd_reason_by_word(&x->reasons, *name) : NULL;
	if (r) {
		*name = r->name;
		return 0;
	}
	if (x->have_reasons)
		fprintf(stderr, "whydrop: no reason number %s on this kernel (`whydrop reasons` "
			"lists them with their numbers)\n", *name);
	else
		fprintf(stderr, "whydrop: cannot tell which reason number %s is: %s\n",
			*name, x->reasons_err);
	return -1;
}

/*
 * Entries for the names: a reason's, a reset reason's (rst:NAME), or a
 * function's (its call-site entry, its causes by place, or both: places[i]);
 * on an unknown one, print the error and fail.
 */
static int resolve(struct explain_ctx *x, char **names, int n,
		   const struct wd_cat_entry **out, const struct wd_callsite **sites,
		   const struct wd_rst_entry **rsts, bool *places)
{
	for (int i = 0; i < n; i++) {
		const char *hint;

		out[i] = NULL;
		sites[i] = NULL;
		rsts[i] = NULL;
		places[i] = false;
		if (wd_explain_is_rst(names[i])) {
			rsts[i] = wd_explain_rst_resolve(names[i]);
			if (!rsts[i])
				return -1;
			continue;
		}
		if (number_to_name(x, &names[i]))
			return -1;
		out[i] = wd_catalogue_find(names[i]);
		if (out[i])
			continue;
		if (x->have_reasons && wd_reason_by_name(&x->reasons, names[i]))
			continue;	/* the kernel knows it, we do not (yet) */
		sites[i] = wd_callsite_find(names[i]);
		places[i] = wd_cause_has_function(names[i]);
		if (sites[i] || places[i])
			continue;
		fprintf(stderr, "whydrop: unknown reason or call site '%s'", names[i]);
		if (wd_rst_catalogue_find(names[i])) {
			fprintf(stderr, "; the reset reason is 'rst:%s'\n",
				wd_rst_catalogue_find(names[i])->name);
			return -1;
		}
		hint = wd_catalogue_suggest(names[i]);
		if (!hint && x->have_reasons)
			hint = wd_reason_suggest(&x->reasons, names[i]);
		if (!hint)
			hint = wd_callsite_suggest(names[i]);
		if (hint)
			fprintf(stderr, "; did you mean '%s'?", hint);
		fputs(" (see `whydrop reasons` and `whydrop explain --callsites`)\n", stderr);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- main */

static void ctx_init(struct explain_ctx *x)
{
	struct utsname u;

	memset(x, 0, sizeof(*x));
	wd_counters_init(&x->before);
	wd_counters_init(&x->after);
	snprintf(x->kernel, sizeof(x->kernel), "%s",
		 uname(&u) ? "unknown" : u.release);
	x->have_reasons = !wd_reasons_load(&x->reasons, x->reasons_err,
					   sizeof(x->reasons_err));
}

static void ctx_free(struct explain_ctx *x)
{
	wd_explain_rst_free(x);
	if (x->have_reasons)
		wd_reasons_free(&x->reasons);
	wd_counters_free(&x->before);
	wd_counters_free(&x->after);
}

int cmd_explain(int argc, char **argv)
{
	const struct wd_cat_entry *e[MAX_REASONS];
	const struct wd_callsite *sites[MAX_REASONS];
	const struct wd_rst_entry *rsts[MAX_REASONS];
	bool places[MAX_REASONS];
	struct explain_opts o;
	struct explain_ctx x;
	struct wd_cli cli;
	char **names;
	int status, n;

	if (wd_cli_parse(WD_CMD_EXPLAIN, argc, argv, &cli, &status))
		return status;
	status = check_opts(&cli);
	if (status)
		return status;
	o = (struct explain_opts){
		.interval = cli.interval, .json = cli.o.json, .all = cli.all,
		.callsites = cli.callsites,
		.doc = cli.doc == WD_DOC_MARKDOWN ? DOC_MARKDOWN :
		       cli.doc == WD_DOC_MAN ? DOC_MAN : DOC_NONE,
	};
	if (o.all)
		return explain_all(&o);
	if (o.callsites)
		return explain_callsites(&o);
	names = cli.words;
	n = cli.n_words;
	wd_libbpf_log_init(cli.o.verbose);
	ctx_init(&x);
	if (cli.o.verbose && x.have_reasons)
		wd_reasons_say_source("explain", &x.reasons);
	status = 2;
	if (resolve(&x, names, n, e, sites, rsts, places))
		goto cleanup;
	status = 1;
	if (wd_explain_sample(&x, &o, e, n)) {
		fprintf(stderr, "whydrop explain: cannot read counters: out of memory\n");
		goto cleanup;
	}
	status = 0;
	if (o.json) {
		wd_explain_json(&x, e, sites, rsts, places, names, n);
		goto cleanup;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		if (rsts[i]) {
			wd_explain_rst_text(&x, rsts[i]);
			continue;
		}
		if (sites[i])
			wd_callsite_print(stdout, sites[i]);
		if (sites[i] && places[i])
			putchar('\n');
		if (places[i])
			wd_causes_print_function(stdout, names[i]);
		if (!sites[i] && !places[i])
			wd_explain_text(&x, e[i], names[i]);
	}
cleanup:
	ctx_free(&x);
	return status;
}
