// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read: summarise a pcapng recording like `count` does. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "format.h"
#include "options.h"
#include "pcapng.h"
#include "reasons.h"
#include "report.h"

static const char usage[] =
"Usage: whydrop read [--json] FILE\n"
"Summarise a recording made by `whydrop record` like `whydrop count` does: drops\n"
"by reason and location, from the packet comments; the same table, or with --json\n"
"the same JSON document as `count --json`. The kernel is the recording's (shb_os),\n"
"the duration the recording's (else first to last packet). FILE - reads stdin.\n"
"Other pcapng files: what can be read is summarised, and stderr says what could\n"
"not (packets without a whydrop comment, malformed blocks). No privileges needed.\n"
"\n"
"      --json           one JSON document, as `whydrop count --json`\n"
"  -h, --help           this help\n"
"\n"
"Examples:\n"
"  whydrop read drops.pcapng\n"
"  whydrop read --json drops.pcapng | jq '.drops[] | {reason, count}'\n"
"  sudo whydrop record -w - -c 100 | whydrop read -\n";

enum { OPT_JSON = 256 };

static const struct option read_longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct row {
	struct wd_pcapng_meta m;	/* reason, code, location, function */
	char subsys[64];
	uint64_t count;
};

struct summary {
	struct row *rows;
	size_t n, cap;
	uint32_t *slots;		/* hash of rows: index + 1, 0 = empty */
	size_t n_slots;
	uint64_t packets;
	uint64_t uncommented;		/* packets without a whydrop comment */
	bool any_reason;
	bool any_ts;
	uint64_t first_ns, last_ns;
	unsigned int n_isb;
	struct wd_pcapng_stats isb;	/* the last one; comment not kept */
	uint64_t lost_events;
};

static uint32_t row_hash(const struct wd_pcapng_meta *m)
{
	uint32_t h = 2166136261u;
	const char *s;

	for (s = m->reason; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	h = (h ^ (m->has_reason ? 1u : 2u)) * 16777619u;
	for (s = m->location; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static bool same_row(const struct row *r, const struct wd_pcapng_meta *m)
{
	return r->m.has_reason == m->has_reason && !strcmp(r->m.reason, m->reason) &&
	       !strcmp(r->m.location, m->location);
}

static int rehash(struct summary *s)
{
	size_t n_slots = s->n_slots ? s->n_slots * 2 : 64;
	uint32_t *slots = calloc(n_slots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		size_t j = row_hash(&s->rows[i].m) & (n_slots - 1);

		while (slots[j])
			j = (j + 1) & (n_slots - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(s->slots);
	s->slots = slots;
	s->n_slots = n_slots;
	return 0;
}

static int new_row(struct summary *s, const struct wd_pcapng_meta *m, size_t slot)
{
	struct row *tmp;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;

		tmp = realloc(s->rows, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		s->rows = tmp;
		s->cap = cap;
	}
	s->rows[s->n] = (struct row){ .m = *m, .count = 1 };
	s->slots[slot] = (uint32_t)++s->n;
	if (s->n * 2 >= s->n_slots)
		return rehash(s);
	return 0;
}

static int add_drop(struct summary *s, const struct wd_pcapng_meta *m)
{
	size_t j;

	if (!s->slots && rehash(s))
		return -ENOMEM;
	j = row_hash(m) & (s->n_slots - 1);
	for (; s->slots[j]; j = (j + 1) & (s->n_slots - 1)) {
		struct row *r = &s->rows[s->slots[j] - 1];

		if (same_row(r, m)) {
			r->count++;
			return 0;
		}
	}
	s->any_reason |= m->has_reason;
	return new_row(s, m, j);
}

static int on_packet(struct summary *s, const struct wd_pcapng_rec *rec)
{
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
	return add_drop(s, &m);
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
static void set_subsys(struct row *r)
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
	const struct row *x = a, *y = b;

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

static int print_summary(struct summary *s, const struct wd_pcapng_reader *r, bool json)
{
	struct wd_count_doc doc = {
		.kernel = kernel_of(r),
		.duration_s = duration(s),
		.lost_events = s->lost_events,
		.location_only = s->n && !s->any_reason,
	};
	struct wd_count_row *rows = calloc(s->n ? s->n : 1, sizeof(*rows));

	if (!rows) {
		fprintf(stderr, "whydrop read: out of memory\n");
		return 1;
	}
	if (s->n)
		qsort(s->rows, s->n, sizeof(*s->rows), cmp_row);
	for (size_t i = 0; i < s->n; i++) {
		struct row *src = &s->rows[i];

		set_subsys(src);
		rows[i] = (struct wd_count_row){
			.code = src->m.code,
			.reason = src->m.has_reason ? src->m.reason : NULL,
			.subsystem = src->subsys,
			.function = src->m.function,
			.location = src->m.location,
			.hint = src->m.has_reason ? wd_hint(src->m.reason) : NULL,
			.count = src->count,
		};
		doc.total += src->count;
	}
	doc.rows = rows;
	doc.n_rows = s->n;
	if (json)
		wd_print_count_json(stdout, &doc);
	else
		wd_print_count_table(stdout, &doc);
	free(rows);
	return fflush(stdout) ? 1 : 0;
}

/* What the summary does not cover, on stderr. */
static void notes(const struct summary *s, const struct wd_pcapng_reader *r, const char *name)
{
	const struct wd_pcapng_stats *st = &s->isb;

	if (s->uncommented)
		fprintf(stderr, "whydrop read: %s: %" PRIu64 " of %" PRIu64 " packets carry no "
			"whydrop comment (not recorded by whydrop?): left out of the summary\n",
			name, s->uncommented, s->packets);
	if (r->n_malformed)
		fprintf(stderr, "whydrop read: %s: %" PRIu64 " malformed block(s) skipped or read "
			"in part; the first: %s\n", name, r->n_malformed, r->malformed);
	if (s->n_isb == 1 && st->has_ifrecv && st->has_usrdeliv && st->ifrecv > st->usrdeliv)
		fprintf(stderr, "whydrop read: %s: the recording counted %" PRIu64 " drops and "
			"wrote %" PRIu64 " (the others were over --rate, lost, or after -c): the "
			"summary covers the packets in the file\n", name, st->ifrecv, st->usrdeliv);
}

static int parse_args(int argc, char **argv, bool *json, const char **path, int *status)
{
	int c;

	optind = 0;	/* 0, not 1: also resets glibc's scan state */
	opterr = 0;
	*status = WD_EXIT_USAGE;
	while ((c = getopt_long(argc, argv, ":h", read_longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			*status = 0;
			return -1;
		}
		if (c != OPT_JSON) {
			fprintf(stderr, "whydrop read: unknown option '%s'\n"
				"(`whydrop read -h` for help)\n", argv[optind - 1]);
			return -1;
		}
		*json = true;
	}
	if (argc - optind != 1) {
		fprintf(stderr, "whydrop read: %s\n(`whydrop read -h` for help)\n",
			optind < argc ? "one FILE only" : "which FILE? (a pcapng from whydrop record)");
		return -1;
	}
	*path = argv[optind];
	return 0;
}

int cmd_read(int argc, char **argv)
{
	struct wd_pcapng_reader r;
	struct summary s = { 0 };
	const char *path = NULL;
	bool json = false;
	FILE *f = stdin;
	int status, err;

	if (parse_args(argc, argv, &json, &path, &status))
		return status;
	if (strcmp(path, "-")) {
		f = fopen(path, "rb");
		if (!f) {
			fprintf(stderr, "whydrop read: cannot open %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	wd_pcapng_reader_init(&r, f);
	err = read_all(&r, &s);
	/* A recording cut short is still summarised up to the cut. */
	status = r.n_sections ? print_summary(&s, &r, json) : 1;
	if (r.n_sections)
		notes(&s, &r, path);
	if (err && r.n_sections)
		fprintf(stderr, "whydrop read: %s: %s; the summary covers the %" PRIu64
			" packets before it\n", path, r.err, s.packets);
	else if (err)
		fprintf(stderr, "whydrop read: %s: %s\n", path, r.err);
	wd_pcapng_reader_free(&r);
	if (f != stdin)
		fclose(f);
	free(s.rows);
	free(s.slots);
	return err || status ? 1 : 0;
}
