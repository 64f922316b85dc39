/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A point in time as `read --since/--until` take it: an RFC 3339 time
 * ("2026-12-06T09:30:00Z", "2026-12-06 10:30:00.25+01:00"), or a span
 * before now as duration.h reads it ("10m", "1h30m", "90s").
 */
#ifndef WD_WHEN_H
#define WD_WHEN_H

#include <stdint.h>

/*
 * s as nanoseconds since the epoch in *ns, now_ns being the wall clock
 * now. 0, or -EINVAL when s is neither (a bad date, no zone, junk after),
 * -ERANGE when it is before 1970 or past what 64 bits of ns hold.
 */
int wd_when_parse(const char *s, uint64_t now_ns, uint64_t *ns);

#endif /* WD_WHEN_H */
