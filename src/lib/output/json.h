/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A small streaming JSON writer: commas and escaping handled here only. */
#ifndef WD_JSON_H
#define WD_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WD_JSON_MAX_DEPTH 16

struct wd_json {
	FILE *f;
	int depth;
	bool need_comma[WD_JSON_MAX_DEPTH];
};

void wd_json_init(struct wd_json *j, FILE *f);
/* key is NULL inside arrays and for the top level. */
void wd_json_open(struct wd_json *j, const char *key, char bracket);
void wd_json_close(struct wd_json *j, char bracket);
void wd_json_str(struct wd_json *j, const char *key, const char *val);
void wd_json_uint(struct wd_json *j, const char *key, uint64_t val);
void wd_json_int(struct wd_json *j, const char *key, int64_t val);
void wd_json_double(struct wd_json *j, const char *key, double val, int decimals);
void wd_json_bool(struct wd_json *j, const char *key, bool val);
/* Fields that are left out when unknown or none: a NULL string, a 0, a false
 * flag (the flag is written only as true). */
void wd_json_str_opt(struct wd_json *j, const char *key, const char *val);
void wd_json_uint_opt(struct wd_json *j, const char *key, uint64_t val);
void wd_json_flag(struct wd_json *j, const char *key, bool set);
/* An array of the strings of a NULL-terminated list; NULL or empty: []. */
void wd_json_strv(struct wd_json *j, const char *key, const char *const *v);
/* An array of the n strings of v. */
void wd_json_strn(struct wd_json *j, const char *key, const char *const *v, size_t n);
/* Write s as a quoted, escaped JSON string. */
void wd_json_escape(FILE *f, const char *s);

#endif /* WD_JSON_H */
