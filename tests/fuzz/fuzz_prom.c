// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz what serve renders from outside data: label values (reason names
 * from module BTF, kernel function names, interface names) of any bytes,
 * merged, capped over several scrapes (some retired, then back) and
 * rendered. Checks that the rendered text has exactly one line per sample
 * plus HELP/TYPE lines, i.e. that no value can inject a line into the
 * exposition, and that the fold never goes down.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"

static size_t lines(const struct wd_prom_buf *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->len; i++)
		n += b->data[i] == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wd_prom_family f = {
		.name = "whydrop_drops_total", .type = "counter", .help = "fuzz",
		.labels = { "reason", "function" }, .nlabels = 2,
	};
	struct wd_prom_cap cap = { .max = size ? (size_t)data[0] % 5 + 1 : 1 };
	char *copy = malloc(size + 1), *p, *vals[2];
	struct wd_prom_buf b = { 0 };
	uint64_t fold = 0;
	int scrape;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (scrape = 0; scrape < 3; scrape++) {
		/* NUL-separated words become label values, two per sample. */
		p = size ? copy + 1 : copy;
		while (p < copy + size) {
			vals[0] = p;
			p += strlen(p) + 1;
			vals[1] = p < copy + size ? p : "";
			p += p < copy + size ? strlen(p) + 1 : 0;
			/* the second scrape retires some (a cgroup, a namespace gone) */
			if (wd_prom_add_retired(&f, (const char *const *)vals,
						(uint64_t)(p - copy) + scrape,
						scrape == 1 && (vals[0][0] & 1)))
				goto out;
		}
		wd_prom_merge(&f);
		if (wd_prom_cap_apply(&cap, &f))
			goto out;
		/* the fold, last, is a counter: it never goes down */
		if (f.n && f.s[f.n - 1].value < fold)
			__builtin_trap();
		fold = f.n ? f.s[f.n - 1].value : fold;
		wd_prom_render_family(&b, &f);
		if (!b.failed && lines(&b) != f.n + 2)
			__builtin_trap();	/* a value broke out of its line */
		wd_prom_buf_free(&b);
		memset(&b, 0, sizeof(b));
		wd_prom_family_clear(&f);
	}
out:
	wd_prom_buf_free(&b);
	wd_prom_family_clear(&f);
	wd_prom_cap_free(&cap);
	free(copy);
	return 0;
}
