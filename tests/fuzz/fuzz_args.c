// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fuzz command-line parsing: NUL-separated words become argv. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	struct wd_opts o;
	int argc = 1, status;
	size_t i;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "count";
	argv[argc++] = buf;
	for (i = 0; i < size && argc < MAX_ARGS; i++)
		if (!buf[i])
			argv[argc++] = buf + i + 1;
	argv[argc] = NULL;
	if (!wd_parse_opts(argc, argv, &o, "usage\n", &status))
		wd_opts_free(&o);
	free(buf);
	return 0;
}
