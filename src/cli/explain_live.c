// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop explain: what this machine says of a reason. Its number on this
 * kernel, the related sysctls now, the MIB counters now and their rate
 * over a short sample; as text or JSON. Plain reads of /proc and /sys.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "explain.h"
#include "json.h"
#include "runtime.h"

/* An old name of the entry counts too. */
bool wd_explain_kernel_code(struct explain_ctx *x, const struct wd_cat_entry *e,
			const char *name, uint32_t *code)
{
	const struct wd_reason *r;
	char buf[160];

	if (!x->have_reasons)
		return false;
	if (!e || !strcmp(e->subsys, "core")) {
		r = wd_reason_by_name(&x->reasons, e ? e->name : name);
		for (const char *const *a = e ? e->aliases : NULL; !r && a && *a; a++)
			r = wd_reason_by_name(&x->reasons, *a);
		if (r)
			*code = r->code;
		return r != NULL;
	}
	for (size_t i = 0; i < x->reasons.n_subsys; i++) {
		struct wd_subsys *s = &x->reasons.subsys[i];

		wd_reason_name(&x->reasons, s->id << 16, buf, sizeof(buf));
		for (size_t k = 0; k < s->n_codes; k++) {
			if (wd_catalogue_find(s->codes[k].name) == e &&
			    strncmp(s->codes[k].name, "__", 2)) {
				*code = s->codes[k].code;
				return true;
			}
		}
	}
	return false;
}

/* -------------------------------------------------------------- sample */

static int read_counters(struct wd_counters *c, const struct wd_cat_entry **e, int n)
{
	int err = wd_counters_read(c, NULL);

	for (int i = 0; !err && i < n; i++)
		for (const char *const *p = e[i] ? e[i]->counters : NULL;
		     !err && p && *p; p++)
			if (!strncmp(*p, "netdev:", 7))
				err = wd_counters_add_netdev(c, NULL, *p + 7);
	return err;
}

int wd_explain_sample(struct explain_ctx *x, const struct explain_opts *o,
		  const struct wd_cat_entry **e, int n)
{
	struct timespec ts;
	double t0;
	int err;

	err = read_counters(&x->before, e, n);
	if (err || o->interval <= 0)
		return err;
	t0 = wd_now();
	ts.tv_sec = (time_t)o->interval;
	ts.tv_nsec = (long)((o->interval - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	err = read_counters(&x->after, e, n);
	x->elapsed = wd_now() - t0;
	return err;
}

/* ---------------------------------------------------------------- text */

/* Sysctl names already shown for this entry ("all" and "*" overlap). */
struct seen_sysctls {
	size_t n;
	char names[128][96];
	struct wd_json *j;	/* JSON output, NULL for text */
};

static bool seen_before(struct seen_sysctls *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return true;
	if (s->n < sizeof(s->names) / sizeof(s->names[0]))
		snprintf(s->names[s->n++], sizeof(s->names[0]), "%s", name);
	return false;
}

static void print_sysctl(const char *name, const char *value, int err, void *arg)
{
	if (seen_before(arg, name))
		return;
	if (value)
		printf("    %-44s = %s\n", name, value);
	else if (err == -ENOENT)
		printf("    %-44s   (not on this kernel)\n", name);
	else
		printf("    %-44s   (unreadable: %s)\n", name, strerror(-err));
}

static void counter_text(const struct explain_ctx *x, const char *name)
{
	uint64_t v0, v1;

	if (!wd_counters_get(&x->before, name, &v0)) {
		printf("    %-32s %14s\n", name, "(not on this kernel)");
		return;
	}
	if (x->elapsed <= 0 || !wd_counters_get(&x->after, name, &v1)) {
		printf("    %-32s %14llu\n", name, (unsigned long long)v0);
		return;
	}
	printf("    %-32s %14llu  %+10.1f/s\n", name, (unsigned long long)v1,
	       (double)(int64_t)(v1 - v0) / x->elapsed);
}

void wd_explain_counters_text(const struct explain_ctx *x, const char *const *names)
{
	if (!names[0])
		return;
	if (x->elapsed > 0)
		printf("  Counters now, and rate over %.1f s:\n", x->elapsed);
	else
		printf("  Counters now:\n");
	for (const char *const *p = names; *p; p++)
		counter_text(x, *p);
}

static void text_live(struct explain_ctx *x, const struct wd_cat_entry *e,
		      const char *name)
{
	static struct seen_sysctls seen;
	uint32_t code;

	printf("  On this machine (kernel %s, this process's network namespace):\n",
	       x->kernel);
	if (wd_explain_kernel_code(x, e, name, &code))
		printf("    reason number here: %u (0x%x)\n", code, code);
	else if (!x->have_reasons)
		printf("    reason number here: unknown (%s)\n", x->reasons_err);
	else if (e && strcmp(e->subsys, "core"))
		printf("    reason number here: none (module %s not loaded, or "
		       "no module BTF)\n", e->subsys);
	else
		printf("    reason number here: none: this kernel does not have "
		       "this reason\n");
	if (!e)
		return;
	seen.n = 0;
	if (e->sysctls[0])
		printf("  Sysctls now:\n");
	for (const char *const *p = e->sysctls; *p; p++)
		wd_sysctl_each(NULL, *p, print_sysctl, &seen);
	wd_explain_counters_text(x, e->counters);
}

void wd_explain_text(struct explain_ctx *x, const struct wd_cat_entry *e,
		     const char *name)
{
	if (e)
		wd_catalogue_print(stdout, e);
	else
		printf("%s: known to this kernel, but whydrop's catalogue does "
		       "not describe it yet.\n", name);
	text_live(x, e, name);
}

/* ---------------------------------------------------------------- JSON */

static void json_sysctl(const char *name, const char *value, int err, void *arg)
{
	struct seen_sysctls *seen = arg;
	struct wd_json *j = seen->j;

	if (seen_before(seen, name))
		return;
	wd_json_open(j, NULL, '{');
	wd_json_str(j, "name", name);
	if (value)
		wd_json_str(j, "value", value);
	else
		wd_json_str(j, "error", err == -ENOENT ?
			    "not on this kernel" : strerror(-err));
	wd_json_close(j, '}');
}

void wd_explain_counter_json(struct wd_json *j, const struct explain_ctx *x,
			     const char *name)
{
	uint64_t v0, v1;

	wd_json_open(j, NULL, '{');
	wd_json_str(j, "name", name);
	if (!wd_counters_get(&x->before, name, &v0)) {
		wd_json_bool(j, "available", false);
	} else if (x->elapsed > 0 && wd_counters_get(&x->after, name, &v1)) {
		wd_json_uint(j, "value", v1);
		wd_json_int(j, "delta", (int64_t)(v1 - v0));
		wd_json_double(j, "per_second",
			       (double)(int64_t)(v1 - v0) / x->elapsed, 3);
	} else {
		wd_json_uint(j, "value", v0);
	}
	wd_json_close(j, '}');
}

static void json_one(struct wd_json *j, struct explain_ctx *x,
		     const struct wd_cat_entry *e, const char *name)
{
	static struct seen_sysctls seen;
	uint32_t code;

	seen.n = 0;
	seen.j = j;
	wd_json_open(j, NULL, '{');
	if (e)
		wd_catalogue_json_fields(j, e);
	else
		wd_json_str(j, "name", name);
	wd_json_bool(j, "in_catalogue", e != NULL);
	if (wd_explain_kernel_code(x, e, name, &code))
		wd_json_uint(j, "code", code);
	if (x->have_reasons)
		wd_json_bool(j, "in_kernel", wd_explain_kernel_code(x, e, name, &code));
	wd_json_open(j, "sysctl_values", '[');
	for (const char *const *p = e ? e->sysctls : NULL; p && *p; p++)
		wd_sysctl_each(NULL, *p, json_sysctl, &seen);
	wd_json_close(j, ']');
	wd_json_open(j, "counter_values", '[');
	for (const char *const *p = e ? e->counters : NULL; p && *p; p++)
		wd_explain_counter_json(j, x, *p);
	wd_json_close(j, ']');
	wd_json_close(j, '}');
}

/* explain FUNCTION: its call-site entry. */
static void callsite_json(struct wd_json *j, const struct wd_callsite *site)
{
	wd_json_open(j, NULL, '{');
	wd_callsite_json_fields(j, site);
	wd_json_close(j, '}');
}

/* explain FUNCTION: the causes the catalogue gives by place in it. */
static void place_json(struct wd_json *j, const char *function)
{
	wd_json_open(j, NULL, '{');
	wd_json_str(j, "function", function);
	wd_json_open(j, "causes", '[');
	wd_causes_json_function(j, function);
	wd_json_close(j, ']');
	wd_json_close(j, '}');
}

void wd_explain_json(struct explain_ctx *x, const struct wd_cat_entry **e,
		     const struct wd_callsite **sites, const struct wd_rst_entry **rsts,
		     const bool *places, char **names, int n)
{
	struct wd_json j;

	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "kernel", x->kernel);
	if (x->elapsed > 0)
		wd_json_double(&j, "interval_s", x->elapsed, 3);
	wd_json_open(&j, "reasons", '[');
	for (int i = 0; i < n; i++)
		if (!sites[i] && !rsts[i] && !places[i])
			json_one(&j, x, e[i], names[i]);
	wd_json_close(&j, ']');
	wd_json_open(&j, "callsites", '[');
	for (int i = 0; i < n; i++)
		if (sites[i])
			callsite_json(&j, sites[i]);
	wd_json_close(&j, ']');
	wd_json_open(&j, "places", '[');
	for (int i = 0; i < n; i++)
		if (places[i])
			place_json(&j, names[i]);
	wd_json_close(&j, ']');
	wd_json_open(&j, "resets", '[');
	for (int i = 0; i < n; i++)
		if (rsts[i])
			wd_explain_rst_json(&j, x, rsts[i]);
	wd_json_close(&j, ']');
	wd_json_close(&j, '}');
	putchar('\n');
}
