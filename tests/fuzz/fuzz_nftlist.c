// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the parser of nft's listings (nftrules.c): the text of
 * `nft -a -s list table`, then after a NUL byte the JSON of `nft -j`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nftrules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *json;
	struct wd_nft_rule_entry *v;
	size_t n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	json = memchr(text, '\0', size) ? text + strlen(text) + 1 : NULL;
	if (!wd_nft_rules_parse(text, json, &v, &n))
		wd_nft_rules_entries_free(v, n);
	wd_nft_name_listable(text);
	free(text);
	return 0;
}
