// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the /proc/kallsyms parser and the address lookup. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"

#include "ksym.h"

static void fuzz_one(char *text, size_t size)
{
	static const uint64_t probes[] = {
		0, 1, 0xffffffff81000000ULL, 0xffffffff82094f49ULL, UINT64_MAX,
	};
	struct wd_ksyms k;
	char buf[128];

	(void)size;
	if (wd_ksyms_parse(&k, text))
		return;
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		wd_ksym_format(&k, probes[i], i & 1, buf, sizeof(buf));
	for (size_t i = 0; i < k.n; i++)
		wd_ksym_format(&k, k.v[i].addr + 1, true, buf, sizeof(buf));
	wd_ksyms_free(&k);
}

FUZZ_TEXT(fuzz_one)
