/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Between the parser (options.c) and its checks after the options
 * (option_checks.c) only: the parse in progress and its one message.
 */
#ifndef WD_OPTION_CHECKS_H
#define WD_OPTION_CHECKS_H

#include <stdbool.h>

#include "options.h"

struct parse {
	struct wd_cli *c;
	const char *cmd;		/* as printed in messages */
	char **argv;
	const struct wd_option *opt;	/* the option being parsed */
	bool as_short;			/* ... written as its letter */
	char spelled[64];		/* "-i (--interface)" or "--interface" */
	const struct wd_option *refused;	/* a guessed top: said after the guess */
	char refused_as[64];
};

/* "whydrop CMD: what\n(`whydrop CMD -h` for help)" on stderr; -1. */
int wd_opt_usage(const struct parse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The words after the options: the filter expression joined, read's FILEs
 * split from it; then the options that only make sense together. 0, or -1
 * after one message.
 */
int wd_opt_check_words(struct parse *p);
int wd_opt_check_live(const struct parse *p);

#endif /* WD_OPTION_CHECKS_H */
