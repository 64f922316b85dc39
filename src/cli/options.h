/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Parsing the options shared by the live commands (src/core/opts.h) and their own. */
#ifndef WD_OPTIONS_H
#define WD_OPTIONS_H

#include <stdbool.h>
#include <getopt.h>
#include <stdint.h>

#include "opts.h"

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

/*
 * Parse argv (argv[0] is the subcommand). Prints help and returns -1 with
 * *status 0 for -h, or -1 with *status 2 after a usage message.
 */
int wd_parse_opts(int argc, char **argv, struct wd_opts *o, const char *usage, int *status);
int wd_parse_opts_extra(int argc, char **argv, struct wd_opts *o, const char *usage,
			const struct wd_extra_opts *extra, int *status);
void wd_opts_free(struct wd_opts *o);

/* The help of --source, --dropmon-mode and --dropmon-queue, in each live command's. */
#define WD_USAGE_SOURCE \
"      --source S       bpf, dropmon (drop_monitor, no BPF; docs/dropmon.md),\n" \
"                       or auto: BPF, else drop_monitor (default)\n" \
"      --dropmon-mode M packet (reasons, packets) or summary (by location only)\n" \
"      --dropmon-queue N  drop_monitor's per-CPU queue, in packets (1000)\n"
/* Strictly positive number of seconds, "5", "2.5", "1m", "500ms". */
int wd_parse_duration(const char *s, double *out);
/* A decimal number from min to max, the whole string, no sign: 0 or -1. */
int wd_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);
/* --group-by WHO: netns, interface, cgroup or process; 0 or -1. */
int wd_parse_group_by(const char *s, enum wd_group_by *out);
/* "netns", "interface", "cgroup", "process"; "none" for WD_GROUP_NONE. */
const char *wd_group_by_name(enum wd_group_by by);

#endif /* WD_OPTIONS_H */
