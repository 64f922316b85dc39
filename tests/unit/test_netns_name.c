// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --netns NAME still named so? (netns.c, wd_netns_name_*), on plain files. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "netns.h"
#include "unit.h"

static void test_name_changes(void)
{
	char dir[] = "/tmp/wd-nsname-XXXXXX", path[64], other[64];
	struct wd_netns_name n;
	FILE *f;

	if (!mkdtemp(dir)) {
		UNIT_RECORD(false, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/blue", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	CHECK_INT(wd_netns_name_init(&n, path), 0);
	CHECK_INT(wd_netns_name_check(&n), WD_NETNS_SAME);
	CHECK_INT(wd_netns_name_check(&n), WD_NETNS_SAME);
	unlink(path);					/* ip netns del */
	CHECK_INT(wd_netns_name_check(&n), WD_NETNS_GONE);
	CHECK_INT(wd_netns_name_check(&n), WD_NETNS_SAME);	/* said once */

	f = fopen(path, "w");
	if (f)
		fclose(f);
	CHECK_INT(wd_netns_name_init(&n, path), 0);
	f = fopen(other, "w");
	if (f)
		fclose(f);
	CHECK_INT(rename(other, path), 0);		/* another one under the name */
	CHECK_INT(wd_netns_name_check(&n), WD_NETNS_OTHER);
	CHECK_INT(wd_netns_name_check(&n), WD_NETNS_SAME);
	unlink(path);
	rmdir(dir);

	CHECK_INT(wd_netns_name_init(&n, "/nonexistent/netns"), -1);
	CHECK_INT(wd_netns_name_check(&n), WD_NETNS_SAME);	/* nothing to watch */
}

UNIT_MAIN(test_name_changes)
