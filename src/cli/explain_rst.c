// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop explain rst:NAME: a reset reason's catalogue entry, its number on
 * this kernel (BTF, else tcp:tcp_send_reset's format; none before 6.10) and
 * its counters now. The rst: scheme keeps reset reasons apart from drop
 * reasons that share a name (NO_SOCKET, TCP_FLAGS).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "explain.h"
#include "json.h"

bool wd_explain_is_rst(const char *name)
{
	return !strncasecmp(name, WD_RST_SCHEME, strlen(WD_RST_SCHEME));
}

const struct wd_rst_entry *wd_explain_rst_resolve(const char *name)
{
	const struct wd_rst_entry *e = wd_rst_catalogue_find(name);
	const char *hint;

	if (e)
		return e;
	hint = wd_rst_catalogue_suggest(name);
	fprintf(stderr, "whydrop: unknown reset reason '%s'", name);
	if (hint)
		fprintf(stderr, "; did you mean '%s%s'?", WD_RST_SCHEME, hint);
	fputs(" (`whydrop explain --all` lists them, after the drop reasons)\n", stderr);
	return NULL;
}

static const struct wd_tcp_names *tcp_names(struct explain_ctx *x)
{
	if (!x->tcp_loaded)
		x->tcp_loaded = wd_tcp_names_load(&x->tcp, x->tcp_err, sizeof(x->tcp_err)) ? -1 : 1;
	return x->tcp_loaded > 0 ? &x->tcp : NULL;
}

/* This kernel's number for the reason; false (why in *why) when it has none. */
static bool kernel_code(struct explain_ctx *x, const struct wd_rst_entry *e, uint32_t *code,
			const char **why)
{
	const struct wd_tcp_names *t = tcp_names(x);
	const struct wd_reason *r;

	if (!t) {
		*why = x->tcp_err;
		return false;
	}
	if (!t->has_rst_reason) {
		*why = "this kernel's tcp:tcp_send_reset carries no reason (before 6.10)";
		return false;
	}
	r = wd_tcp_rst_by_name(t, e->name);
	if (!r) {
		*why = "this kernel does not have this reason";
		return false;
	}
	*code = r->code;
	return true;
}

void wd_explain_rst_text(struct explain_ctx *x, const struct wd_rst_entry *e)
{
	const char *why = "";
	uint32_t code;

	wd_rst_catalogue_print(stdout, e);
	printf("  On this machine (kernel %s, this process's network namespace):\n", x->kernel);
	if (kernel_code(x, e, &code, &why))
		printf("    reason number here: %u (0x%x), named from %s\n", code, code,
		       x->tcp.source == WD_SRC_BTF ? "BTF" : "tracefs");
	else
		printf("    reason number here: none: %s\n", why);
	wd_explain_counters_text(x, e->counters);
}

void wd_explain_rst_json(struct wd_json *j, struct explain_ctx *x, const struct wd_rst_entry *e)
{
	const char *why = "";
	uint32_t code;
	bool here = kernel_code(x, e, &code, &why);

	wd_json_open(j, NULL, '{');
	wd_rst_catalogue_json_fields(j, e);
	if (here)
		wd_json_uint(j, "code", code);
	if (x->tcp_loaded > 0)
		wd_json_bool(j, "in_kernel", here);
	if (!here)
		wd_json_str(j, "not_here", why);
	wd_json_open(j, "counter_values", '[');
	for (const char *const *p = e->counters; *p; p++)
		wd_explain_counter_json(j, x, *p);
	wd_json_close(j, ']');
	wd_json_close(j, '}');
}

void wd_explain_rst_free(struct explain_ctx *x)
{
	if (x->tcp_loaded > 0)
		wd_tcp_names_free(&x->tcp);
	x->tcp_loaded = 0;
}
