// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz the /proc/net/stat/nf_conntrack parser and the explanation of two reads. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conntrack_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct wd_ct_stats a = { 0 }, b = { 0 };
	struct wd_ct_cause c;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!wd_ct_stats_parse(text, &b)) {
		b.has_count = b.has_max = true;
		b.count = b.v[WD_CT_ENTRIES];
		b.max = b.v[WD_CT_DROP];
		wd_ct_explain(&a, &b, &c);
		wd_ct_explain(&b, &a, &c);
	}
	free(text);
	return 0;
}
