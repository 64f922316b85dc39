// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

size_t wd_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, res;
	size_t *row = calloc(lb + 1, sizeof(*row));

	if (!row)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = toupper((unsigned char)a[i - 1]) !=
				      toupper((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	res = row[lb];
	free(row);
	return res;
}

/* A fragment of at least four letters found inside a candidate counts too. */
static int contains_fragment(const char *cand, const char *word)
{
	return strlen(word) >= 4 && strcasestr(cand, word);
}

const char *wd_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t best = (size_t)-1, limit = strlen(word) / 3 + 1, i;
	const char *pick = NULL;

	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		size_t d = wd_edit_distance(word, cands[i]);

		if (d < best) {
			best = d;
			pick = cands[i];
		}
	}
	if (pick && best <= limit)
		return pick;
	for (i = 0; i < n; i++)
		if (contains_fragment(cands[i], word))
			return cands[i];
	return NULL;
}
