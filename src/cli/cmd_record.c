// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Placeholder until issue 5 lands. */
#include <stdio.h>

#include "commands.h"

int cmd_record(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "whydrop record: not available yet\n");
	return 1;
}
