// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop reasons: every drop reason of the running kernel with its number
 * here, layer and one-line summary; flags reasons the catalogue lacks (a new
 * kernel shows at once) and catalogue reasons this kernel lacks.
 */
#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "catalogue.h"
#include "commands.h"
#include "format.h"
#include "json.h"
#include "options.h"
#include "reasons.h"
#include "runtime.h"
#include "tracefs.h"

struct kver {
	int major, minor;
};

static const char *source_name(enum wd_reason_source s)
{
	return s == WD_SRC_BTF ? "btf" : s == WD_SRC_TRACEFS ? "tracefs" : "none";
}

static struct kver parse_kver(const char *s)
{
	struct kver v = { 0, 0 };

	while (*s && !isdigit((unsigned char)*s))
		s++;
	if (sscanf(s, "%d.%d", &v.major, &v.minor) < 1)
		v.major = 0;
	return v;
}

static bool newer(struct kver a, struct kver b)
{
	return a.major > b.major || (a.major == b.major && a.minor > b.minor);
}

/* "mac80211" for MAC80211_UNUSABLE, "openvswitch" for OPENVSWITCH. */
static void subsys_module(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && name[i] != '_' && i + 1 < len; i++)
		buf[i] = (char)tolower((unsigned char)name[i]);
	buf[i] = '\0';
}

static void load_subsys_codes(struct wd_reasons *r)
{
	char buf[160];

	for (size_t i = 0; i < r->n_subsys; i++)
		wd_reason_name(r, r->subsys[i].id << WD_SUBSYS_SHIFT, buf, sizeof(buf));
}

/* Is catalogue entry e among this kernel's reasons (core or loaded subsys)? */
static bool kernel_has(const struct wd_reasons *r, const struct wd_cat_entry *e)
{
	if (!strcmp(e->subsys, "core")) {
		if (wd_reason_by_name(r, e->name))
			return true;
		for (const char *const *a = e->aliases; a && *a; a++)
			if (wd_reason_by_name(r, *a))
				return true;
		return false;
	}
	for (size_t i = 0; i < r->n_subsys; i++)
		for (size_t k = 0; k < r->subsys[i].n_codes; k++)
			if (wd_catalogue_find(r->subsys[i].codes[k].name) == e)
				return true;
	return false;
}

/* Only judge subsystems whose codes we could read. */
static bool subsys_known(const struct wd_reasons *r, const char *subsys)
{
	char mod[64];

	if (!strcmp(subsys, "core"))
		return true;
	for (size_t i = 0; i < r->n_subsys; i++) {
		subsys_module(r->subsys[i].name, mod, sizeof(mod));
		if (!strcmp(mod, subsys) && r->subsys[i].n_codes)
			return true;
	}
	return false;
}

static bool missing_from_kernel(const struct wd_reasons *r, const struct wd_cat_entry *e)
{
	return subsys_known(r, e->subsys) && !kernel_has(r, e);
}

/* ---------------------------------------------------------------- text */

static void text_row(const char *code, const char *name)
{
	const struct wd_cat_entry *e = wd_catalogue_find(name);

	if (e)
		printf("%10s  %-34s %-22.22s %s\n", code, name, e->layer, e->summary);
	else
		printf("%10s ?%-34s %-22s %s\n", code, name, "?",
		       "(not in whydrop's catalogue: `whydrop explain` "
		       "knows nothing about it)");
}

static void text_subsys(const struct wd_subsys *s)
{
	char code[32], mod[64];

	subsys_module(s->name, mod, sizeof(mod));
	if (!s->n_codes) {
		printf("%#10x  subsystem %s: reasons unknown (module %s not "
		       "loaded, or no module BTF)\n", s->id << WD_SUBSYS_SHIFT, s->name, mod);
		return;
	}
	printf("%#10x  subsystem %s (module %s)\n", s->id << WD_SUBSYS_SHIFT, s->name, mod);
	for (size_t k = 0; k < s->n_codes; k++) {
		if (wd_catalogue_is_sentinel(s->codes[k].name))
			continue;
		snprintf(code, sizeof(code), "%#x", s->codes[k].code);
		text_row(code, s->codes[k].name);
	}
}

static void text_missing(const struct wd_reasons *r, struct kver here)
{
	int newer_n = 0, other_n = 0;

	for (size_t i = 0; i < wd_catalogue_count(); i++) {
		const struct wd_cat_entry *e = wd_catalogue_at(i);

		if (!missing_from_kernel(r, e))
			continue;
		if (newer(parse_kver(e->since), here))
			printf("%s %s (%s)", newer_n++ ? "," : "\nCatalogue "
			       "reasons added after this kernel:\n ", e->name,
			       e->since);
	}
	for (size_t i = 0; i < wd_catalogue_count(); i++) {
		const struct wd_cat_entry *e = wd_catalogue_at(i);

		if (!missing_from_kernel(r, e) || newer(parse_kver(e->since), here))
			continue;
		printf("%s %s (%s)", other_n++ ? "," : "\nCatalogue reasons "
		       "this kernel does not have (older kernel, backport, or "
		       "distribution kernel):\n ", e->name, e->since);
	}
	if (newer_n || other_n)
		putchar('\n');
}

static void print_text(const struct wd_reasons *r, const char *kernel)
{
	size_t unknown = 0;
	char code[32];

	if (!r->has_reason) {	/* listing all of the catalogue as missing says nothing */
		printf("This kernel's skb:kfree_skb tracepoint carries no drop reason "
		       "(kernel %s; reasons came with 5.17):\nwhydrop counts drops by "
		       "kernel location (function+offset) here. `whydrop explain REASON` "
		       "still describes every reason.\n", kernel);
		return;
	}
	printf("%10s  %-34s %-22s %s   (kernel %s, source: %s)\n", "CODE",
	       "REASON", "LAYER", "SUMMARY", kernel, source_name(r->source));
	for (size_t i = 0; i < r->n; i++) {
		snprintf(code, sizeof(code), "%u", r->v[i].code);
		text_row(code, r->v[i].name);
		unknown += !wd_catalogue_find(r->v[i].name);
	}
	for (size_t i = 0; i < r->n_subsys; i++)
		text_subsys(&r->subsys[i]);
	if (unknown)
		printf("\n%zu %s of this kernel %s not in whydrop's catalogue (marked '?'): a "
		       "newer kernel than whydrop.\n", unknown, wd_plural(unknown, "reason", "reasons"),
		       wd_plural(unknown, "is", "are"));
	text_missing(r, parse_kver(kernel));
}

/* ---------------------------------------------------------------- JSON */

static void json_reason(struct wd_json *j, const char *name, uint32_t code,
			const char *subsys)
{
	const struct wd_cat_entry *e = wd_catalogue_find(name);

	wd_json_open(j, NULL, '{');
	wd_json_str(j, "name", name);
	wd_json_uint(j, "code", code);
	wd_json_str(j, "subsystem", subsys);
	wd_json_bool(j, "in_catalogue", e != NULL);
	if (e) {
		wd_json_str(j, "layer", e->layer);
		wd_json_str(j, "summary", e->summary);
	}
	wd_json_close(j, '}');
}

static void json_subsys(struct wd_json *j, const struct wd_subsys *s)
{
	char mod[64];

	subsys_module(s->name, mod, sizeof(mod));
	wd_json_open(j, NULL, '{');
	wd_json_str(j, "name", s->name);
	wd_json_uint(j, "id", s->id);
	wd_json_str(j, "module", mod);
	wd_json_bool(j, "codes_known", s->n_codes > 0);
	wd_json_open(j, "reasons", '[');
	for (size_t k = 0; k < s->n_codes; k++)
		if (!wd_catalogue_is_sentinel(s->codes[k].name))
			json_reason(j, s->codes[k].name, s->codes[k].code, mod);
	wd_json_close(j, ']');
	wd_json_close(j, '}');
}

static void json_missing(struct wd_json *j, const struct wd_reasons *r)
{
	wd_json_open(j, "missing_from_catalogue", '[');
	for (size_t i = 0; i < r->n; i++)
		if (!wd_catalogue_find(r->v[i].name))
			wd_json_str(j, NULL, r->v[i].name);
	for (size_t i = 0; i < r->n_subsys; i++)
		for (size_t k = 0; k < r->subsys[i].n_codes; k++)
			if (!wd_catalogue_is_sentinel(r->subsys[i].codes[k].name) &&
			    !wd_catalogue_find(r->subsys[i].codes[k].name))
				wd_json_str(j, NULL, r->subsys[i].codes[k].name);
	wd_json_close(j, ']');
	wd_json_open(j, "missing_from_kernel", '[');
	for (size_t i = 0; i < wd_catalogue_count(); i++) {
		const struct wd_cat_entry *e = wd_catalogue_at(i);

		if (!missing_from_kernel(r, e))
			continue;
		wd_json_open(j, NULL, '{');
		wd_json_str(j, "name", e->name);
		wd_json_str(j, "subsystem", e->subsys);
		wd_json_str(j, "since", e->since);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

static void print_json(const struct wd_reasons *r, const char *kernel)
{
	struct wd_json j;

	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "kernel", kernel);
	wd_json_str(&j, "source", source_name(r->source));
	wd_json_bool(&j, "has_reason", r->has_reason);
	wd_json_bool(&j, "has_rx_sk", r->has_rx_sk);
	wd_json_open(&j, "reasons", '[');
	for (size_t i = 0; i < r->n; i++)
		json_reason(&j, r->v[i].name, r->v[i].code, "core");
	wd_json_close(&j, ']');
	wd_json_open(&j, "subsystems", '[');
	for (size_t i = 0; i < r->n_subsys; i++)
		json_subsys(&j, &r->subsys[i]);
	wd_json_close(&j, ']');
	json_missing(&j, r);
	wd_json_close(&j, '}');
	putchar('\n');
}

void wd_reasons_say_source(const char *cmd, const struct wd_reasons *r)
{
	const char *btf = secure_getenv("WHYDROP_BTF");
	char path[256] = "?", err[256];

	if (r->source == WD_SRC_TRACEFS && wd_tracefs_format_path(path, sizeof(path), err,
								  sizeof(err)))
		snprintf(path, sizeof(path), "?");
	fprintf(stderr, "whydrop %s: %zu %s from %s (%s)", cmd, r->n,
		wd_plural(r->n, "reason", "reasons"),
		r->source == WD_SRC_BTF ? "BTF" : "tracefs",
		r->source == WD_SRC_BTF ? (btf ? btf : "/sys/kernel/btf/vmlinux") : path);
	if (r->n_subsys)
		fprintf(stderr, ", %zu %s", r->n_subsys,
			wd_plural(r->n_subsys, "subsystem", "subsystems"));
	if (!r->has_reason)
		fputs("; the tracepoint carries no reason (before 5.17)", stderr);
	fputc('\n', stderr);
}

int cmd_reasons(int argc, char **argv)
{
	struct wd_reasons r;
	struct utsname u;
	struct wd_cli cli;
	char err[512];
	int status;

	if (wd_cli_parse(WD_CMD_REASONS, argc, argv, &cli, &status))
		return status;
	wd_libbpf_log_init(cli.o.verbose);
	if (wd_reasons_load(&r, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return 1;
	}
	load_subsys_codes(&r);
	if (cli.o.verbose)
		wd_reasons_say_source("reasons", &r);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	if (cli.o.json)
		print_json(&r, u.release);
	else
		print_text(&r, u.release);
	wd_reasons_free(&r);
	wd_cli_free(&cli);
	return 0;
}
