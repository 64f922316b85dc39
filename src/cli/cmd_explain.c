// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop explain REASON...: the catalogue entry plus live context from
 * this machine (sysctl values, MIB counters and their rate, the reason's
 * number here). Plain reads of /proc and /sys: no BPF, no root.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "commands.h"
#include "explain.h"
#include "json.h"

#define MAX_REASONS	64

static const char usage[] =
"Usage: whydrop explain [options] REASON|FUNCTION...\n"
"       whydrop explain --all [--json | --markdown | --man]\n"
"       whydrop explain --callsites [--json | --markdown]\n"
"What a drop reason means, where the kernel drops with it, what to check and\n"
"what to do, with live values from this machine: the related sysctls, the MIB\n"
"counters now and their rate over a short sample, and the reason's number on\n"
"this kernel. Needs neither root nor BPF. Names in any case, with or without\n"
"the SKB_DROP_REASON_ prefix; old names work too. A name that is no reason is\n"
"looked up as a kernel function in the call-site catalogue: what a drop there\n"
"means when it comes as NOT_SPECIFIED or with a generic reason.\n"
"\n"
"Options:\n"
"  -i, --interval SECS  sample the counters for SECS seconds (default 1, 0: no\n"
"                       rate, just the values now)\n"
"  -j, --json           one JSON document\n"
"  -a, --all            every reason in the catalogue (no live values)\n"
"      --markdown       with --all: the reference in Markdown (docs/reasons.md)\n"
"      --man            with --all: the DROP REASONS section of whydrop(8)\n"
"      --callsites      every call site in the catalogue (docs/callsites.md is\n"
"                       --callsites --markdown)\n"
"  -h, --help           this help\n"
"\n"
"Examples:\n"
"  whydrop explain TCP_ZEROWINDOW\n"
"  whydrop explain no_socket socket_rcvbuff --interval 5\n"
"  whydrop explain PROTO_MEM --json | jq '.reasons[0].counter_values'\n"
"  whydrop explain ip6_mc_input\n"
"  whydrop explain --all --markdown > docs/reasons.md\n";

/* ------------------------------------------------------------- options */

static int parse_interval(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0 || v > 3600) {
		fprintf(stderr, "whydrop explain: bad --interval '%s' "
			"(seconds, 0 to 3600)\n", s);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct explain_opts *o)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "markdown", no_argument, NULL, 'M' },
		{ "man", no_argument, NULL, 'N' },
		{ "callsites", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;	/* 0, not 1: also resets glibc's scan state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:jah", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (parse_interval(optarg, &o->interval))
				return 2;
			break;
		case 'j':
			o->json = true;
			break;
		case 'a':
			o->all = true;
			break;
		case 'M':
			o->doc = DOC_MARKDOWN;
			break;
		case 'N':
			o->doc = DOC_MAN;
			break;
		case 'C':
			o->callsites = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fprintf(stderr, "whydrop explain: unknown option '%s' "
				"(`whydrop explain -h`)\n", argv[optind - 1]);
			return 2;
		}
	}
	if (o->callsites && (o->all || o->doc == DOC_MAN)) {
		fprintf(stderr, "whydrop explain: --callsites goes alone, or with --json or "
			"--markdown\n");
		return 2;
	}
	if (o->doc && !o->all && !o->callsites) {
		fprintf(stderr, "whydrop explain: --markdown and --man go with --all\n");
		return 2;
	}
	if (o->callsites)
		return -1;
	if (!o->all && optind >= argc) {
		fputs("whydrop explain: which reason? (e.g. `whydrop explain "
		      "NO_SOCKET`; `whydrop reasons` lists them)\n", stderr);
		return 2;
	}
	if (argc - optind > MAX_REASONS) {
		fprintf(stderr, "whydrop explain: at most %d reasons at once\n",
			MAX_REASONS);
		return 2;
	}
	return -1;
}

/* ----------------------------------------------------------------- all */

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
		for (size_t i = 0; i < wd_catalogue_count(); i++) {
			if (i)
				putchar('\n');
			wd_catalogue_print(stdout, wd_catalogue_at(i));
		}
		return 0;
	}
	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	wd_json_open(&j, "reasons", '[');
	for (size_t i = 0; i < wd_catalogue_count(); i++) {
		wd_json_open(&j, NULL, '{');
		wd_catalogue_json_fields(&j, wd_catalogue_at(i));
		wd_json_close(&j, '}');
	}
	wd_json_close(&j, ']');
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
		for (size_t i = 0; i < wd_callsite_count(); i++) {
			if (i)
				putchar('\n');
			wd_callsite_print(stdout, wd_callsite_at(i));
		}
		return 0;
	}
	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	wd_json_open(&j, "callsites", '[');
	for (size_t i = 0; i < wd_callsite_count(); i++) {
		wd_json_open(&j, NULL, '{');
		wd_callsite_json_fields(&j, wd_callsite_at(i));
		wd_json_close(&j, '}');
	}
	wd_json_close(&j, ']');
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

/* Entries for the names; on an unknown one, print the error and fail. */
static int resolve(struct explain_ctx *x, char **names, int n,
		   const struct wd_cat_entry **out, const struct wd_callsite **sites)
{
	for (int i = 0; i < n; i++) {
		const char *hint;

		if (number_to_name(x, &names[i]))
			return -1;
		sites[i] = NULL;
		out[i] = wd_catalogue_find(names[i]);
		if (out[i])
			continue;
		if (x->have_reasons && wd_reason_by_name(&x->reasons, names[i]))
			continue;	/* the kernel knows it, we do not (yet) */
		sites[i] = wd_callsite_find(names[i]);
		if (sites[i])
			continue;
		hint = wd_catalogue_suggest(names[i]);
		if (!hint && x->have_reasons)
			hint = wd_reason_suggest(&x->reasons, names[i]);
		if (!hint)
			hint = wd_callsite_suggest(names[i]);
		fprintf(stderr, "whydrop: unknown reason or call site '%s'", names[i]);
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
	if (x->have_reasons)
		wd_reasons_free(&x->reasons);
	wd_counters_free(&x->before);
	wd_counters_free(&x->after);
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts o = { .interval = 1.0 };
	const struct wd_cat_entry *e[MAX_REASONS];
	const struct wd_callsite *sites[MAX_REASONS];
	struct explain_ctx x;
	int status, n;

	status = parse_opts(argc, argv, &o);
	if (status >= 0)
		return status;
	if (o.all)
		return explain_all(&o);
	if (o.callsites)
		return explain_callsites(&o);
	n = argc - optind;
	ctx_init(&x);
	status = 2;
	if (resolve(&x, argv + optind, n, e, sites))
		goto cleanup;
	status = 1;
	if (wd_explain_sample(&x, &o, e, n)) {
		fprintf(stderr, "whydrop explain: cannot read counters: out of memory\n");
		goto cleanup;
	}
	status = 0;
	if (o.json) {
		wd_explain_json(&x, e, sites, argv + optind, n);
		goto cleanup;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		if (sites[i])
			wd_callsite_print(stdout, sites[i]);
		else
			wd_explain_text(&x, e[i], argv[optind + i]);
	}
cleanup:
	ctx_free(&x);
	return status;
}
