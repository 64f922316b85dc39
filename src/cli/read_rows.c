// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop read: the drops of a recording counted by (reason, location), as
 * count does; --group-by is the engine of count and top (groups.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"

/* ---- drops by (reason, location), as count ---- */

static uint32_t row_hash(const void *p)
{
	const struct read_row *r = p;

	return wd_table_hash_field(wd_table_hash_field(r->m.has_reason ? 1u : 2u, r->m.reason,
						       strlen(r->m.reason)),
				   r->m.location, strlen(r->m.location));
}

static bool same_row(const void *a, const void *b)
{
	const struct read_row *x = a, *y = b;

	return x->m.has_reason == y->m.has_reason && !strcmp(x->m.reason, y->m.reason) &&
	       !strcmp(x->m.location, y->m.location);
}

void wd_read_table_init(struct wd_read_table *drops)
{
	*drops = (struct wd_read_table){ .size = sizeof(struct read_row), .hash = row_hash,
				 .same = same_row };
}

int wd_read_add_drop(struct wd_read_table *t, const struct wd_pcapng_meta *m)
{
	struct read_row key = { .m = *m }, *r = wd_table_get(t, &key);

	if (!r)
		return -ENOMEM;
	r->count++;
	return 0;
}
