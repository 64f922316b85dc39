// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "ksym.h"
#include "tracefs.h"

static int cmp_addr(const void *a, const void *b)
{
	const struct wd_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Only code symbols can be a drop location. */
static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int add_sym(struct wd_ksyms *k, size_t *cap, uint64_t addr,
		   const char *name, const char *module)
{
	struct wd_ksym *s;

	if (wd_grow(&k->v, cap, k->n, sizeof(*k->v), 4096))
		return -ENOMEM;
	s = &k->v[k->n];
	s->addr = addr;
	s->name = strdup(name);
	s->module = module ? strdup(module) : NULL;
	if (!s->name || (module && !s->module)) {
		free(s->name);
		free(s->module);
		return -ENOMEM;
	}
	k->n++;
	return 0;
}

/* One line: "ffffffff81000000 T _stext" or "... t veth_xmit\t[veth]". */
static int parse_line(struct wd_ksyms *k, size_t *cap, char *line)
{
	char *addr_s, *type_s, *name, *module, *save = NULL;
	uint64_t addr;
	char *end;

	addr_s = strtok_r(line, " \t\n", &save);
	type_s = strtok_r(NULL, " \t\n", &save);
	name = strtok_r(NULL, " \t\n", &save);
	module = strtok_r(NULL, " \t\n", &save);
	if (!addr_s || !type_s || !name || type_s[1] || !is_text(type_s[0]))
		return 0;
	errno = 0;
	addr = strtoull(addr_s, &end, 16);
	if (*end || errno || !addr)
		return 0;	/* malformed, or hidden by kptr_restrict */
	if (module) {
		size_t l = strlen(module);

		if (module[0] != '[' || l < 3 || module[l - 1] != ']')
			module = NULL;
		else {
			module[l - 1] = '\0';
			module++;
		}
	}
	return add_sym(k, cap, addr, name, module);
}

int wd_ksyms_parse(struct wd_ksyms *k, const char *text)
{
	size_t cap = 0;
	char *copy, *line, *save = NULL;
	int err = 0;

	memset(k, 0, sizeof(*k));
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save))
		err = parse_line(k, &cap, line);
	free(copy);
	if (err) {
		wd_ksyms_free(k);
		return err;
	}
	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), cmp_addr);
	return 0;
}

int wd_ksyms_load(struct wd_ksyms *k, const char *path)
{
	char *text = wd_read_file(path ? path : "/proc/kallsyms", 256u << 20);
	int err;

	if (!text)
		return -errno;
	err = wd_ksyms_parse(k, text);
	free(text);
	return err;
}

void wd_ksyms_free(struct wd_ksyms *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].name);
		free(k->v[i].module);
	}
	free(k->v);
	memset(k, 0, sizeof(*k));
}

const struct wd_ksym *wd_ksym_find(const struct wd_ksyms *k, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = k->n;

	/* Last symbol at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	*off = addr - k->v[lo - 1].addr;
	return &k->v[lo - 1];
}

const struct wd_ksym *wd_ksym_format(const struct wd_ksyms *k, uint64_t addr, bool with_module,
				     char *buf, size_t len)
{
	uint64_t off = 0;
	const struct wd_ksym *s = wd_ksym_find(k, addr, &off);

	if (!s)
		snprintf(buf, len, "0x%" PRIx64, addr);
	else if (with_module && s->module)
		snprintf(buf, len, "%s+0x%" PRIx64 " [%s]", s->name, off, s->module);
	else
		snprintf(buf, len, "%s+0x%" PRIx64, s->name, off);
	return s;
}
