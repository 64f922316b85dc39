/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Minimal assertions for the unit tests; main() ends with "N passed, N failed". */
#ifndef WD_UNIT_H
#define WD_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_passed, unit_failed;

#define UNIT_RECORD(ok, fmt, ...) do {						\
	if (ok) {								\
		unit_passed++;							\
	} else {								\
		unit_failed++;							\
		fprintf(stderr, "FAIL %s:%d: " fmt "\n", __FILE__, __LINE__,	\
			##__VA_ARGS__);						\
	}									\
} while (0)

#define CHECK(cond) UNIT_RECORD((cond), "%s", #cond)
#define CHECK_INT(a, b) do {							\
	long long _a = (long long)(a), _b = (long long)(b);			\
	UNIT_RECORD(_a == _b, "%s == %s (%lld != %lld)", #a, #b, _a, _b);	\
} while (0)
#define CHECK_STR(a, b) do {							\
	const char *_a = (a), *_b = (b);					\
	UNIT_RECORD(_a && _b && !strcmp(_a, _b), "%s == %s (\"%s\" != \"%s\")",	\
		    #a, #b, _a ? _a : "(null)", _b ? _b : "(null)");		\
} while (0)

#define UNIT_MAIN(...)								\
int main(void)									\
{										\
	void (*tests[])(void) = { __VA_ARGS__ };				\
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)		\
		tests[i]();							\
	printf("%d passed, %d failed\n", unit_passed, unit_failed);		\
	return unit_failed ? 1 : 0;						\
}

/*
 * A memory stream for what the code under test writes: unit_stream_open()
 * gives the FILE, unit_stream_text() closes it and returns the text (the
 * caller frees it).
 */
struct unit_stream {
	FILE *f;
	char *buf;
	size_t len;
};

static inline FILE *unit_stream_open(struct unit_stream *s)
{
	s->buf = NULL;
	s->len = 0;
	s->f = open_memstream(&s->buf, &s->len);
	return s->f;
}

static inline char *unit_stream_text(struct unit_stream *s)
{
	fclose(s->f);
	return s->buf;
}

/* Read a whole fixture file; the caller frees. */
static inline char *unit_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/*
 * A parser of text into nanoseconds (or any u64), checked both ways:
 * unit_accepts() wants 0 and @want, unit_refuses() wants error @want and
 * the output untouched.
 */
typedef int (*unit_u64_parse)(const char *s, uint64_t *out);

static inline void unit_accepts(unit_u64_parse parse, const char *s, uint64_t want)
{
	uint64_t v = 0;
	int err = parse(s, &v);

	UNIT_RECORD(!err && v == want, "'%s': err %d, %" PRIu64 ", want %" PRIu64,
		    s, err, v, want);
}

static inline void unit_refuses(unit_u64_parse parse, const char *s, int want)
{
	uint64_t v = 12345;
	int err = parse(s, &v);

	UNIT_RECORD(err == want && v == 12345, "'%s': err %d (want %d), %" PRIu64,
		    s, err, want, v);
}

#endif /* WD_UNIT_H */
