// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop: why did the kernel drop my packets? */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "output.h"

static const char usage[] =
"Usage: whydrop [COMMAND] [OPTIONS]\n"
"Why the Linux kernel drops packets, live, from the skb:kfree_skb tracepoint.\n"
"\n"
"Commands:\n"
"  top                  live table of drops by reason and location (default)\n"
"  watch                one line per dropped packet; --json for JSON Lines\n"
"  count -d SECONDS     count for a while, print a table; --json for one document\n"
"  reasons              the drop reasons this kernel knows; --json\n"
"  explain REASON       what a reason means, what to check, live counters\n"
"  record -w FILE       dropped packets to pcapng, reason and location as comments\n"
"  read FILE            summarise a recording like count does; --json\n"
"  serve                Prometheus metrics on http://127.0.0.1:9464/metrics\n"
"\n"
"Common options: -r/--reason NAME[,NAME...]  --netns NAME|PATH  -i/--interface IFNAME\n"
"`whydrop COMMAND -h` shows each command's options and examples.\n"
"\n"
"Examples:\n"
"  sudo whydrop                          # live table\n"
"  sudo whydrop watch -r NO_SOCKET       # every packet dropped for lack of a socket\n"
"  sudo whydrop count -d 10 --json       # ten seconds of exact counts as JSON\n"
"  whydrop explain SOCKET_RCVBUFF        # what it means and what to do\n";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "top", cmd_top },
	{ "watch", cmd_watch },
	{ "count", cmd_count },
	{ "reasons", cmd_reasons },
	{ "explain", cmd_explain },
	{ "record", cmd_record },
	{ "read", cmd_read },
	{ "serve", cmd_serve },
};

/* Run the command; then what it printed must have reached standard output. */
static int run(const char *name, int (*fn)(int, char **), int argc, char **argv)
{
	int status = fn(argc, argv);

	/* A command that failed has said why; one message is enough. */
	if (status)
		return status;
	return wd_output_check(stdout, name);
}

int main(int argc, char **argv)
{
	static char top_name[] = "top";

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "help"))) {
		fputs(usage, stdout);
		return wd_output_check(stdout, NULL);
	}
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("whydrop %s\n", WHYDROP_VERSION);
		return wd_output_check(stdout, NULL);
	}
	/* No command, or options only: the live table. */
	if (argc < 2 || argv[1][0] == '-') {
		argv[0] = top_name;
		return run("top", cmd_top, argc, argv);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return run(commands[i].name, commands[i].fn, argc - 1, argv + 1);
	fprintf(stderr, "whydrop: unknown command '%s' (`whydrop -h` lists them)\n", argv[1]);
	return 2;
}
