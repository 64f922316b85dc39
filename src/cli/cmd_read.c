// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read: summarise a pcapng recording like `count` does. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "drop_comment.h"
#include "format.h"
#include "groups.h"
#include "options.h"
#include "output.h"
#include "pcapng_read.h"
#include "read.h"
#include "reasons.h"
#include "report.h"

struct read_opts {
	bool json;
	bool verbose;
	enum wd_group_by group_by;
	uint32_t max_groups;
	const char *path;
};

/* ---- reading ---- */

struct summary {
	const struct read_opts *ro;
	struct table drops;		/* struct read_row */
	struct wd_keyset groups;	/* struct wd_group_key, with --group-by */
	uint64_t packets;
	uint64_t uncommented;		/* packets without a whydrop comment */
	bool any_reason;
	bool any_ts;
	uint64_t first_ns, last_ns;
	unsigned int n_isb;
	struct wd_pcapng_stats isb;	/* the last one; comment not kept */
	const char *section;		/* the reader's section comment (--group-by host) */
	uint64_t lost_events;
};

static int on_packet(struct summary *s, const struct wd_pcapng_rec *rec)
{
	struct wd_group_scratch sc;
	struct wd_group_who who;
	struct wd_pcapng_meta m;

	s->packets++;
	if (rec->has_ts) {
		if (!s->any_ts || rec->ts_ns < s->first_ns)
			s->first_ns = rec->ts_ns;
		if (!s->any_ts || rec->ts_ns > s->last_ns)
			s->last_ns = rec->ts_ns;
		s->any_ts = true;
	}
	if (!wd_pcapng_parse_comment(rec->comment, &m)) {
		s->uncommented++;
		return 0;
	}
	if (s->ro->group_by) {
		wd_group_who_recorded(&m, rec->comment, rec->data, rec->caplen, s->section, &sc,
				      &who);
		if (wd_group_add(&s->groups, s->ro->group_by, &who,
				 m.has_reason ? m.reason : NULL, m.code, 1))
			return -ENOMEM;
	}
	if (wd_read_add_drop(&s->drops, &m))
		return -ENOMEM;
	s->any_reason |= m.has_reason;
	return 0;
}

/* "whydrop: counted=.. lost_events=N": the kernel's recursion misses. */
static uint64_t lost_events(const char *comment)
{
	const char *p = comment ? strstr(comment, "lost_events=") : NULL;

	return p ? strtoull(p + strlen("lost_events="), NULL, 10) : 0;
}

static void on_stats(struct summary *s, const struct wd_pcapng_rec *rec)
{
	s->n_isb++;
	s->isb = rec->stats;
	s->isb.comment = NULL;
	s->lost_events += lost_events(rec->stats.comment);
}

/* Reads until the end or an error (in r->err, or out of memory): 0 or -1. */
static int read_all(struct wd_pcapng_reader *r, struct summary *s)
{
	struct wd_pcapng_rec rec;

	for (;;) {
		switch (wd_pcapng_next(r, &rec)) {
		case WD_PCAPNG_END:
			return 0;
		case WD_PCAPNG_ERROR:
			return -1;
		case WD_PCAPNG_PACKET:
			if (on_packet(s, &rec)) {
				snprintf(r->err, sizeof(r->err), "out of memory");
				return -1;
			}
			break;
		case WD_PCAPNG_STATS:
			on_stats(s, &rec);
			break;
		}
	}
}

/* As `count`: "core", or the subsystem of a subsystem reason in lower case. */
static void set_subsys(struct read_row *r)
{
	const char *colon = strchr(r->m.reason, ':');
	bool sub = r->m.has_code ? (r->m.code & WD_SUBSYS_MASK) != 0 : colon != NULL;
	size_t i, n = colon ? (size_t)(colon - r->m.reason) : 0;

	if (!sub) {
		snprintf(r->subsys, sizeof(r->subsys), "core");
		return;
	}
	if (!colon || n >= sizeof(r->subsys)) {
		snprintf(r->subsys, sizeof(r->subsys), "unknown");
		return;
	}
	for (i = 0; i < n; i++)
		r->subsys[i] = (char)tolower((unsigned char)r->m.reason[i]);
	r->subsys[i] = '\0';
}

static int cmp_row(const void *a, const void *b)
{
	const struct read_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->m.code != y->m.code)
		return x->m.code < y->m.code ? -1 : 1;
	if (strcmp(x->m.reason, y->m.reason))
		return strcmp(x->m.reason, y->m.reason);
	return strcmp(x->m.location, y->m.location);
}

/* The recording's own window when it has one, else first to last packet. */
static double duration(const struct summary *s)
{
	if (s->n_isb == 1 && s->isb.has_start && s->isb.has_end &&
	    s->isb.end_ns >= s->isb.start_ns)
		return (double)(s->isb.end_ns - s->isb.start_ns) / 1e9;
	if (s->any_ts)
		return (double)(s->last_ns - s->first_ns) / 1e9;
	return 0;
}

static const char *kernel_of(const struct wd_pcapng_reader *r)
{
	if (!strncmp(r->os, "Linux ", 6))
		return r->os + 6;
	return "";
}

/* The count rows, largest first; *out freed by the caller. */
static int doc_rows(struct summary *s, struct wd_count_doc *doc, struct wd_count_row **out)
{
	struct read_row *src = (struct read_row *)s->drops.rows;
	size_t n = s->drops.n;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	if (n)
		qsort(src, n, sizeof(*src), cmp_row);	/* the index is not used again */
	for (size_t i = 0; i < n; i++) {
		set_subsys(&src[i]);
		(*out)[i] = (struct wd_count_row){
			.code = src[i].m.code,
			.reason = src[i].m.has_reason ? src[i].m.reason : NULL,
			.subsystem = src[i].subsys,
			.function = src[i].m.function,
			.location = src[i].m.location,
			/* by place: a recording has no counters to tell causes apart */
			.hint = src[i].m.has_reason ?
				wd_hint_at(src[i].m.reason, src[i].m.function) : NULL,
			.count = src[i].count,
			.no_code = src[i].m.has_reason && !src[i].m.has_code,
		};
		doc->total += src[i].count;
	}
	doc->rows = *out;
	doc->n_rows = n;
	return 0;
}

/* The table or the JSON document on stdout: 0, or 1 after a message. */
static int print_summary(struct summary *s, const struct wd_pcapng_reader *r)
{
	struct wd_count_doc doc = {
		.kernel = kernel_of(r),
		.duration_s = duration(s),
		.lost_events = s->lost_events,
		.location_only = s->drops.n && !s->any_reason,
	};
	struct wd_count_row *rows = NULL;
	struct wd_groups_doc gd = { 0 };
	int status = 1;

	if (doc_rows(s, &doc, &rows) ||
	    (s->ro->group_by &&
	     wd_groups_doc_make(&s->groups, s->ro->group_by, s->ro->max_groups, &doc, &gd))) {
		fprintf(stderr, "whydrop read: out of memory\n");
		goto out;
	}
	if (s->ro->json)
		wd_print_count_json(stdout, &doc);
	else
		wd_print_count_table(stdout, &doc);
	/* A full disk or a closed pipe: said here, whatever the file held. */
	status = wd_output_check(stdout, "read");
out:
	free(rows);
	wd_groups_doc_free(&gd);
	return status;
}

/* What the summary does not cover, on stderr; true if the file is damaged. */
static bool notes(const struct summary *s, const struct wd_pcapng_reader *r, const char *name)
{
	const struct wd_pcapng_stats *st = &s->isb;

	if (s->uncommented)
		fprintf(stderr, "whydrop read: %s: %" PRIu64 " of %" PRIu64 " %s %s no "
			"whydrop comment (not recorded by whydrop?): left out of the summary\n",
			name, s->uncommented, s->packets, wd_plural(s->packets, "packet", "packets"),
			wd_plural(s->uncommented, "carries", "carry"));
	if (s->n_isb == 1 && st->has_ifrecv && st->has_usrdeliv && st->ifrecv > st->usrdeliv)
		fprintf(stderr, "whydrop read: %s: the recording counted %" PRIu64 " %s and "
			"wrote %" PRIu64 " (the others were over --rate, lost, or after -c): the "
			"summary covers the packets in the file\n", name, st->ifrecv,
			wd_plural(st->ifrecv, "drop", "drops"), st->usrdeliv);
	if (!r->n_malformed)
		return false;
	fprintf(stderr, "whydrop read: %s: %" PRIu64 " malformed %s skipped or read in part, "
		"the first because: %s; the summary lacks what %s held\n", name, r->n_malformed,
		wd_plural(r->n_malformed, "block", "blocks"), r->malformed,
		wd_plural(r->n_malformed, "it", "they"));
	return true;
}

/* -v: what the file holds, beyond the summary. */
static void say_contents(const struct summary *s, const struct wd_pcapng_reader *r,
			 const char *name)
{
	fprintf(stderr, "whydrop read: %s: %" PRIu64 " %s, %zu %s, %" PRIu64 " %s (%" PRIu64
		" with a whydrop comment), %u %s, %" PRIu64 " %s of other types skipped", name,
		r->n_sections, wd_plural(r->n_sections, "section", "sections"), r->n_ifs,
		wd_plural(r->n_ifs, "interface", "interfaces"), s->packets,
		wd_plural(s->packets, "packet", "packets"), s->packets - s->uncommented, s->n_isb,
		wd_plural(s->n_isb, "statistics block", "statistics blocks"), r->n_skipped,
		wd_plural(r->n_skipped, "block", "blocks"));
	if (r->userappl[0] || r->os[0])
		fprintf(stderr, "; written by %s on %s", r->userappl[0] ? r->userappl : "?",
			r->os[0] ? r->os : "?");
	fputc('\n', stderr);
}

int cmd_read(int argc, char **argv)
{
	struct read_opts ro;
	struct summary s = { .ro = &ro };
	struct wd_pcapng_reader r;
	bool damaged = false;
	struct wd_cli cli;
	FILE *f = stdin;
	int status, err;

	if (wd_cli_parse(WD_CMD_READ, argc, argv, &cli, &status))
		return status;
	ro = (struct read_opts){
		.json = cli.o.json, .verbose = cli.o.verbose, .group_by = cli.o.group_by,
		.max_groups = cli.o.max_groups, .path = cli.words[0],
	};
	wd_read_table_init(&s.drops);
	wd_group_rows_init(&s.groups);
	if (strcmp(ro.path, "-")) {
		f = fopen(ro.path, "rb");
		if (!f) {
			fprintf(stderr, "whydrop read: cannot open %s: %s\n", ro.path,
				strerror(errno));
			wd_cli_free(&cli);
			return 1;
		}
	}
	wd_pcapng_reader_init(&r, f);
	s.section = r.shb_comment;
	err = read_all(&r, &s);
	/* A recording cut short is still summarised up to the cut. */
	status = r.n_sections ? print_summary(&s, &r) : 1;
	if (r.n_sections)
		damaged = notes(&s, &r, ro.path);
	if (ro.verbose)
		say_contents(&s, &r, ro.path);
	if (err && r.n_sections)
		fprintf(stderr, "whydrop read: %s: %s; the summary covers the %" PRIu64
			" %s before it\n", ro.path, r.err, s.packets,
			wd_plural(s.packets, "packet", "packets"));
	else if (err)
		fprintf(stderr, "whydrop read: %s: %s\n", ro.path, r.err);
	wd_pcapng_reader_free(&r);
	if (f != stdin)
		fclose(f);
	wd_table_free(&s.drops);
	wd_keyset_free(&s.groups);
	wd_cli_free(&cli);
	return err || status || damaged ? 1 : 0;
}
