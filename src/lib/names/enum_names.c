// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The readers of a kernel enum's names, from BTF or from a tracefs format
 * file's print fmt: the drop reasons (reasons.c) and the TCP reset reasons
 * and states (tcp_names.c) are read by the same code.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "reasons.h"
#include "tracefs.h"

int wd_enum_load(const struct wd_enum_source *s, void *dst, char *err, size_t errlen)
{
	const char *btf = secure_getenv("WHYDROP_BTF");
	char path[256], *text;
	int ret;

	if (wd_btf_asked(btf, err, errlen))
		return -1;
	if (!secure_getenv("WHYDROP_NO_BTF") && !s->parse(dst, btf, NULL))
		return 0;
	ret = s->format ? wd_tracefs_event_path(s->format, path, sizeof(path), err, errlen)
			: wd_tracefs_format_path(path, sizeof(path), err, errlen);
	if (ret)
		return -1;
	text = wd_tracefs_read(path, err, errlen);
	if (!text)
		return -1;
	ret = s->parse(dst, NULL, text);
	free(text);
	if (ret)
		snprintf(err, errlen, "cannot parse the %s in %s", s->what, path);
	return ret ? -1 : 0;
}

int wd_reason_list_add(struct wd_reason **v, size_t *n, uint32_t code, const char *name)
{
	struct wd_reason *tmp = realloc(*v, (*n + 1) * sizeof(**v));

	if (!tmp)
		return -ENOMEM;
	*v = tmp;
	tmp[*n].code = code;
	tmp[*n].name = strdup(name);
	if (!tmp[*n].name)
		return -ENOMEM;
	(*n)++;
	return 0;
}

int wd_reason_cmp_code(const void *a, const void *b)
{
	const struct wd_reason *x = a, *y = b;

	return x->code < y->code ? -1 : x->code > y->code;
}

void wd_reason_list_free(struct wd_reason *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

int wd_btf_asked(const char *btf, char *err, size_t errlen)
{
	if (!btf || !access(btf, R_OK))
		return 0;
	/* asked for: no quiet fallback to tracefs */
	snprintf(err, errlen, "WHYDROP_BTF=%s: %s (unset it to use the kernel's BTF)", btf,
		 strerror(errno));
	return -1;
}

bool wd_btf_has_member(const struct btf *btf, const char *sname, const char *member)
{
	int id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	const struct btf_type *t;
	const struct btf_member *m;
	int i;

	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

int wd_btf_enum_names(const struct btf *btf, int id, const char *prefix,
		      struct wd_reason **v, size_t *n)
{
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	size_t plen = strlen(prefix);
	const struct btf_enum *e;

	if (!t || !btf_is_enum(t))
		return -ENOENT;
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++) {
		const char *name = btf__name_by_offset(btf, e->name_off);

		if (strncmp(name, prefix, plen) || !strcmp(name + plen, "MAX"))
			continue;
		if (wd_reason_list_add(v, n, (uint32_t)e->val, name + plen))
			return -ENOMEM;
	}
	if (*n)
		qsort(*v, *n, sizeof(**v), wd_reason_cmp_code);
	return 0;
}

bool wd_format_has_field(const char *text, const char *field)
{
	char needle[64];

	snprintf(needle, sizeof(needle), " %s;", field);
	for (const char *p = strstr(text, "field:"); p; p = strstr(p + 1, "field:")) {
		const char *end = strchr(p, ';');

		if (end && end - p >= (long)strlen(needle) - 1 &&
		    !strncmp(end - strlen(needle) + 1, needle, strlen(needle)))
			return true;
	}
	return false;
}

/* Parse `{ 3, "NO_SOCKET" }` at p; returns the position after it or NULL. */
static const char *parse_symbol(const char *p, unsigned long *code, char *name, size_t len)
{
	char *end;
	size_t n = 0;

	while (isspace((unsigned char)*p) || *p == ',')
		p++;
	if (*p != '{')
		return NULL;
	p++;
	errno = 0;
	*code = strtoul(p, &end, 0);
	if (end == p || errno)
		return NULL;
	p = end;
	while (isspace((unsigned char)*p) || *p == ',')
		p++;
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if (n + 1 >= len)
			return NULL;
		name[n++] = *p++;
	}
	name[n] = '\0';
	if (*p++ != '"')
		return NULL;
	while (isspace((unsigned char)*p))
		p++;
	return *p == '}' ? p + 1 : NULL;
}

int wd_format_symbols(const char *text, const char *field, struct wd_reason **v, size_t *n)
{
	char needle[80], name[128];
	unsigned long code;
	const char *p;

	snprintf(needle, sizeof(needle), "__print_symbolic(REC->%s,", field);
	p = strstr(text, needle);
	if (!p)
		return -ENOENT;
	p += strlen(needle);
	while ((p = parse_symbol(p, &code, name, sizeof(name)))) {
		if (!strcmp(name, "MAX") || code > UINT32_MAX)
			continue;
		if (wd_reason_list_add(v, n, (uint32_t)code, name))
			return -ENOMEM;
	}
	if (!*n)
		return -EINVAL;
	qsort(*v, *n, sizeof(**v), wd_reason_cmp_code);
	return 0;
}
