// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reset reasons and TCP states named from the running kernel: numbers move
 * between releases as drop reasons do, so none is compiled in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "format.h"
#include "tcp_names.h"
#include "tracefs.h"

#define BTF_VMLINUX	"/sys/kernel/btf/vmlinux"

/* The anonymous enum of include/net/tcp_states.h: the one with TCP_ESTABLISHED. */
static int btf_states(struct wd_tcp_names *t, const struct btf *btf)
{
	int n = (int)btf__type_cnt(btf);

	for (int id = 1; id < n; id++) {
		const struct btf_type *ty = btf__type_by_id(btf, id);
		const struct btf_enum *e;
		bool found = false;

		if (!btf_is_enum(ty))
			continue;
		e = btf_enum(ty);
		for (int i = 0; i < btf_vlen(ty) && !found; i++)
			found = !strcmp(btf__name_by_offset(btf, e[i].name_off), "TCP_ESTABLISHED");
		if (!found)
			continue;
		if (wd_btf_enum_names(btf, id, "TCP_", &t->states, &t->n_states))
			return -ENOMEM;
		/* sorted: TCP_MAX_STATES, no state, is last */
		if (t->n_states && !strcmp(t->states[t->n_states - 1].name, "MAX_STATES"))
			free(t->states[--t->n_states].name);
		t->states_from_btf = true;
		return 0;
	}
	return 0;
}

int wd_tcp_names_from_btf(struct wd_tcp_names *t, const char *btf_path)
{
	struct btf *btf;
	int err;

	memset(t, 0, sizeof(*t));
	if (!btf_path)
		btf_path = BTF_VMLINUX;
	if (access(btf_path, R_OK))
		return -errno;
	btf = btf__parse(btf_path, NULL);
	if (!btf)
		return -errno;
	t->has_rst_reason = wd_btf_has_member(btf, "trace_event_raw_tcp_send_reset", "reason");
	err = wd_btf_enum_names(btf, btf__find_by_name_kind(btf, "sk_rst_reason", BTF_KIND_ENUM),
				WD_RST_PREFIX, &t->rst, &t->n_rst);
	if (!err)
		t->source = WD_SRC_BTF;
	else if (err == -ENOENT)
		err = 0;	/* before 6.10: resets have no reason */
	if (!err)
		err = btf_states(t, btf);
	btf__free(btf);
	if (err)
		wd_tcp_names_free(t);
	return err;
}

int wd_tcp_names_from_format(struct wd_tcp_names *t, const char *text)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->has_rst_reason = wd_format_has_field(text, "reason");
	if (!t->has_rst_reason)
		return 0;
	err = wd_format_symbols(text, "reason", &t->rst, &t->n_rst);
	if (err) {
		wd_tcp_names_free(t);
		return err;
	}
	t->source = WD_SRC_TRACEFS;
	return 0;
}

static int parse(void *t, const char *btf, const char *text)
{
	return text ? wd_tcp_names_from_format(t, text) : wd_tcp_names_from_btf(t, btf);
}

int wd_tcp_names_load(struct wd_tcp_names *t, char *err, size_t errlen)
{
	static const struct wd_enum_source src = {
		"reset reasons", WD_TCP_SEND_RESET_FORMAT, parse
	};

	return wd_enum_load(&src, t, err, errlen);
}

void wd_tcp_names_free(struct wd_tcp_names *t)
{
	wd_reason_list_free(t->rst, t->n_rst);
	wd_reason_list_free(t->states, t->n_states);
	memset(t, 0, sizeof(*t));
}

static const struct wd_reason *by_code(const struct wd_reason *v, size_t n, uint32_t code)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].code == code)
			return &v[i];
	return NULL;
}

const char *wd_tcp_rst_name(const struct wd_tcp_names *t, uint32_t code, char *buf, size_t len)
{
	const struct wd_reason *r = by_code(t->rst, t->n_rst, code);

	if (r)
		snprintf(buf, len, "%s", r->name);
	else if (code == 0xffff)	/* WD_TCP_REASON_NONE */
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "0x%x", code);
	return buf;
}

const char *wd_rst_strip(const char *name)
{
	if (!strncasecmp(name, WD_RST_SCHEME, strlen(WD_RST_SCHEME)))
		name += strlen(WD_RST_SCHEME);
	if (!strncasecmp(name, WD_RST_PREFIX, strlen(WD_RST_PREFIX)))
		name += strlen(WD_RST_PREFIX);
	return name;
}

const struct wd_reason *wd_tcp_rst_by_name(const struct wd_tcp_names *t, const char *name)
{
	name = wd_rst_strip(name);
	for (size_t i = 0; i < t->n_rst; i++)
		if (!strcasecmp(t->rst[i].name, name))
			return &t->rst[i];
	return NULL;
}

const char *wd_tcp_state_name(const struct wd_tcp_names *t, uint32_t state)
{
	const struct wd_reason *r;

	if (!state)
		return "-";
	r = by_code(t->states, t->n_states, state);
	if (r)
		return r->name;
	return state < 256 ? wd_sock_state_name((uint8_t)state) : "?";
}
