// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Well-formed UTF-8 as in RFC 3629: no overlongs, surrogates or values past U+10FFFF. */
#include "utf8.h"

static int cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t wd_utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* past U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!cont(s[i]))
			return 0;
	return n;
}
