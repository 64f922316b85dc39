// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum { OPT_NETNS = 256, OPT_RATE, OPT_MAP_SIZE, OPT_EXPLAIN, OPT_JSON, OPT_COUNTERS_ONLY,
       OPT_SOURCE, OPT_DROPMON_MODE, OPT_DROPMON_QUEUE,
       OPT_STACKS, OPT_FOLDED, OPT_HIDE, OPT_SHOW_ALL, OPT_NOISE_FILE, OPT_STACK_MAP,
       OPT_GROUP_BY, OPT_MAX_GROUPS };

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
	{ "source",	required_argument, NULL, OPT_SOURCE },
	{ "dropmon-mode", required_argument, NULL, OPT_DROPMON_MODE },
	{ "dropmon-queue", required_argument, NULL, OPT_DROPMON_QUEUE },
	{ "stacks",	no_argument,	   NULL, OPT_STACKS },
	{ "folded",	no_argument,	   NULL, OPT_FOLDED },
	{ "stack-map-size", required_argument, NULL, OPT_STACK_MAP },
	{ "hide",	required_argument, NULL, OPT_HIDE },
	{ "show-all",	no_argument,	   NULL, OPT_SHOW_ALL },
	{ "noise-file",	required_argument, NULL, OPT_NOISE_FILE },
	{ "group-by",	required_argument, NULL, OPT_GROUP_BY },
	{ "processes",	no_argument,	   NULL, 'p' },
	{ "max-groups",	required_argument, NULL, OPT_MAX_GROUPS },
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

int wd_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (end == s || *end || errno || s[0] == '-' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_u32(const char *s, uint32_t min, uint32_t *out)
{
	unsigned long v;

	if (wd_parse_ulong(s, min, UINT32_MAX, &v))
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

static bool cmd_is(const struct wd_opts *o, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(o->cmd, *names))
			return true;
	return false;
}

/* --stacks, --folded and the noise options go with some commands only. */
static int check_stacks_noise(const struct wd_opts *o, int *status)
{
	static const char *const stack_cmds[] = { "top", "watch", "count", "record", NULL };
	static const char *const noise_cmds[] = { "top", "count", NULL };

	if (o->stacks && !cmd_is(o, stack_cmds))
		return usage_error(o, status, "%s works with top, watch, count and record",
				   "--stacks");
	if (o->stack_map_set && !o->stacks)
		return usage_error(o, status, "%s goes with --stacks", "--stack-map-size");
	if (o->folded && (strcmp(o->cmd, "count") || !o->stacks))
		return usage_error(o, status, "%s goes with `whydrop count --stacks`", "--folded");
	if (o->folded && (o->json || o->explain))
		return usage_error(o, status, "%s prints only folded lines: leave out --json "
				   "and --explain", "--folded");
	if ((o->n_hide || o->show_all || o->noise_file) && !cmd_is(o, noise_cmds))
		return usage_error(o, status, "%s hide expected drops in top and count only",
				   "--hide, --show-all and --noise-file");
	if (o->stacks && o->counters_only)
		return usage_error(o, status, "%s traces drops: it does not go with --counters-only",
				   "--stacks");
	return 0;
}

static const char *const group_by_names[] = {
	[WD_GROUP_NONE] = "none", [WD_GROUP_NETNS] = "netns", [WD_GROUP_INTERFACE] = "interface",
	[WD_GROUP_CGROUP] = "cgroup", [WD_GROUP_PROCESS] = "process",
};

const char *wd_group_by_name(enum wd_group_by by)
{
	if ((size_t)by >= sizeof(group_by_names) / sizeof(group_by_names[0]))
		return "none";
	return group_by_names[by];
}

int wd_parse_group_by(const char *s, enum wd_group_by *out)
{
	for (size_t i = WD_GROUP_NETNS; i < sizeof(group_by_names) / sizeof(group_by_names[0]); i++) {
		if (!strcmp(s, group_by_names[i])) {
			*out = (enum wd_group_by)i;
			return 0;
		}
	}
	return -1;
}

/* Grouping is a table of count and top; --counters-only has no drops to group. */
static int check_group_by(const struct wd_opts *o, int *status)
{
	if (strcmp(o->cmd, "top") && strcmp(o->cmd, "count"))
		return usage_error(o, status, "%s only works with `whydrop top` and "
				   "`whydrop count`", "--group-by");
	if (o->counters_only)
		return usage_error(o, status, "%s needs traced drops: not with --counters-only",
				   "--group-by");
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
	o->dropmon_queue = WD_DEFAULT_DM_QUEUE;
	o->stack_map_size = WD_STACK_MAP_ENTRIES;
	o->max_groups = WD_DEFAULT_MAX_GROUPS;
	*status = 1;
	if (!opts)
		return -1;
	snprintf(shortopts, sizeof(shortopts), ":r:i:d:pvh%s",
		 extra && extra->shortopts ? extra->shortopts : "");
	optind = 0;	/* 0, not 1: also resets glibc's scan state */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			/* -r '' would select nothing and count nothing, silently */
			if (!optarg[strspn(optarg, ", ")])
				goto bad_reasons;
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
		case OPT_SOURCE:
			if (!strcmp(optarg, "auto"))
				o->source = WD_SOURCE_AUTO;
			else if (!strcmp(optarg, "bpf"))
				o->source = WD_SOURCE_BPF;
			else if (!strcmp(optarg, "dropmon"))
				o->source = WD_SOURCE_DROPMON;
			else
				goto bad_source;
			break;
		case OPT_DROPMON_MODE:
			if (strcmp(optarg, "packet") && strcmp(optarg, "summary"))
				goto bad_dropmon_mode;
			o->dropmon_summary = !strcmp(optarg, "summary");
			o->dropmon_mode_set = true;
			break;
		case OPT_DROPMON_QUEUE:
			if (parse_u32(optarg, 1, &o->dropmon_queue) || o->dropmon_queue > (1u << 20))
				goto bad_dropmon_queue;
			o->dropmon_mode_set = true;
			break;
		case OPT_STACKS:
			o->stacks = true;
			break;
		case OPT_FOLDED:
			o->folded = true;
			break;
		case OPT_STACK_MAP:
			if (parse_u32(optarg, 1, &o->stack_map_size) ||
			    o->stack_map_size > (1u << 20))
				goto bad_stack_map;
			o->stack_map_set = true;
			break;
		case OPT_HIDE:
			if (o->n_hide == WD_MAX_HIDE) {
				usage_error(o, status, "at most 64 --hide options (a --noise-file "
					    "holds more)%s", "");
				goto out;
			}
			o->hide[o->n_hide++] = optarg;
			break;
		case OPT_SHOW_ALL:
			o->show_all = true;
			break;
		case OPT_NOISE_FILE:
			o->noise_file = optarg;
			break;
		case OPT_GROUP_BY:
			if (wd_parse_group_by(optarg, &o->group_by))
				goto bad_group_by;
			break;
		case OPT_MAX_GROUPS:
			if (parse_u32(optarg, 1, &o->max_groups) || o->max_groups > 10000)
				goto bad_max_groups;
			break;
		case 'p':
			o->processes = true;
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
	if (o->dropmon_mode_set && o->source != WD_SOURCE_DROPMON) {
		usage_error(o, status, "%s only apply with --source dropmon",
			    "--dropmon-mode and --dropmon-queue");
		goto out;
	}
	if (check_stacks_noise(o, status))
		goto out;
	if (o->group_by && check_group_by(o, status))
		goto out;
	if (o->group_by == WD_GROUP_PROCESS)
		o->processes = true;
	ret = 0;
	*status = 0;
	goto out;
bad_duration:
	usage_error(o, status, "bad duration '%s': give seconds, e.g. -d 5, -d 2.5, -d 500ms, -d 1m",
		    optarg);
	goto out;
bad_reasons:
	usage_error(o, status, "-r '%s' names no reason: give names or numbers as "
		    "`whydrop reasons` prints them, e.g. -r NO_SOCKET,TCP_CSUM", optarg);
	goto out;
bad_rate:
	usage_error(o, status, "bad --rate '%s': records per second, 0 for no limit", optarg);
	goto out;
bad_source:
	usage_error(o, status, "bad --source '%s': auto (BPF, else drop_monitor), bpf or dropmon",
		    optarg);
	goto out;
bad_dropmon_mode:
	usage_error(o, status, "bad --dropmon-mode '%s': packet (reasons, packets) or summary "
		    "(counts by location)", optarg);
	goto out;
bad_dropmon_queue:
	usage_error(o, status, "bad --dropmon-queue '%s': 1 to 1048576 packets per CPU", optarg);
	goto out;
bad_map_size:
	usage_error(o, status, "bad --map-size '%s': 1 to 16777216 keys", optarg);
	goto out;
bad_stack_map:
	usage_error(o, status, "bad --stack-map-size '%s': 1 to 1048576 stacks", optarg);
	goto out;
bad_group_by:
	usage_error(o, status, "bad --group-by '%s': netns, interface, cgroup or process", optarg);
	goto out;
bad_max_groups:
	usage_error(o, status, "bad --max-groups '%s': 1 to 10000 rows", optarg);
out:
	if (ret)
		wd_opts_free(o);
	free(opts);
	return ret;
}
