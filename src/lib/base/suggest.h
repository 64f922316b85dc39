/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* "Did you mean ...?" for misspelt names. */
#ifndef WD_SUGGEST_H
#define WD_SUGGEST_H

#include <stddef.h>

/* Case-insensitive edit distance between a and b. */
size_t wd_edit_distance(const char *a, const char *b);
/*
 * The candidate closest to word, or NULL when none is close enough to be a
 * plausible typo (or a plausible fragment, like "rcvbuf").
 */
const char *wd_suggest(const char *word, const char *const *cands, size_t n);

#endif /* WD_SUGGEST_H */
