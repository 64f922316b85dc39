// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Time spans (duration.h): parsed digit by digit into nanoseconds, never
 * through strtod(3), so that "0x10", "1e3", "-5", "inf" and "nan" are no
 * spans and "0.001" is exactly a millisecond.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "duration.h"

#define SEC_NS	1000000000ULL

static const struct {
	const char *name;
	uint64_t ns;
} units[] = {
	{ "ms", WD_MSEC_NS }, { "msec", WD_MSEC_NS },
	{ "s", SEC_NS }, { "sec", SEC_NS }, { "second", SEC_NS }, { "seconds", SEC_NS },
	{ "m", 60 * SEC_NS }, { "min", 60 * SEC_NS }, { "minute", 60 * SEC_NS },
	{ "minutes", 60 * SEC_NS },
	{ "h", 3600 * SEC_NS }, { "hr", 3600 * SEC_NS }, { "hour", 3600 * SEC_NS },
	{ "hours", 3600 * SEC_NS },
	{ "d", 86400 * SEC_NS }, { "day", 86400 * SEC_NS }, { "days", 86400 * SEC_NS },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A number: digits, or digits '.' digits with digits on one side at least. */
struct number {
	uint64_t whole;
	uint64_t frac;		/* the fraction in units of 1e-9 */
};

static int parse_number(const char **p, struct number *n)
{
	const char *s = *p;
	uint64_t scale = SEC_NS / 10;
	bool digits = false;

	n->whole = n->frac = 0;
	for (; is_digit(*s); s++, digits = true)
		if (__builtin_mul_overflow(n->whole, 10, &n->whole) ||
		    __builtin_add_overflow(n->whole, (uint64_t)(*s - '0'), &n->whole))
			return -ERANGE;
	if (*s == '.') {
		for (s++; is_digit(*s); s++, digits = true) {
			n->frac += (uint64_t)(*s - '0') * scale;
			scale /= 10;
		}
	}
	if (!digits)
		return -EINVAL;
	*p = s;
	return 0;
}

/* The unit at *p (lower-case letters), its length in *len; 0: none there. */
static uint64_t parse_unit(const char *p, size_t *len)
{
	*len = strspn(p, "abcdefghijklmnopqrstuvwxyz");
	for (size_t i = 0; *len && i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == *len && !strncmp(units[i].name, p, *len))
			return units[i].ns;
	return 0;
}

/* n units of ns each, added to *total. */
static int add_part(const struct number *n, uint64_t unit, uint64_t *total)
{
	unsigned __int128 frac = (unsigned __int128)n->frac * unit / SEC_NS;
	uint64_t whole;

	if (__builtin_mul_overflow(n->whole, unit, &whole) ||
	    __builtin_add_overflow(*total, whole, total) ||
	    __builtin_add_overflow(*total, (uint64_t)frac, total))
		return -ERANGE;
	return 0;
}

int wd_duration_parse(const char *s, uint64_t *ns)
{
	uint64_t total = 0, unit;
	struct number n;
	size_t len;
	int parts = 0, err;

	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		if (parts)
			s += strspn(s, " ");	/* "1h 30min" */
		err = parse_number(&s, &n);
		if (err)
			return err;
		unit = parse_unit(s, &len);
		/* a bare number is seconds, alone: "1h30" says nothing clear */
		if (!len && !*s && !parts)
			unit = SEC_NS;
		else if (!unit)
			return -EINVAL;
		s += len;
		err = add_part(&n, unit, &total);
		if (err)
			return err;
		parts++;
	}
	*ns = total;
	return 0;
}

uint32_t wd_kernel_hz(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) || res.tv_sec || !res.tv_nsec ||
	    1000000000L % res.tv_nsec)
		return 0;
	return (uint32_t)(1000000000L / res.tv_nsec);
}
