/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Options shared by the live commands (top, watch, count). */
#ifndef WD_OPTIONS_H
#define WD_OPTIONS_H

#include <stdbool.h>
#include <getopt.h>
#include <stdint.h>

#define WD_DEFAULT_RATE		10000	/* detail records per second */
#define WD_DEFAULT_MAP_SIZE	10240	/* distinct counting keys */

struct wd_opts {
	const char *cmd;
	const char *reasons;	/* -r: comma-separated names */
	const char *netns;	/* --netns NAME|PATH */
	const char *ifname;	/* -i */
	double duration;	/* -d seconds, 0 = until Ctrl-C */
	uint32_t rate;		/* --rate detail records/s */
	uint32_t map_size;	/* --map-size */
	bool json;
	bool explain;		/* --explain: full entry of each reason seen, on exit */
	bool verbose;
	bool rate_set;		/* --rate given explicitly */
	bool counters_only;	/* --counters-only (top, count): no BPF, kernel counters */
	char *filter;		/* trailing pcap-filter expression, NULL if none */
};

/*
 * Options of one command beyond the common ones: extra getopt_long entries
 * (values >= WD_OPT_EXTRA) and a handler returning 0, or -1 after printing
 * a usage message.
 */
#define WD_OPT_EXTRA 512

struct wd_extra_opts {
	const char *shortopts;		/* e.g. "w:c:s:" */
	const struct option *longopts;	/* NULL-terminated */
	int (*handle)(int c, const char *arg, void *ctx);
	void *ctx;
};

/* Status codes: 0 ok, 1 runtime failure, 2 usage error. */
#define WD_EXIT_USAGE 2

/*
 * Parse argv (argv[0] is the subcommand). Prints help and returns -1 with
 * *status 0 for -h, or -1 with *status 2 after a usage message.
 */
int wd_parse_opts(int argc, char **argv, struct wd_opts *o, const char *usage, int *status);
int wd_parse_opts_extra(int argc, char **argv, struct wd_opts *o, const char *usage,
			const struct wd_extra_opts *extra, int *status);
void wd_opts_free(struct wd_opts *o);
/* Strictly positive number of seconds, "5", "2.5", "1m", "500ms". */
int wd_parse_duration(const char *s, double *out);

#endif /* WD_OPTIONS_H */
