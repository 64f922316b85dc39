// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The parser every command goes through, over the one option table
 * (option_table.c). An option is known to every command; one that does not
 * apply to the command is refused with one message naming the command and
 * why.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "noise.h"
#include "option_checks.h"
#include "options.h"
#include "pcapfilter.h"
#include "pcapng_write.h"
#include "suggest.h"
#include "when.h"

static const char *const cmd_names[WD_NCMDS] = {
	[WD_CMD_TOP] = "top", [WD_CMD_WATCH] = "watch", [WD_CMD_COUNT] = "count",
	[WD_CMD_RECORD] = "record", [WD_CMD_SERVE] = "serve", [WD_CMD_REASONS] = "reasons",
	[WD_CMD_EXPLAIN] = "explain", [WD_CMD_READ] = "read",
};

const char *wd_cmd_name(enum wd_cmd cmd)
{
	return (unsigned int)cmd < WD_NCMDS ? cmd_names[cmd] : "?";
}

enum wd_cmd wd_cmd_by_name(const char *name)
{
	for (int i = 0; i < WD_NCMDS; i++)
		if (!strcmp(name, cmd_names[i]))
			return (enum wd_cmd)i;
	return WD_NCMDS;
}

const char *wd_option_help(const struct wd_option *opt, enum wd_cmd cmd)
{
	for (size_t i = 0; i < sizeof(opt->help_for) / sizeof(opt->help_for[0]); i++)
		if (opt->help_for[i].cmds & WD_CMD_BIT(cmd))
			return opt->help_for[i].text;
	return opt->help;
}

const struct wd_option *wd_cmd_option_next(enum wd_cmd cmd, size_t *i)
{
	while (*i < wd_n_options) {
		const struct wd_option *o = &wd_options[(*i)++];

		if (o->cmds & WD_CMD_BIT(cmd))
			return o;
	}
	return NULL;
}

/* ------------------------------------------------------------ values */

static int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	unsigned long v;

	if (wd_parse_ulong(s, min, max, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* ------------------------------------------------------------ parser */

static const char *guessed_word;

void wd_cli_guessed(const char *word)
{
	guessed_word = word;
}

int wd_opt_usage(const struct parse *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "whydrop %s: ", p->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(`whydrop %s -h` for help)\n", p->cmd);
	return -1;
}

/* "bad --rate 'lots': WANT", the option as it was written (-s, --snaplen) */
static int bad_value(const struct parse *p, const char *arg, const char *want)
{
	if (p->as_short)
		return wd_opt_usage(p, "bad -%c '%s': %s", p->opt->letter, arg, want);
	return wd_opt_usage(p, "bad --%s '%s': %s", p->opt->name, arg, want);
}

/* A time span within l: 0, or -1 after saying what it must be. */
static int parse_span(const struct parse *p, const char *arg, const struct wd_span_limits *l,
		      double *out)
{
	const char *why = wd_parse_duration(arg, l, out);

	return why ? bad_value(p, arg, why) : 0;
}

static void spell(const struct wd_option *o, bool as_short, char *buf, size_t len)
{
	if (as_short)
		snprintf(buf, len, "-%c (--%s)", o->letter, o->name);
	else
		snprintf(buf, len, "--%s", o->name);
}

/* "top, count" for a set of commands */
static void cmd_list(unsigned int cmds, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < WD_NCMDS && off < len; i++)
		if (cmds & WD_CMD_BIT(i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						cmd_names[i]);
}

/* "whydrop count: --rate applies to commands that print records (watch, record)" */
static int refuse(const struct parse *p, const struct wd_option *o, const char *spelled)
{
	enum wd_cmd cmd = p->c->cmd;
	const char *hint = NULL;
	char list[128];

	for (size_t i = 0; i < sizeof(o->hint_for) / sizeof(o->hint_for[0]); i++)
		if (o->hint_for[i].cmds & WD_CMD_BIT(cmd))
			hint = o->hint_for[i].text;
	cmd_list(o->cmds, list, sizeof(list));
	return wd_opt_usage(p, "%s %s (%s)%s%s", spelled, o->why, list, hint ? "; " : "",
			    hint ? hint : "");
}

/* The options of the session, shared by the live commands. */
static int parse_session_opt(struct parse *p, const char *arg)
{
	struct wd_opts *o = &p->c->o;
	const char *name = p->opt->name, *why;

	if (!strcmp(name, "reason")) {
		/* -r '' would select nothing and count nothing, silently */
		if (!arg[strspn(arg, ", ")])
			return wd_opt_usage(p, "-r '%s' names no reason: give names or "
					    "numbers as `whydrop reasons` prints them, e.g. -r "
					    "NO_SOCKET,TCP_CSUM", arg);
		o->reasons = arg;
	} else if (!strcmp(name, "duration")) {
		why = wd_parse_duration(arg, &wd_duration_limits, &o->duration);
		if (why)
			return wd_opt_usage(p, "bad duration '%s': %s", arg, why);
	} else if (!strcmp(name, "rate")) {
		if (parse_u32(arg, 0, UINT32_MAX, &o->rate))
			return bad_value(p, arg, "records per second, 0 for no limit");
		o->rate_set = true;
	} else if (!strcmp(name, "map-size")) {
		if (parse_u32(arg, 1, 1u << 24, &o->map_size))
			return bad_value(p, arg, "1 to 16777216 keys");
	} else if (!strcmp(name, "source")) {
		if (!strcmp(arg, "auto"))
			o->source = WD_SOURCE_AUTO;
		else if (!strcmp(arg, "bpf"))
			o->source = WD_SOURCE_BPF;
		else if (!strcmp(arg, "dropmon"))
			o->source = WD_SOURCE_DROPMON;
		else
			return bad_value(p, arg, "auto (BPF, else drop_monitor), bpf or dropmon");
	} else if (!strcmp(name, "dropmon-mode")) {
		if (strcmp(arg, "packet") && strcmp(arg, "summary"))
			return bad_value(p, arg, "packet (reasons, packets) or summary (counts by "
					 "location)");
		o->dropmon_summary = !strcmp(arg, "summary");
		o->dropmon_mode_set = true;
	} else if (!strcmp(name, "dropmon-queue")) {
		if (parse_u32(arg, 1, 1u << 20, &o->dropmon_queue))
			return bad_value(p, arg, "1 to 1048576 packets per CPU");
		o->dropmon_mode_set = true;
	} else if (!strcmp(name, "stack-map-size")) {
		if (parse_u32(arg, 1, 1u << 20, &o->stack_map_size))
			return bad_value(p, arg, "1 to 1048576 stacks");
		o->stack_map_set = true;
	} else if (!strcmp(name, "hide")) {
		if (o->n_hide == WD_MAX_HIDE)
			return wd_opt_usage(p, "at most %d --hide options (a --noise-file "
					    "holds more)", WD_MAX_HIDE);
		o->hide[o->n_hide++] = arg;
	} else if (!strcmp(name, "group-by")) {
		if (wd_parse_group_by(arg, &o->group_by))
			return bad_value(p, arg, "netns, interface, cgroup, process, container, pod, "
					 "flow, src, dst or host");
	} else if (!strcmp(name, "max-groups")) {
		if (parse_u32(arg, 1, 10000, &o->max_groups))
			return bad_value(p, arg, "1 to 10000 rows");
	} else {
		return 1;	/* not one of these */
	}
	return 0;
}

/*
 * The options that only set a field of struct wd_cli: a flag to true, an
 * option with an argument to the argument as it is.
 */
static int parse_field(struct parse *p, const char *arg)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		/* the session's */
		{ "json", offsetof(struct wd_cli, o.json) },
		{ "verbose", offsetof(struct wd_cli, o.verbose) },
		{ "explain", offsetof(struct wd_cli, o.explain) },
		{ "counters-only", offsetof(struct wd_cli, o.counters_only) },
		{ "processes", offsetof(struct wd_cli, o.processes) },
		{ "stacks", offsetof(struct wd_cli, o.stacks) },
		{ "rules", offsetof(struct wd_cli, o.rules) },
		{ "tcp", offsetof(struct wd_cli, o.tcp) },
		{ "folded", offsetof(struct wd_cli, o.folded) },
		{ "show-all", offsetof(struct wd_cli, o.show_all) },
		{ "netns-names", offsetof(struct wd_cli, o.netns_names) },
		{ "netns", offsetof(struct wd_cli, o.netns) },
		{ "interface", offsetof(struct wd_cli, o.ifname) },
		{ "noise-file", offsetof(struct wd_cli, o.noise_file) },
		{ "host-root", offsetof(struct wd_cli, o.host_root) },
		{ "docker-root", offsetof(struct wd_cli, o.docker_root) },
		/* the command's own */
		{ "per-interface", offsetof(struct wd_cli, per_if) },
		{ "per-netns", offsetof(struct wd_cli, per_netns) },
		{ "per-cgroup", offsetof(struct wd_cli, per_cgroup) },
		{ "per-container", offsetof(struct wd_cli, per_container) },
		{ "all", offsetof(struct wd_cli, all) },
		{ "callsites", offsetof(struct wd_cli, callsites) },
		{ "lines", offsetof(struct wd_cli, lines) },
		{ "write", offsetof(struct wd_cli, write) },
		{ "listen", offsetof(struct wd_cli, listen) },
		{ "user", offsetof(struct wd_cli, user) },
		{ "svg", offsetof(struct wd_cli, svg) },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char *field = (char *)p->c + fields[i].off;

		if (strcmp(p->opt->name, fields[i].name))
			continue;
		if (p->opt->arg)
			*(const char **)field = arg;
		else
			*(bool *)field = true;
		return 0;
	}
	return 1;
}

/* The flags that choose among values. */
static int parse_flag(struct parse *p)
{
	struct wd_cli *c = p->c;
	const char *name = p->opt->name;

	if (!strcmp(name, "markdown"))
		c->doc = WD_DOC_MARKDOWN;
	else if (!strcmp(name, "man"))
		c->doc = WD_DOC_MAN;
	else
		return 1;
	return 0;
}

/* read --since/--until TIME: RFC 3339, or a span before now. */
static int parse_when(struct parse *p, const char *arg)
{
	bool since = !strcmp(p->opt->name, "since");
	struct timespec now;
	uint64_t ns;
	int err;

	clock_gettime(CLOCK_REALTIME, &now);
	err = wd_when_parse(arg, (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec,
			    &ns);
	if (err)
		return bad_value(p, arg, err == -ERANGE ? "a time from 1970 on" :
				 "an RFC 3339 time with its zone (2026-12-06T09:30:00Z, "
				 "2026-12-06T10:30:00+01:00) or a span before now (10m, 1h30m)");
	if (since) {
		p->c->since_ns = ns;
		p->c->has_since = true;
	} else {
		p->c->until_ns = ns;
		p->c->has_until = true;
	}
	return 0;
}

/* record's, serve's and explain's options with a value. */
static int parse_own_opt(struct parse *p, const char *arg)
{
	struct wd_cli *c = p->c;
	char letter = p->opt->letter;
	const char *name = p->opt->name;
	unsigned long v;
	double secs;

	switch (letter) {
	case 'c':
		if (wd_parse_ulong(arg, 1, ULONG_MAX, &v))
			return bad_value(p, arg, "a number of packets, 1 or more");
		c->packets = v;
		return 0;
	case 's':
		/* tcpdump's: 0 is the whole packet, which is its largest snaplen */
		if (wd_parse_ulong(arg, 0, WD_SNAPLEN_MAX, &v))
			return bad_value(p, arg, "0 (the whole packet) or 1 to 262144 bytes per "
					 "packet");
		c->snaplen = v ? (uint32_t)v : WD_SNAPLEN_MAX;
		return 0;
	case 'C':
		if (wd_pcapng_parse_file_size(arg, &c->file_size))
			return bad_value(p, arg, "a file size in millions of bytes, 1 or more, or "
					 "with a k, m or g suffix (KiB, MiB, GiB)");
		return 0;
	case 'G':
		if (parse_span(p, arg, &wd_rotate_limits, &secs))
			return -1;
		c->rotate_s = (uint32_t)secs;
		return 0;
	case 'W':
		if (parse_u32(arg, 1, INT_MAX, &c->filecount))
			return bad_value(p, arg, "a number of files, 1 or more");
		return 0;
	}
	if (!strcmp(name, "max-series")) {
		if (parse_u32(arg, 1, 1000000, &c->max_series))
			return bad_value(p, arg, "1 to 1000000 series");
	} else if (!strcmp(name, "series-grace")) {
		return parse_span(p, arg, &wd_grace_limits, &c->series_grace);
	} else if (!strcmp(name, "fail-on")) {
		char err[512];

		if (wd_check_parse(arg, &c->check, err, sizeof(err)))
			return wd_opt_usage(p, "%s", err);
		c->has_check = true;
	} else if (!strcmp(name, "since") || !strcmp(name, "until")) {
		return parse_when(p, arg);
	} else if (!strcmp(name, "interval")) {
		return parse_span(p, arg, &wd_interval_limits, &c->interval);
	} else {
		return 1;
	}
	return 0;
}

static int parse_one(struct parse *p, const char *arg)
{
	int r;

	if (!(p->opt->cmds & WD_CMD_BIT(p->c->cmd))) {
		if (guessed_word && !p->refused) {
			/* said once the guess is known right: it may be a misspelt command */
			p->refused = p->opt;
			snprintf(p->refused_as, sizeof(p->refused_as), "%s", p->spelled);
			return 0;
		}
		if (guessed_word)
			return 0;
		return refuse(p, p->opt, p->spelled);
	}
	r = parse_field(p, arg);
	if (r > 0)
		r = p->opt->arg ? parse_session_opt(p, arg) : parse_flag(p);
	if (r > 0 && p->opt->arg)
		r = parse_own_opt(p, arg);
	if (r > 0)
		return wd_opt_usage(p, "%s: not handled (a bug)", p->spelled);
	return r;
}

/* getopt's arrays from the table: every option of every command. */
static int build_getopt(struct option *longs, char *shorts, size_t len)
{
	size_t off = 0;

	shorts[off++] = ':';
	for (size_t i = 0; i < wd_n_options; i++) {
		const struct wd_option *o = &wd_options[i];

		longs[i] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					    NULL, 256 + (int)i };
		if (!o->letter)
			continue;
		if (off + 3 >= len)
			return -1;
		shorts[off++] = o->letter;
		if (o->arg)
			shorts[off++] = ':';
	}
	shorts[off] = '\0';
	longs[wd_n_options] = (struct option){ NULL, 0, NULL, 0 };
	return 0;
}

static const struct wd_option *by_letter(int c)
{
	for (size_t i = 0; i < wd_n_options; i++)
		if (wd_options[i].letter && wd_options[i].letter == c)
			return &wd_options[i];
	return NULL;
}

/* "--inter": ambiguous between --interface and --interval, or unknown. */
static int unknown_option(const struct parse *p, const char *word)
{
	char names[256] = "";
	size_t len, off = 0, n = 0;
	const char *eq;

	if (strncmp(word, "--", 2) || !word[2])
		return wd_opt_usage(p, "unknown option '%s'", word);
	eq = strchr(word, '=');
	len = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
	for (size_t i = 0; i < wd_n_options && off < sizeof(names); i++) {
		if (strncmp(wd_options[i].name, word + 2, len))
			continue;
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s--%s",
					n++ ? ", " : "", wd_options[i].name);
	}
	if (n > 1)
		return wd_opt_usage(p, "ambiguous option '%s': %s", word, names);
	return wd_opt_usage(p, "unknown option '%s'", word);
}

/*
 * `whydrop WORD ...`: top's filter expression, unless it is none; then
 * WORD was meant as a command.
 */
static int check_guess(struct parse *p)
{
	static const char *const cands[] = { "top", "watch", "count", "record", "serve",
					     "reasons", "explain", "read", "help" };
	struct wd_cbpf_insn *prog = NULL;
	const char *word = guessed_word, *hint;
	char err[512];
	size_t n;

	guessed_word = NULL;
	if (p->c->o.filter && !wd_filter_compile(p->c->o.filter, &prog, &n, err, sizeof(err))) {
		free(prog);
		return 0;
	}
	hint = wd_suggest(word, cands, sizeof(cands) / sizeof(cands[0]));
	if (hint) {
		fprintf(stderr, "whydrop: unknown command '%s'; did you mean '%s'? (`whydrop -h` "
			"lists the commands)\n", word, hint);
		return -1;
	}
	fprintf(stderr, "whydrop: unknown command '%s' (`whydrop -h` lists the commands)", word);
	/* the words were tried as `whydrop top EXPRESSION`: what libpcap said */
	if (p->c->o.filter)
		fprintf(stderr, "; as top's filter expression, %s", err);
	fputc('\n', stderr);
	return -1;
}

static void defaults(struct wd_cli *c, enum wd_cmd cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->o.cmd = cmd_names[cmd];
	c->o.rate = WD_DEFAULT_RATE;
	c->o.map_size = WD_DEFAULT_MAP_SIZE;
	c->o.dropmon_queue = WD_DEFAULT_DM_QUEUE;
	c->o.stack_map_size = WD_STACK_MAP_ENTRIES;
	c->o.max_groups = WD_DEFAULT_MAX_GROUPS;
	c->snaplen = WD_SNAPLEN_MAX;
	c->listen = WD_SERVE_LISTEN;
	c->max_series = WD_SERVE_MAX_SERIES;
	c->user = WD_SERVE_USER;
	c->series_grace = WD_SERVE_SERIES_GRACE;
	c->interval = WD_EXPLAIN_INTERVAL;
}

void wd_cli_free(struct wd_cli *c)
{
	free(c->o.filter);
	c->o.filter = NULL;
}

int wd_cli_parse(enum wd_cmd cmd, int argc, char **argv, struct wd_cli *c, int *status)
{
	struct option longs[WD_MAX_OPTIONS + 1];
	struct parse p = { .c = c, .argv = argv };
	char shorts[128];
	bool help = false;
	int ch, idx;

	defaults(c, cmd);
	p.cmd = cmd_names[cmd];
	*status = WD_EXIT_USAGE;
	if (build_getopt(longs, shorts, sizeof(shorts)))
		return -1;
	optind = 0;	/* 0, not 1: also resets glibc's scan state */
	opterr = 0;
	while (idx = -1, (ch = getopt_long(argc, argv, shorts, longs, &idx)) != -1) {
		if (ch == '?') {
			if (optopt && optopt < 256)
				wd_opt_usage(&p, "unknown option '-%c'", optopt);
			else
				unknown_option(&p, argv[optind - 1]);
			goto fail;
		}
		if (ch == ':') {
			wd_opt_usage(&p, "option '%s' needs a value", argv[optind - 1]);
			goto fail;
		}
		p.opt = ch >= 256 ? &wd_options[ch - 256] : by_letter(ch);
		p.as_short = ch < 256;
		spell(p.opt, p.as_short, p.spelled, sizeof(p.spelled));
		if (!strcmp(p.opt->name, "help")) {
			help = true;
			if (guessed_word)
				continue;	/* top's help, if the guess is right */
			break;
		}
		if (parse_one(&p, optarg))
			goto fail;
	}
	if (help && !guessed_word)
		goto help;
	c->words = argv + optind;
	c->n_words = argc - optind;
	if (wd_opt_check_words(&p))
		goto fail;
	if (guessed_word && check_guess(&p))
		goto fail;
	if (help)
		goto help;
	if (p.refused) {
		refuse(&p, p.refused, p.refused_as);
		goto fail;
	}
	if (wd_opt_check_live(&p))
		goto fail;
	if (c->o.group_by == WD_GROUP_PROCESS)
		c->o.processes = true;
	*status = 0;
	return 0;
help:
	wd_help_command(cmd, stdout);
	*status = 0;
fail:
	guessed_word = NULL;
	wd_cli_free(c);
	return -1;
}
