// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The reason filter and the rate limit of records in user space; see sampling.h. */
#include "sampling.h"

bool wd_rate_allow(struct wd_rate *r, double now)
{
	if (!r->per_s)
		return true;	/* --rate 0 is no limit, as on the BPF path */
	if (now - r->window_start >= 1) {
		r->window_start = now;
		r->used = 0;
	}
	if (r->used >= r->per_s) {
		r->limited++;
		return false;
	}
	r->used++;
	return true;
}
