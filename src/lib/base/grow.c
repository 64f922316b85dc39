// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int wd_grow(void *arrp, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t ncap;
	void *old, *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : first;
	/* arrp points to a pointer of any object type: copied, not dereferenced as void * */
	memcpy(&old, arrp, sizeof(old));
	p = realloc(old, ncap * size);
	if (!p)
		return -ENOMEM;
	memcpy(arrp, &p, sizeof(p));
	*cap = ncap;
	return 0;
}
