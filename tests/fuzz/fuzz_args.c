// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz command-line parsing: NUL-separated words become argv. A first word
 * that names a command parses as that command, else as count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	enum wd_cmd cmd;
	struct wd_cli c;
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
	cmd = wd_cmd_by_name(argv[1]);
	if (cmd == WD_NCMDS)
		cmd = WD_CMD_COUNT;
	else
		argv[0] = argv[1];
	if (!wd_cli_parse(cmd, argc - (argv[0] == argv[1]), argv + (argv[0] == argv[1]), &c,
			  &status))
		wd_cli_free(&c);
	free(buf);
	return 0;
}
