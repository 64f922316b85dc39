/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop's command line. One table (option_table.c) holds every option once:
 * its long name, short letter, argument, help and the commands that take
 * it. Every command parses through it (wd_cli_parse); an option that exists
 * but does not apply to the command is refused with one message saying why.
 * Each command's help, the man page's COMMANDS and OPTIONS and the bash
 * completion are made from it (help.c, completion.c; `make docs`).
 */
#ifndef WD_OPTIONS_H
#define WD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "opts.h"

enum wd_cmd {
	WD_CMD_TOP,
	WD_CMD_WATCH,
	WD_CMD_COUNT,
	WD_CMD_RECORD,
	WD_CMD_SERVE,
	WD_CMD_REASONS,
	WD_CMD_EXPLAIN,
	WD_CMD_READ,
	WD_NCMDS,
};

#define WD_CMD_BIT(c)	(1u << (c))

/* A text of an option that differs for some commands (a bit set of them). */
struct wd_opt_note {
	unsigned int cmds;
	const char *text;
};

struct wd_option {
	const char *name;		/* long name, without "--" */
	char letter;			/* short option, 0: none */
	const char *arg;		/* its argument in help, NULL: takes none */
	unsigned int cmds;		/* the commands that take it */
	const char *help;		/* wrapped when printed */
	struct wd_opt_note help_for[4];	/* instead of help, for these commands */
	const char *why;		/* elsewhere: "applies to commands that ..." */
	struct wd_opt_note hint_for[2];	/* added to that refusal for these commands */
	const char *man;		/* more for the man page, NULL: nothing */
	const char *complete;		/* its argument: "WORD WORD...", or @reasons,
					 * @netns, @ifaces, @files; NULL: nothing */
};

#define WD_MAX_OPTIONS	64	/* room in the parser's getopt table */
extern const struct wd_option wd_options[];
extern const size_t wd_n_options;

/* "top"... for a command; wd_cmd_by_name: WD_NCMDS for no command. */
const char *wd_cmd_name(enum wd_cmd cmd);
enum wd_cmd wd_cmd_by_name(const char *name);
/* The help of option opt for cmd (its own text when it has one). */
const char *wd_option_help(const struct wd_option *opt, enum wd_cmd cmd);
/* The next option from *i on that cmd takes (*i moves past it); NULL: no more. */
const struct wd_option *wd_cmd_option_next(enum wd_cmd cmd, size_t *i);

#define WD_SERVE_LISTEN		"127.0.0.1:9464"
#define WD_SERVE_MAX_SERIES	500
#define WD_SERVE_USER		"nobody"
#define WD_SERVE_SERIES_GRACE	300.0
#define WD_EXPLAIN_INTERVAL	1.0

enum wd_doc { WD_DOC_NONE, WD_DOC_MARKDOWN, WD_DOC_MAN };

/* What the command line asks for: the session's options and each command's own. */
struct wd_cli {
	enum wd_cmd cmd;
	struct wd_opts o;
	/* record */
	const char *write;	/* -w FILE, "-": standard output */
	uint64_t packets;	/* -c, 0: no limit */
	uint32_t snaplen;	/* -s; 0 (the whole packet) is made WD_SNAPLEN_MAX */
	uint64_t file_size;	/* -C, in bytes; 0: none */
	uint32_t rotate_s;	/* -G, 0: none */
	uint32_t filecount;	/* -W, 0: none */
	/* serve */
	const char *listen;
	uint32_t max_series;
	bool per_if, per_netns, per_cgroup, per_container;
	double series_grace;	/* --series-grace, seconds */
	const char *user;
	/* count */
	const char *svg;	/* --svg FILE: the flame graph */
	struct wd_check check;	/* --fail-on */
	bool has_check;
	/* explain */
	double interval;	/* --interval */
	bool all, callsites;
	enum wd_doc doc;
	/* read */
	bool lines;		/* --lines: a line per packet */
	bool has_since, has_until;
	uint64_t since_ns, until_ns;	/* --since, --until: wall clock */
	/* the words after the options: REASON... (explain), FILE... (read) */
	char **words;
	int n_words;
};

/*
 * Parse argv (argv[0]: the command's name) for cmd. 0, or -1 with *status
 * 0 after -h printed the help, or 2 after one message on stderr.
 */
int wd_cli_parse(enum wd_cmd cmd, int argc, char **argv, struct wd_cli *c, int *status);
void wd_cli_free(struct wd_cli *c);
/*
 * main: the first word, which is no command, starts top's EXPRESSION
 * (`whydrop 'udp port 53'`). If the words do not make a filter expression,
 * top is not run: the word was a misspelt command, said with the closest one.
 */
void wd_cli_guessed(const char *word);

/*
 * What a duration option takes: from min_ns to max_ns (too_long says the
 * latter in words), 0 too when zero_ok, whole seconds only when whole_s.
 */
struct wd_span_limits {
	uint64_t min_ns, max_ns;
	const char *too_long;	/* "longer than 365 days" */
	bool zero_ok, whole_s;
};

extern const struct wd_span_limits wd_duration_limits;	/* -d */
extern const struct wd_span_limits wd_interval_limits;	/* explain --interval */
extern const struct wd_span_limits wd_rotate_limits;	/* record -G */
extern const struct wd_span_limits wd_grace_limits;	/* serve --series-grace */

/*
 * A time span as duration.h reads it ("10", "2.5", "90s", "1.5m", "1h30m",
 * "500ms") within l, in seconds: NULL, else why it is refused.
 */
const char *wd_parse_duration(const char *s, const struct wd_span_limits *l, double *out);
/* A decimal number from min to max, the whole string, no sign: 0 or -1. */
int wd_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out);
/* --group-by WHO: netns, interface, cgroup or process; 0 or -1. */
int wd_parse_group_by(const char *s, enum wd_group_by *out);
/* "netns", "interface", "cgroup", "process"; "none" for WD_GROUP_NONE. */
const char *wd_group_by_name(enum wd_group_by by);

/* help.c, completion.c: what is printed from the table. */
void wd_help_main(FILE *f);
void wd_help_command(enum wd_cmd cmd, FILE *f);
/* The man page's part between its GENERATED OPTIONS markers. */
void wd_help_man(FILE *f);
/* contrib/whydrop.bash-completion */
void wd_help_completion(FILE *f);

#endif /* WD_OPTIONS_H */
