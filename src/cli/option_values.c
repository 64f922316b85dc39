// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Option values every command parses the same way: durations ("2.5",
 * "90s", "1h30m", "500ms"), plain decimal numbers, and --group-by's names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "options.h"

#define SEC_NS	(1000 * WD_MSEC_NS)

/* Loops wake to the millisecond (runtime.h, wd_wait_ms): nothing shorter. */
const struct wd_span_limits wd_duration_limits = {
	.min_ns = WD_MSEC_NS, .max_ns = 365 * 86400 * SEC_NS,
	.too_long = "longer than 365 days",
};

const struct wd_span_limits wd_interval_limits = {
	.min_ns = WD_MSEC_NS, .max_ns = 3600 * SEC_NS, .zero_ok = true,
	.too_long = "longer than an hour",
};

const struct wd_span_limits wd_rotate_limits = {
	.min_ns = SEC_NS, .max_ns = UINT32_MAX * SEC_NS, .whole_s = true,
	.too_long = "longer than 4294967295 seconds",
};

/* serve --series-grace: how long a gone cgroup's or namespace's series stays */
const struct wd_span_limits wd_grace_limits = {
	.min_ns = WD_MSEC_NS, .max_ns = 365 * 86400 * SEC_NS, .zero_ok = true,
	.too_long = "longer than 365 days",
};

const char *wd_parse_duration(const char *s, const struct wd_span_limits *l, double *out)
{
	uint64_t ns;
	int err = wd_duration_parse(s, &ns);

	if (err == -EINVAL)
		return "give seconds (10, 2.5) or numbers with units (500ms, 90s, 1.5m, 1h30m, "
		       "1d); no sign, hex or exponent";
	if (err || ns > l->max_ns)
		return l->too_long;
	if (l->whole_s && ns % SEC_NS)
		return "whole seconds only (60, 10m, 1h)";
	if (ns < l->min_ns && !(l->zero_ok && !ns))
		return l->min_ns == SEC_NS ? "shorter than a second" :
		       !ns ? "0 is no time: give 1ms or more" :
		       "shorter than 1 ms, the finest whydrop keeps time to";
	*out = (double)ns / SEC_NS;
	return NULL;
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

static const char *const group_by_names[] = {
	[WD_GROUP_NONE] = "none", [WD_GROUP_NETNS] = "netns", [WD_GROUP_INTERFACE] = "interface",
	[WD_GROUP_CGROUP] = "cgroup", [WD_GROUP_PROCESS] = "process",
	[WD_GROUP_CONTAINER] = "container", [WD_GROUP_POD] = "pod", [WD_GROUP_FLOW] = "flow",
	[WD_GROUP_SRC] = "src", [WD_GROUP_DST] = "dst", [WD_GROUP_HOST] = "host",
};

const char *wd_group_by_name(enum wd_group_by by)
{
	if ((size_t)by >= sizeof(group_by_names) / sizeof(group_by_names[0]))
		return "none";
	return group_by_names[by];
}

int wd_parse_group_by(const char *s, enum wd_group_by *out)
{
	for (size_t i = WD_GROUP_NETNS; i <= WD_GROUP_LAST; i++) {
		if (!strcmp(s, group_by_names[i])) {
			*out = (enum wd_group_by)i;
			return 0;
		}
	}
	return -1;
}
