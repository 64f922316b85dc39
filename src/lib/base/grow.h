/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Arrays that grow one element at a time, their room doubled when full. */
#ifndef WD_GROW_H
#define WD_GROW_H

#include <stddef.h>

/*
 * Room for element n of *arrp, an array of elements of size bytes with
 * room for *cap of them: once n reaches *cap, the room becomes twice as
 * much (first, when there was none). 0, or -ENOMEM with the array and
 * *cap as they were.
 */
int wd_grow(void *arrp, size_t *cap, size_t n, size_t size, size_t first);

#endif /* WD_GROW_H */
