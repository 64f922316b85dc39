/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Text from outside (interface names are any bytes but '/', ':' and blanks)
 * must still make valid JSON and Prometheus exposition, which are UTF-8.
 */
#ifndef WD_UTF8_H
#define WD_UTF8_H

#include <stddef.h>

#define WD_UTF8_REPLACEMENT	"\xef\xbf\xbd"	/* U+FFFD */

/* Length of the well-formed UTF-8 sequence at s (1..4), 0 if none starts there. */
size_t wd_utf8_len(const char *s);

#endif /* WD_UTF8_H */
