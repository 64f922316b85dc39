// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Placeholder until the catalogue lands (issue 4). */
#include <stdio.h>

#include "commands.h"

int cmd_explain(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "whydrop explain: not available yet\n");
	return 1;
}
