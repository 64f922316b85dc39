// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Time spans as -d, --interval and -G take them (src/lib/base/duration.c). */
#include <errno.h>

#include "duration.h"
#include "unit.h"

#define MS	1000000ULL
#define S	(1000 * MS)

#define accepted(s, want)	unit_accepts(wd_duration_parse, s, want)
#define refused(s, want)	unit_refuses(wd_duration_parse, s, want)

/* What systemd.time(7) and sleep(1) users write. */
static void test_spans(void)
{
	accepted("10", 10 * S);
	accepted("2.5", 2500 * MS);
	accepted(".5", 500 * MS);
	accepted("0", 0);			/* a span; the option says if 0 is allowed */
	accepted("90s", 90 * S);
	accepted("1.5m", 90 * S);
	accepted("500ms", 500 * MS);
	accepted("0.05", 50 * MS);
	accepted("0.001", MS);			/* exactly, no float rounding */
	accepted("1h30m", 5400 * S);
	accepted("1h 30min", 5400 * S);
	accepted("2m30s", 150 * S);
	accepted("1m 500ms", 60500 * MS);
	accepted("1d", 86400 * S);
}

static void test_unit_names(void)
{
	accepted("3sec", 3 * S);
	accepted("3second", 3 * S);
	accepted("3seconds", 3 * S);
	accepted("2min", 120 * S);
	accepted("2minutes", 120 * S);
	accepted("1hr", 3600 * S);
	accepted("1hour", 3600 * S);
	accepted("2hours", 7200 * S);
	accepted("2days", 2 * 86400 * S);
	accepted("250msec", 250 * MS);
	accepted("0.0000000019s", 1);		/* past the nanosecond: ignored */
}

/* strtod(3) takes all of these; a user never means them as a duration. */
static void test_refused(void)
{
	refused("", -EINVAL);
	refused("0x10", -EINVAL);
	refused("1e3", -EINVAL);
	refused("1E3", -EINVAL);
	refused("-5", -EINVAL);
	refused("+5", -EINVAL);
	refused("nan", -EINVAL);
	refused("inf", -EINVAL);
	refused("infinity", -EINVAL);
	refused("5x", -EINVAL);
	refused("5 s", -EINVAL);		/* a unit sticks to its number */
	refused(" 5", -EINVAL);
	refused("5s ", -EINVAL);
	refused("1h30", -EINVAL);		/* a bare number only alone */
	refused("1.2.3", -EINVAL);
	refused(".", -EINVAL);
	refused("s", -EINVAL);
	refused("1M", -EINVAL);			/* systemd's month; not ours */
	refused("1us", -EINVAL);
	refused("99999999999999999999", -ERANGE);
	refused("300000d", -ERANGE);		/* past 2^64 ns */
}

UNIT_MAIN(test_spans, test_unit_names, test_refused)
