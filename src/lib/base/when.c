// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Points in time (when.h): RFC 3339 parsed field by field (no strptime(3):
 * it takes locale forms and ignores what follows), or now minus a span.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "duration.h"
#include "when.h"

#define SEC_NS	1000000000ULL

/* Exactly n digits at *p, moved past them. */
static bool digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		char c = (*p)[i];

		if (c < '0' || c > '9')
			return false;
		v = v * 10 + (c - '0');
	}
	*p += n;
	*out = v;
	return true;
}

static bool expect(const char **p, const char *any)
{
	if (!**p || !strchr(any, **p))
		return false;
	(*p)++;
	return true;
}

/* ".123456789": the fraction in ns (digits past the ns ignored). */
static uint64_t fraction(const char **p, bool *ok)
{
	uint64_t ns = 0, scale = SEC_NS / 10;
	int n = 0;

	if (**p != '.')
		return 0;
	for ((*p)++; **p >= '0' && **p <= '9'; (*p)++, n++) {
		ns += (uint64_t)(**p - '0') * scale;
		scale /= 10;
	}
	*ok = n > 0;
	return ns;
}

/* "Z" or "+hh:mm" / "-hh:mm": the offset east of UTC in seconds. */
static bool zone(const char **p, long *off)
{
	int h, m, sign;

	if (**p == 'Z' || **p == 'z') {
		(*p)++;
		*off = 0;
		return true;
	}
	if (**p != '+' && **p != '-')
		return false;
	sign = **p == '-' ? -1 : 1;
	(*p)++;
	if (!digits(p, 2, &h) || !expect(p, ":") || !digits(p, 2, &m) || h > 23 || m > 59)
		return false;
	*off = sign * (h * 3600L + m * 60L);
	return true;
}

static int rfc3339(const char *s, uint64_t *ns)
{
	struct tm tm = { 0 }, back;
	const char *p = s;
	uint64_t frac;
	bool ok = true;
	time_t t;
	long off;

	if (!digits(&p, 4, &tm.tm_year) || !expect(&p, "-") || !digits(&p, 2, &tm.tm_mon) ||
	    !expect(&p, "-") || !digits(&p, 2, &tm.tm_mday) || !expect(&p, "Tt ") ||
	    !digits(&p, 2, &tm.tm_hour) || !expect(&p, ":") || !digits(&p, 2, &tm.tm_min) ||
	    !expect(&p, ":") || !digits(&p, 2, &tm.tm_sec))
		return -EINVAL;
	frac = fraction(&p, &ok);
	if (!ok || !zone(&p, &off) || *p)
		return -EINVAL;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	back = tm;
	t = timegm(&tm);
	/* timegm normalises 02-30 to 03-02: a date that moved did not exist */
	if (tm.tm_mday != back.tm_mday || tm.tm_mon != back.tm_mon ||
	    tm.tm_hour != back.tm_hour || tm.tm_min != back.tm_min || tm.tm_sec != back.tm_sec)
		return -EINVAL;
	t -= off;
	if (t < 0)
		return -ERANGE;
	if ((uint64_t)t > (UINT64_MAX - frac) / SEC_NS)
		return -ERANGE;
	*ns = (uint64_t)t * SEC_NS + frac;
	return 0;
}

int wd_when_parse(const char *s, uint64_t now_ns, uint64_t *ns)
{
	uint64_t span;
	int err;

	if (strlen(s) >= 10 && s[4] == '-')
		return rfc3339(s, ns);
	err = wd_duration_parse(s, &span);
	if (err)
		return err;
	if (span > now_ns)
		return -ERANGE;
	*ns = now_ns - span;
	return 0;
}
