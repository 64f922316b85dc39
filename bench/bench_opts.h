/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The options of the benchmark helpers (storm, startup, churn): a table of
 * letter -> variable, parsed with getopt, so each helper lists its options
 * once instead of writing its own switch.
 */
#ifndef WHYDROP_BENCH_OPTS_H
#define WHYDROP_BENCH_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum bench_opt_type {
	BENCH_INT,	/* int, atoi() */
	BENCH_LONG,	/* long, atol() */
	BENCH_DOUBLE,	/* double, atof() */
	BENCH_STR,	/* const char *, the argument itself */
	BENCH_FLAG,	/* bool, set to true; no argument */
};

struct bench_opt {
	char letter;
	enum bench_opt_type type;
	void *dst;
};

static inline void bench_opt_set(const struct bench_opt *o, const char *arg)
{
	switch (o->type) {
	case BENCH_INT:
		*(int *)o->dst = atoi(arg);
		break;
	case BENCH_LONG:
		*(long *)o->dst = atol(arg);
		break;
	case BENCH_DOUBLE:
		*(double *)o->dst = atof(arg);
		break;
	case BENCH_STR:
		*(const char **)o->dst = arg;
		break;
	case BENCH_FLAG:
		*(bool *)o->dst = true;
		break;
	}
}

/*
 * Parse @argv with getopt's @optstring into the @n entries of @opts.
 * Returns -1 when every option is taken (optind at the first operand);
 * else what main() returns: 0 after -h (@usage on stdout; only where
 * @optstring has h), 2 after an option not in the table (@usage on stderr).
 */
static inline int bench_getopt(int argc, char **argv, const char *optstring,
			       const struct bench_opt *opts, size_t n,
			       void (*usage)(FILE *f, const char *prog))
{
	int c;

	while ((c = getopt(argc, argv, optstring)) != -1) {
		size_t i;

		if (c == 'h') {
			usage(stdout, argv[0]);
			return 0;
		}
		for (i = 0; i < n && opts[i].letter != c; i++)
			;
		if (i == n) {
			usage(stderr, argv[0]);
			return 2;
		}
		bench_opt_set(&opts[i], optarg);
	}
	return -1;
}

#define BENCH_NOPTS(opts) (sizeof(opts) / sizeof((opts)[0]))

#endif /* WHYDROP_BENCH_OPTS_H */
