// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the parser of nft's listings (nftrules.c): the text of
 * `nft -a -s list table`, then after a NUL byte the JSON of `nft -j`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"

#include "nftrules.h"

static void fuzz_one(char *text, size_t size)
{
	char *json = memchr(text, '\0', size) ? text + strlen(text) + 1 : NULL;
	struct wd_nft_rule_entry *v;
	size_t n;

	if (!wd_nft_rules_parse(text, json, &v, &n))
		wd_nft_rules_entries_free(v, n);
	wd_nft_name_listable(text);
}

FUZZ_TEXT(fuzz_one)
