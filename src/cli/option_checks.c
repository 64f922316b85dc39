// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the parser (options.c) checks once every option is read: the words
 * after them (a filter expression, read's files) and the options that only
 * make sense together, each refusal one message saying what to do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "option_checks.h"

/* The trailing words form one pcap-filter expression, as with tcpdump. */
static int join_words(struct wd_cli *c, char **words, int n)
{
	size_t len = 1;

	for (int i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	c->o.filter = calloc(1, len);
	if (!c->o.filter)
		return -1;
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(c->o.filter, " ");
		strcat(c->o.filter, words[i]);
	}
	return 0;
}

static int join_filter(struct wd_cli *c)
{
	return join_words(c, c->words, c->n_words);
}

/*
 * read's words: FILE... then an optional expression. A word is a file when
 * it is "-" or names something that exists; or, without blanks, holds a
 * '/' or ".pcap" (a path mistyped is then said as one, not as a bad
 * expression).
 */
static bool file_word(const char *w)
{
	if (!strcmp(w, "-") || !access(w, F_OK))
		return true;
	return !strpbrk(w, " \t") && (strchr(w, '/') || strstr(w, ".pcap"));
}

static int read_words(struct parse *p)
{
	struct wd_cli *c = p->c;
	int n = 0, stdin_seen = 0;

	while (n < c->n_words && file_word(c->words[n]))
		stdin_seen += !strcmp(c->words[n++], "-");
	if (!n)
		return wd_opt_usage(p, "%s", c->n_words ?
				    "which FILE? (give the files before the filter expression)" :
				    "which FILE? (a pcapng from whydrop record)");
	if (stdin_seen > 1)
		return wd_opt_usage(p, "- (standard input) can be read only once");
	if (c->lines && c->o.group_by)
		return wd_opt_usage(p, "--lines prints each packet, --group-by counts them: one or "
				    "the other");
	if (c->lines && c->o.stacks)
		return wd_opt_usage(p, "--lines prints each packet with its recorded stack "
				    "already; --stacks counts the stacks: one or the other");
	if (c->has_since && c->has_until && c->until_ns <= c->since_ns)
		return wd_opt_usage(p, "--until is not after --since: no packet can be in between");
	if (n < c->n_words && join_words(c, c->words + n, c->n_words - n)) {
		fprintf(stderr, "whydrop %s: out of memory\n", p->cmd);
		return -1;
	}
	c->n_words = n;
	return 0;
}

/*
 * --rules: per-rule counts add up to NETFILTER_DROP only where the BPF
 * program and the nftables marking see the same packets: not with
 * drop_monitor (no nf_trace bit), nor when nothing is traced. -i and a
 * filter expression are applied to the claims (source_nftrace.c).
 */
static const char *rules_conflict(const struct wd_opts *o)
{
	if (o->source == WD_SOURCE_DROPMON)
		return "--source dropmon: drop_monitor cannot read the skb's nf_trace bit "
		       "(--source bpf can)";
	if (o->counters_only)
		return "--counters-only (nothing traced)";
	return NULL;
}

/* Options that only make sense together. */
int wd_opt_check_live(const struct parse *p)
{
	const struct wd_opts *o = &p->c->o;
	const char *what = NULL;

	if (o->counters_only) {
		if (o->reasons)
			what = "-r";
		else if (o->ifname)
			what = "-i";
		else if (o->filter)
			what = "a filter expression";
		else if (o->explain)
			what = "--explain";
		else if (o->stacks)
			what = "--stacks";
		else if (o->group_by)
			what = "--group-by";
		if (what)
			return wd_opt_usage(p, "--counters-only reads the kernel's counters and "
					    "traces nothing, so %s does not apply (only --netns, "
					    "-d, --json do)", what);
	}
	if (o->rules && (what = rules_conflict(o)))
		return wd_opt_usage(p, "--rules does not go with %s", what);
	if (o->tcp && o->source == WD_SOURCE_DROPMON)
		return wd_opt_usage(p, "--tcp needs BPF programs of its own and joins them with "
				    "the BPF drop program: it does not go with --source dropmon "
				    "(use --source bpf)");
	if (o->tcp && o->counters_only)
		return wd_opt_usage(p, "--counters-only traces nothing, so --tcp does not apply");
	if (o->group_by == WD_GROUP_HOST && strcmp(p->cmd, "read"))
		return wd_opt_usage(p, "--group-by host groups recorded packets by the host that "
				    "recorded them: `whydrop record` on each, then `whydrop read "
				    "--group-by host FILE...`");
	if (wd_group_by_flow(o->group_by) && o->source == WD_SOURCE_DROPMON)
		return wd_opt_usage(p, "--group-by %s counts in a BPF program of its own: it "
				    "does not go with --source dropmon (use --source bpf)",
				    wd_group_by_name(o->group_by));
	if (wd_group_by_flow(o->group_by) && o->counters_only)
		return wd_opt_usage(p, "--counters-only traces nothing, so --group-by %s does "
				    "not apply", wd_group_by_name(o->group_by));
	if (o->dropmon_mode_set && o->source != WD_SOURCE_DROPMON)
		return wd_opt_usage(p, "--dropmon-mode and --dropmon-queue only apply with "
				    "--source dropmon");
	if (o->stack_map_set && !o->stacks)
		return wd_opt_usage(p, "--stack-map-size goes with --stacks");
	if (o->folded && !o->stacks)
		return wd_opt_usage(p, "--folded goes with --stacks (`whydrop %s --stacks "
				    "--folded`)", p->cmd);
	if (o->folded && (o->json || o->explain))
		return wd_opt_usage(p, "--folded prints only folded lines: leave out --json and "
				    "--explain");
	if (p->c->has_check && (o->counters_only || o->folded))
		return wd_opt_usage(p, "--fail-on checks the traced counts: it does not go with %s",
				    o->counters_only ? "--counters-only (nothing traced)" :
				    "--folded (no report)");
	if (p->c->svg && !o->stacks)
		return wd_opt_usage(p, "--svg goes with --stacks (`whydrop %s --stacks --svg "
				    "FILE`): the flame graph is made of the drops' stacks", p->cmd);
	if (p->c->svg && (!*p->c->svg || !strcmp(p->c->svg, "-")))
		return wd_opt_usage(p, "--svg '%s': give the flame graph's file name "
				    "(standard output has the report; --folded prints the stacks "
				    "there)", p->c->svg);
	return 0;
}

int wd_opt_check_words(struct parse *p)
{
	struct wd_cli *c = p->c;

	switch (c->cmd) {
	case WD_CMD_REASONS:
		if (c->n_words)
			return wd_opt_usage(p, "unexpected '%s' (for one reason: `whydrop "
					    "explain %s`)", c->words[0], c->words[0]);
		return 0;
	case WD_CMD_READ:
		return read_words(p);
	case WD_CMD_EXPLAIN:
		return 0;
	default:
		if (c->n_words && join_filter(c)) {
			fprintf(stderr, "whydrop %s: out of memory\n", p->cmd);
			return -1;
		}
		return 0;
	}
}

