// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop: why did the kernel drop my packets? */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "output.h"

static int (*const commands[WD_NCMDS])(int argc, char **argv) = {
	[WD_CMD_TOP] = cmd_top,
	[WD_CMD_WATCH] = cmd_watch,
	[WD_CMD_COUNT] = cmd_count,
	[WD_CMD_RECORD] = cmd_record,
	[WD_CMD_SERVE] = cmd_serve,
	[WD_CMD_REASONS] = cmd_reasons,
	[WD_CMD_EXPLAIN] = cmd_explain,
	[WD_CMD_READ] = cmd_read,
};

/* Run the command; then what it printed must have reached standard output. */
static int run(enum wd_cmd cmd, int argc, char **argv)
{
	int status = commands[cmd](argc, argv);

	/* A command that failed has said why; one message is enough. */
	if (status)
		return status;
	return wd_output_check(stdout, wd_cmd_name(cmd));
}

/*
 * whydrop help [COMMAND]; and what `make docs` writes from the option
 * table: help --man (the man page's COMMANDS and OPTIONS), help
 * --bash-completion.
 */
static int help(int argc, char **argv)
{
	enum wd_cmd cmd;

	if (argc < 2) {
		wd_help_main(stdout);
	} else if (argc == 2 && !strcmp(argv[1], "--man")) {
		wd_help_man(stdout);
	} else if (argc == 2 && !strcmp(argv[1], "--bash-completion")) {
		wd_help_completion(stdout);
	} else if (argc == 2 && (cmd = wd_cmd_by_name(argv[1])) != WD_NCMDS) {
		wd_help_command(cmd, stdout);
	} else if (argc == 2) {
		fprintf(stderr, "whydrop help: no command '%s' (`whydrop -h` lists them)\n",
			argv[1]);
		return WD_EXIT_USAGE;
	} else {
		fprintf(stderr, "whydrop help: one command at most (`whydrop help COMMAND`)\n");
		return WD_EXIT_USAGE;
	}
	return wd_output_check(stdout, "help");
}

int main(int argc, char **argv)
{
	static char top_name[] = "top";
	enum wd_cmd cmd;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		wd_help_main(stdout);
		return wd_output_check(stdout, NULL);
	}
	if (argc > 1 && !strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("whydrop %s\n", WHYDROP_VERSION);
		return wd_output_check(stdout, NULL);
	}
	/* No command, or options only: the live table. */
	if (argc < 2 || argv[1][0] == '-') {
		argv[0] = top_name;
		return run(WD_CMD_TOP, argc, argv);
	}
	cmd = wd_cmd_by_name(argv[1]);
	if (cmd != WD_NCMDS)
		return run(cmd, argc - 1, argv + 1);
	/* `whydrop 'udp port 53'`: top's filter, or a misspelt command. */
	wd_cli_guessed(argv[1]);
	argv[0] = top_name;
	return run(WD_CMD_TOP, argc, argv);
}
