/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hand-made BTF for the suites that read names from it (test_reasons,
 * test_tcp_names): an enum from a list, a tracepoint's raw event struct
 * with its u32 reason field, and the BTF written to a file.
 */
#ifndef WD_UNIT_BTF_H
#define WD_UNIT_BTF_H

#include <stdio.h>
#include <bpf/btf.h>

struct unit_enumerator {
	const char *name;
	long long value;
};

/* UNIT_BTF_ENUM(btf, "name", { "A", 0 }, { "B", 1 }): its type id, < 0 on error. */
#define UNIT_BTF_ENUM(btf, name, ...)						\
	unit_btf_enum(btf, name, (const struct unit_enumerator[]){ __VA_ARGS__ },	\
		      sizeof((const struct unit_enumerator[]){ __VA_ARGS__ }) /	\
		      sizeof(struct unit_enumerator))

static inline int unit_btf_enum(struct btf *btf, const char *name,
				const struct unit_enumerator *v, size_t n)
{
	int id = btf__add_enum(btf, name, 4);

	for (size_t i = 0; i < n && id > 0; i++)
		if (btf__add_enum_value(btf, v[i].name, v[i].value))
			return -1;
	return id;
}

/* struct @name { u32 reason; }, as the tracepoint's raw event has it. */
static inline void unit_btf_reason_event(struct btf *btf, const char *name, int u32)
{
	btf__add_struct(btf, name, 4);
	btf__add_field(btf, "reason", u32, 0, 0);
}

static inline int unit_write_btf(const char *path, const struct btf *btf)
{
	__u32 size;
	const void *data = btf__raw_data(btf, &size);
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = data && fwrite(data, 1, size, f) == size;
	return fclose(f) || !ok ? -1 : 0;
}

#endif /* WD_UNIT_BTF_H */
