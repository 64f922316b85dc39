/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What `whydrop explain` shows of a catalogue entry (test_catalogue,
 * test_rst_catalogue): ENTRY_TEXT(print, json_fields, a, b) is the text
 * print() writes for entry @a followed by the JSON object json_fields()
 * writes for entry @b; the caller frees it.  CHECK_ENTRY_TEXT(print,
 * json_fields, a, b, start, parts...) checks that text starts with @start
 * and holds each of @parts.
 */
#ifndef WD_UNIT_ENTRY_TEXT_H
#define WD_UNIT_ENTRY_TEXT_H

#include "json.h"
#include "unit.h"

#define ENTRY_TEXT(print, json_fields, a, b) ({					\
	struct unit_stream _s;							\
	FILE *_f = unit_stream_open(&_s);					\
	struct wd_json _j;							\
										\
	print(_f, a);								\
	wd_json_init(&_j, _f);							\
	wd_json_open(&_j, NULL, '{');						\
	json_fields(&_j, b);							\
	wd_json_close(&_j, '}');						\
	unit_stream_text(&_s);							\
})

/* @buf starts with @start and holds each part of the NULL-terminated @parts; freed. */
static inline void entry_text_has(char *buf, const char *start, const char *const *parts)
{
	UNIT_RECORD(buf && strstr(buf, start) == buf, "does not start with \"%s\": %s", start,
		    buf ? buf : "(null)");
	for (; *parts; parts++)
		UNIT_RECORD(buf && strstr(buf, *parts), "lacks \"%s\": %s", *parts,
			    buf ? buf : "(null)");
	free(buf);
}

#define CHECK_ENTRY_TEXT(print, json_fields, a, b, start, ...)			\
	entry_text_has(ENTRY_TEXT(print, json_fields, a, b), start,		\
		       (const char *const[]){ __VA_ARGS__, NULL })

#endif /* WD_UNIT_ENTRY_TEXT_H */
