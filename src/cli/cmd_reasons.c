// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "reasons.h"

static const char usage[] =
"Usage: whydrop reasons [--json]\n"
"The drop reasons of the running kernel with their numbers here (they change\n"
"between kernel versions), from BTF, or from tracefs without BTF.\n"
"\n"
"Examples:\n"
"  whydrop reasons\n"
"  whydrop reasons --json | jq '.reasons[] | select(.name == \"TCP_FLAGS\").code'\n";

static const char *source_name(enum wd_reason_source s)
{
	return s == WD_SRC_BTF ? "btf" : s == WD_SRC_TRACEFS ? "tracefs" : "none";
}

static void print_json(const struct wd_reasons *r)
{
	struct wd_json j;

	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "source", source_name(r->source));
	wd_json_bool(&j, "has_reason", r->has_reason);
	wd_json_bool(&j, "has_rx_sk", r->has_rx_sk);
	wd_json_open(&j, "reasons", '[');
	for (size_t i = 0; i < r->n; i++) {
		wd_json_open(&j, NULL, '{');
		wd_json_str(&j, "name", r->v[i].name);
		wd_json_uint(&j, "code", r->v[i].code);
		wd_json_str(&j, "subsystem", "core");
		wd_json_close(&j, '}');
	}
	wd_json_close(&j, ']');
	wd_json_open(&j, "subsystems", '[');
	for (size_t i = 0; i < r->n_subsys; i++) {
		wd_json_open(&j, NULL, '{');
		wd_json_str(&j, "name", r->subsys[i].name);
		wd_json_uint(&j, "id", r->subsys[i].id);
		wd_json_close(&j, '}');
	}
	wd_json_close(&j, ']');
	wd_json_close(&j, '}');
	putchar('\n');
}

static void print_text(const struct wd_reasons *r)
{
	printf("%5s  %s   (source: %s)\n", "CODE", "REASON", source_name(r->source));
	for (size_t i = 0; i < r->n; i++)
		printf("%5u  %s\n", r->v[i].code, r->v[i].name);
	for (size_t i = 0; i < r->n_subsys; i++)
		printf("0x%x....  subsystem %s\n", r->subsys[i].id, r->subsys[i].name);
}

int cmd_reasons(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct wd_reasons r;
	bool json = false;
	char err[512];
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'j') {
			json = true;
		} else if (c == 'h') {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "whydrop reasons: unknown option '%s' (`whydrop reasons -h`)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (wd_reasons_load(&r, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return 1;
	}
	if (json)
		print_json(&r);
	else
		print_text(&r);
	wd_reasons_free(&r);
	return 0;
}
