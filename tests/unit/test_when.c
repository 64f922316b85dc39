// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Points in time as read --since/--until take them (src/lib/base/when.c). */
#include <errno.h>

#include "when.h"
#include "unit.h"

#define S	1000000000ULL
#define NOW	(1800000000ULL * S)	/* 2027-01-15T08:00:00Z */

static int parse_at_now(const char *s, uint64_t *ns)
{
	return wd_when_parse(s, NOW, ns);
}

#define accepted(s, want)	unit_accepts(parse_at_now, s, want)
#define refused(s, want)	unit_refuses(parse_at_now, s, want)

/* date -u -d 2026-12-06T09:30:00Z +%s: 1796549400 */
static void test_rfc3339(void)
{
	accepted("2026-12-06T09:30:00Z", 1796549400 * S);
	accepted("2026-12-06t09:30:00z", 1796549400 * S);
	accepted("2026-12-06 09:30:00Z", 1796549400 * S);
	accepted("2026-12-06T10:30:00+01:00", 1796549400 * S);
	accepted("2026-12-06T04:00:00-05:30", 1796549400 * S);
	accepted("2026-12-06T09:30:00.25Z", 1796549400 * S + 250000000);
	accepted("2026-12-06T09:30:00.123456789Z", 1796549400 * S + 123456789);
	accepted("2026-12-06T09:30:00.1234567891Z", 1796549400 * S + 123456789);
	accepted("1970-01-01T00:00:00Z", 0);
	accepted("2024-02-29T00:00:00Z", 1709164800 * S);	/* a leap day */
}

static void test_relative(void)
{
	accepted("10m", NOW - 600 * S);
	accepted("1h30m", NOW - 5400 * S);
	accepted("0", NOW);
	accepted("2.5", NOW - 2500000000ULL);
}

static void test_refused(void)
{
	refused("", -EINVAL);
	refused("2026-12-06", -EINVAL);			/* no time */
	refused("2026-12-06T09:30:00", -EINVAL);	/* no zone: whose 09:30? */
	refused("2026-12-06T09:30Z", -EINVAL);
	refused("2026-12-06T09:30:00.Z", -EINVAL);
	refused("2026-12-06T09:30:00Zjunk", -EINVAL);
	refused("2026-12-06T09:30:00+0100", -EINVAL);
	refused("2026-02-30T00:00:00Z", -EINVAL);	/* no such day */
	refused("2025-02-29T00:00:00Z", -EINVAL);
	refused("2026-13-01T00:00:00Z", -EINVAL);
	refused("2026-12-06T24:00:00Z", -EINVAL);
	refused("2026-12-06T09:60:00Z", -EINVAL);
	refused("1969-12-31T23:59:59Z", -ERANGE);
	refused("-10m", -EINVAL);
	refused("10x", -EINVAL);
	refused("yesterday", -EINVAL);
	refused("100000d", -ERANGE);			/* before 1970 */
}

UNIT_MAIN(test_rfc3339, test_relative, test_refused)
