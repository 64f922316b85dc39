// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The commands' side of src/lib/base/safe_open.c (record -w, count --svg): the
 * refusal said once, named after the command; tests/integration/record_safety.sh.
 */
#include <limits.h>
#include <stdio.h>

#include "cli_open.h"
#include "safe_open.h"

int wd_open_checked(const char *cmd, const char *path, struct stat *st, bool *created)
{
	char err[PATH_MAX + 200];
	int fd = wd_open_for_writing(path, st, created, err, sizeof(err));

	if (fd < 0)
		fprintf(stderr, "whydrop %s: %s\n", cmd, err);
	return fd;
}
