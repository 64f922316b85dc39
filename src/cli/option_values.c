// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Option values every command parses the same way: durations ("2.5",
 * "1m", "500ms"), plain decimal numbers, and --group-by's names.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

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
