// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the /proc/net/stat/nf_conntrack parser and the explanation of two reads. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"

#include "conntrack_stats.h"

static void fuzz_one(char *text, size_t size)
{
	struct wd_ct_stats a = { 0 }, b = { 0 };
	struct wd_ct_cause c;

	(void)size;
	if (wd_ct_stats_parse(text, &b))
		return;
	b.has_count = b.has_max = true;
	b.count = b.v[WD_CT_ENTRIES];
	b.max = b.v[WD_CT_DROP];
	wd_ct_explain(&a, &b, &c);
	wd_ct_explain(&b, &a, &c);
}

FUZZ_TEXT(fuzz_one)
