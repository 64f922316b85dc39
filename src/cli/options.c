// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum { OPT_NETNS = 256, OPT_RATE, OPT_MAP_SIZE, OPT_EXPLAIN, OPT_JSON, OPT_COUNTERS_ONLY };

static const struct option long_opts[] = {
	{ "reason",	required_argument, NULL, 'r' },
	{ "netns",	required_argument, NULL, OPT_NETNS },
	{ "interface",	required_argument, NULL, 'i' },
	{ "duration",	required_argument, NULL, 'd' },
	{ "rate",	required_argument, NULL, OPT_RATE },
	{ "map-size",	required_argument, NULL, OPT_MAP_SIZE },
	{ "json",	no_argument,	   NULL, OPT_JSON },
	{ "explain",	no_argument,	   NULL, OPT_EXPLAIN },
	{ "counters-only", no_argument,	   NULL, OPT_COUNTERS_ONLY },
	{ "verbose",	no_argument,	   NULL, 'v' },
	{ "help",	no_argument,	   NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int wd_parse_duration(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return -1;
	if (!strcmp(end, "ms"))
		v /= 1000;
	else if (!strcmp(end, "m"))
		v *= 60;
	else if (!strcmp(end, "h"))
		v *= 3600;
	else if (*end && strcmp(end, "s"))
		return -1;
	if (v <= 0 || v > 365 * 86400.0)
		return -1;
	*out = v;
	return 0;
}

static int parse_u32(const char *s, uint32_t min, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (end == s || *end || errno || v > UINT32_MAX || v < min || s[0] == '-')
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int usage_error(const struct wd_opts *o, int *status, const char *fmt, const char *arg)
{
	fprintf(stderr, "whydrop %s: ", o->cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(`whydrop %s -h` for help)\n", o->cmd);
	*status = WD_EXIT_USAGE;
	return -1;
}

/* Common long options followed by the command's own. */
static struct option *merge_longopts(const struct wd_extra_opts *extra)
{
	size_t n = sizeof(long_opts) / sizeof(long_opts[0]) - 1, m = 0;
	struct option *all;

	while (extra && extra->longopts && extra->longopts[m].name)
		m++;
	all = calloc(n + m + 1, sizeof(*all));
	if (!all)
		return NULL;
	memcpy(all, long_opts, n * sizeof(*all));
	if (m)
		memcpy(all + n, extra->longopts, m * sizeof(*all));
	return all;
}

/* The trailing words form one pcap-filter expression, as with tcpdump. */
static int join_filter(int argc, char **argv, struct wd_opts *o)
{
	size_t len = 1;

	for (int i = optind; i < argc; i++)
		len += strlen(argv[i]) + 1;
	o->filter = calloc(1, len);
	if (!o->filter)
		return -1;
	for (int i = optind; i < argc; i++) {
		if (i > optind)
			strcat(o->filter, " ");
		strcat(o->filter, argv[i]);
	}
	return 0;
}

/* --counters-only traces nothing: only top and count, and no filters. */
static int check_counters_only(const struct wd_opts *o, int *status)
{
	const char *what = NULL;

	if (strcmp(o->cmd, "top") && strcmp(o->cmd, "count"))
		return usage_error(o, status, "%s only works with `whydrop top` and "
				   "`whydrop count`", "--counters-only");
	if (o->reasons)
		what = "-r";
	else if (o->ifname)
		what = "-i";
	else if (o->filter)
		what = "a filter expression";
	else if (o->explain)
		what = "--explain";
	if (what)
		return usage_error(o, status, "--counters-only reads the kernel's counters and "
				   "traces nothing, so %s does not apply (only --netns, -d, --json do)",
				   what);
	return 0;
}

static bool is_extra(const struct wd_extra_opts *extra, int c)
{
	if (!extra || !extra->handle || c == '?')
		return false;
	return c >= WD_OPT_EXTRA ||
	       (extra->shortopts && c < 128 && strchr(extra->shortopts, c));
}

int wd_parse_opts(int argc, char **argv, struct wd_opts *o, const char *usage, int *status)
{
	return wd_parse_opts_extra(argc, argv, o, usage, NULL, status);
}

void wd_opts_free(struct wd_opts *o)
{
	free(o->filter);
	o->filter = NULL;
}

int wd_parse_opts_extra(int argc, char **argv, struct wd_opts *o, const char *usage,
			const struct wd_extra_opts *extra, int *status)
{
	struct option *opts = merge_longopts(extra);
	char shortopts[64];
	int c, ret = -1;

	memset(o, 0, sizeof(*o));
	o->cmd = argv[0];
	o->rate = WD_DEFAULT_RATE;
	o->map_size = WD_DEFAULT_MAP_SIZE;
	*status = 1;
	if (!opts)
		return -1;
	snprintf(shortopts, sizeof(shortopts), ":r:i:d:vh%s",
		 extra && extra->shortopts ? extra->shortopts : "");
	optind = 0;	/* 0, not 1: also resets glibc's scan state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o->reasons = optarg;
			break;
		case OPT_NETNS:
			o->netns = optarg;
			break;
		case 'i':
			o->ifname = optarg;
			break;
		case 'd':
			if (wd_parse_duration(optarg, &o->duration))
				goto bad_duration;
			break;
		case OPT_RATE:
			if (parse_u32(optarg, 0, &o->rate))
				goto bad_rate;
			o->rate_set = true;
			break;
		case OPT_MAP_SIZE:
			if (parse_u32(optarg, 1, &o->map_size) || o->map_size > (1u << 24))
				goto bad_map_size;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_EXPLAIN:
			o->explain = true;
			break;
		case OPT_COUNTERS_ONLY:
			o->counters_only = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(usage, stdout);
			*status = 0;
			goto out;
		case ':':
			usage_error(o, status, "option '%s' needs a value", argv[optind - 1]);
			goto out;
		default:
			if (!is_extra(extra, c)) {
				usage_error(o, status, "unknown option '%s'", argv[optind - 1]);
				goto out;
			}
			if (extra->handle(c, optarg, extra->ctx)) {
				*status = WD_EXIT_USAGE;
				goto out;
			}
		}
	}
	if (optind < argc && join_filter(argc, argv, o))
		goto out;
	if (o->counters_only && check_counters_only(o, status))
		goto out;
	ret = 0;
	*status = 0;
	goto out;
bad_duration:
	usage_error(o, status, "bad duration '%s': give seconds, e.g. -d 5, -d 2.5, -d 500ms, -d 1m",
		    optarg);
	goto out;
bad_rate:
	usage_error(o, status, "bad --rate '%s': detail records per second, 0 to disable", optarg);
	goto out;
bad_map_size:
	usage_error(o, status, "bad --map-size '%s': 1 to 16777216 keys", optarg);
out:
	if (ret)
		wd_opts_free(o);
	free(opts);
	return ret;
}
