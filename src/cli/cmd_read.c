// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read: its options, the files and their packets read into the summary (read.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "drop_comment.h"
#include "flame_output.h"
#include "format.h"
#include "groups.h"
#include "options.h"
#include "output.h"
#include "pcapng_read.h"
#include "read.h"
#include "read_filter.h"
#include "read_lines.h"
#include "read_stacks.h"
#include "read_tcp.h"

/* ---- reading ---- */

static void seen_ts(struct read_file_sum *fs, const struct wd_pcapng_rec *rec)
{
	if (!rec->has_ts)
		return;
	if (!fs->any_ts || rec->ts_ns < fs->first_ns)
		fs->first_ns = rec->ts_ns;
	if (!fs->any_ts || rec->ts_ns > fs->last_ns)
		fs->last_ns = rec->ts_ns;
	fs->any_ts = true;
}

static int count_packet(struct read_summary *s, const struct wd_pcapng_rec *rec,
			const struct wd_pcapng_meta *m)
{
	struct wd_group_scratch sc;
	struct wd_group_who who;

	if (s->ro->lines) {
		if (wd_read_print_line(stdout, rec, m, s->ro->json))
			return -ENOMEM;
		s->out_errno = wd_output_errno(stdout);
		return 0;
	}
	if (s->ro->group_by) {
		wd_group_who_recorded(m, rec->comment, rec->data, rec->caplen, s->section, &sc,
				      &who);
		if (wd_group_add(&s->groups, s->ro->group_by, &who,
				 m->has_reason ? m->reason : NULL, m->code, 1))
			return -ENOMEM;
	}
	if (wd_read_add_drop(&s->drops, m) || wd_read_tcp_drop(&s->tcp, rec, m))
		return -ENOMEM;
	if (s->ro->stacks && wd_read_stacks_add(&s->stacks, m, rec->comment))
		return -ENOMEM;
	s->any_reason |= m->has_reason;
	return 0;
}

/*
 * A TCP event of record --tcp: never a drop. The expression and --netns
 * apply to it; -r and -i are of drops only.
 */
static int on_tcp_event(struct read_summary *s, const struct wd_pcapng_rec *rec,
			const struct wd_pcapng_meta *m, const char *type)
{
	if (!wd_read_filter_tcp(s->flt, m))
		return 0;
	s->flt->matched++;
	s->fs.packets++;
	if (!s->ro->lines)
		return wd_read_tcp_add(&s->tcp, rec, m, type);
	if (wd_read_tcp_line(stdout, rec, m, type, s->ro->json))
		return -ENOMEM;
	s->out_errno = wd_output_errno(stdout);
	return 0;
}

/* 0, -ENOMEM, or -EINVAL after a message (the expression and a link type). */
static int on_packet(struct read_summary *s, const struct wd_pcapng_reader *r,
		     const struct wd_pcapng_rec *rec)
{
	struct wd_pcapng_meta m;
	const char *tcp;
	char type[32];
	bool commented;
	int kept;

	commented = wd_pcapng_parse_comment(rec->comment, &m);
	tcp = wd_read_tcp_event(rec->comment, type, sizeof(type));
	s->fs.commented += commented || tcp;
	kept = wd_read_filter_packet(s->flt, rec, r->ifs[rec->if_id].linktype, s->path);
	if (kept < 0)
		return -EINVAL;
	/* the window: every packet in the time range, whatever else filters it */
	if (wd_read_filter_in_range(s->flt, rec))
		seen_ts(&s->fs, rec);
	if (!kept)
		return 0;
	if (tcp)
		return on_tcp_event(s, rec, &m, tcp);
	if (!wd_read_filter_meta(s->flt, commented ? &m : NULL))
		return 0;
	s->flt->matched++;
	s->fs.packets++;
	if (!commented) {
		s->fs.uncommented++;
		return 0;
	}
	s->kept++;
	s->section = r->shb_comment;
	return count_packet(s, rec, &m);
}

/* "whydrop: counted=.. lost_events=N": the kernel's recursion misses. */
static uint64_t lost_events(const char *comment)
{
	const char *p = comment ? strstr(comment, "lost_events=") : NULL;

	return p ? strtoull(p + strlen("lost_events="), NULL, 10) : 0;
}

static void on_stats(struct read_summary *s, const struct wd_pcapng_rec *rec)
{
	s->fs.n_isb++;
	s->fs.isb = rec->stats;
	s->fs.isb.comment = NULL;
	s->lost_events += lost_events(rec->stats.comment);
}

/*
 * Reads until the end or an error (in r->err, or out of memory): 0 or -1;
 * -2 when the error was said already, or standard output failed.
 */
static int read_all(struct wd_pcapng_reader *r, struct read_summary *s)
{
	struct wd_pcapng_rec rec;
	int err;

	for (;;) {
		switch (wd_pcapng_next(r, &rec)) {
		case WD_PCAPNG_END:
			return 0;
		case WD_PCAPNG_ERROR:
			return -1;
		case WD_PCAPNG_PACKET:
			err = on_packet(s, r, &rec);
			if (err == -EINVAL)
				return -2;
			if (err) {
				snprintf(r->err, sizeof(r->err), "out of memory");
				return -1;
			}
			if (s->out_errno)
				return -2;
			break;
		case WD_PCAPNG_STATS:
			on_stats(s, &rec);
			break;
		}
	}
}

/* A file's own window when it has one, else first to last packet; cut to the range. */
static void add_window(struct read_summary *s)
{
	const struct read_file_sum *fs = &s->fs;
	const struct wd_read_filter *f = s->flt;
	uint64_t start, end;

	if (fs->n_isb == 1 && fs->isb.has_start && fs->isb.has_end &&
	    fs->isb.end_ns >= fs->isb.start_ns) {
		start = fs->isb.start_ns;
		end = fs->isb.end_ns;
	} else if (fs->any_ts) {
		start = fs->first_ns;
		end = fs->last_ns;
	} else {
		return;
	}
	if (f->has_since && start < f->since_ns)
		start = f->since_ns;
	if (f->has_until && end > f->until_ns)
		end = f->until_ns;
	if (end < start)
		return;
	if (!s->any_window || start < s->start_ns)
		s->start_ns = start;
	if (!s->any_window || end > s->end_ns)
		s->end_ns = end;
	s->any_window = true;
}

/* The recording kernels, each once: "6.18.0", or "6.1.0, 6.12.0". */
static void add_kernel(struct read_summary *s, const struct wd_pcapng_reader *r)
{
	const char *k = strncmp(r->os, "Linux ", 6) ? "" : r->os + 6;
	size_t used = strlen(s->kernels), n = strlen(k);
	const char *p = s->kernels;

	if (!*k)
		return;
	for (; (p = strstr(p, k)); p += n)
		if ((p == s->kernels || p[-1] == ' ') && (!p[n] || p[n] == ','))
			return;
	snprintf(s->kernels + used, sizeof(s->kernels) - used, "%s%s", used ? ", " : "", k);
}

/* What the summary does not cover, on stderr; true if the file is damaged. */
static bool notes(const struct read_summary *s, const struct wd_pcapng_reader *r, const char *name)
{
	const struct read_file_sum *fs = &s->fs;
	const struct wd_pcapng_stats *st = &fs->isb;

	if (fs->uncommented)
		fprintf(stderr, "whydrop read: %s: %" PRIu64 " of %" PRIu64 " %s %s no "
			"whydrop comment (not recorded by whydrop?): left out of the %s\n",
			name, fs->uncommented, fs->packets,
			wd_plural(fs->packets, "packet", "packets"),
			wd_plural(fs->uncommented, "carries", "carry"),
			s->ro->lines ? "lines" : "summary");
	if (fs->n_isb == 1 && st->has_ifrecv && st->has_usrdeliv && st->ifrecv > st->usrdeliv)
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
static void say_contents(const struct read_summary *s, const struct wd_pcapng_reader *r,
			 const char *name, uint64_t packets)
{
	fprintf(stderr, "whydrop read: %s: %" PRIu64 " %s, %zu %s, %" PRIu64 " %s (%" PRIu64
		" with a whydrop comment), %u %s, %" PRIu64 " %s of other types skipped", name,
		r->n_sections, wd_plural(r->n_sections, "section", "sections"), r->n_ifs,
		wd_plural(r->n_ifs, "interface", "interfaces"), packets,
		wd_plural(packets, "packet", "packets"), s->fs.commented,
		s->fs.n_isb, wd_plural(s->fs.n_isb, "statistics block", "statistics blocks"),
		r->n_skipped, wd_plural(r->n_skipped, "block", "blocks"));
	if (r->userappl[0] || r->os[0])
		fprintf(stderr, "; written by %s on %s", r->userappl[0] ? r->userappl : "?",
			r->os[0] ? r->os : "?");
	fputc('\n', stderr);
}

/* ---- the files ---- */

struct input {
	const char *path;
	FILE *f;
};

/*
 * Whether a file that can be rewound starts as pcapng: checked before
 * anything is printed. 0, or 1 after the reader's message.
 */
static int precheck(const struct input *in)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	int status = 0;

	if (in->f == stdin || fseek(in->f, 0, SEEK_SET))
		return 0;
	wd_pcapng_reader_init(&r, in->f);
	if (wd_pcapng_next(&r, &rec) == WD_PCAPNG_ERROR && !r.n_sections) {
		fprintf(stderr, "whydrop read: %s: %s\n", in->path, r.err);
		status = 1;
	}
	wd_pcapng_reader_free(&r);
	clearerr(in->f);
	if (fseek(in->f, 0, SEEK_SET)) {
		fprintf(stderr, "whydrop read: %s: cannot rewind: %s\n", in->path,
			strerror(errno));
		status = 1;
	}
	return status;
}

/* Every file opened and checked: 0, else 2 (cannot open) or 1 (not pcapng). */
static int open_all(struct input *in, char **paths, int n)
{
	for (int i = 0; i < n; i++) {
		in[i].path = paths[i];
		in[i].f = strcmp(paths[i], "-") ? fopen(paths[i], "rb") : stdin;
		if (!in[i].f) {
			fprintf(stderr, "whydrop read: cannot open %s: %s\n", paths[i],
				strerror(errno));
			return WD_EXIT_USAGE;
		}
	}
	for (int i = 0; i < n; i++)
		if (precheck(&in[i]))
			return 1;
	return 0;
}

static void close_all(struct input *in, int n)
{
	for (int i = 0; i < n; i++)
		if (in[i].f && in[i].f != stdin)
			fclose(in[i].f);
}

/*
 * One file read into the summary, its notes on stderr. 0; 1 when it is
 * damaged or cut short (what was read counts); -1 when nothing of it could
 * be read, or reading must stop.
 */
static int read_file(struct read_summary *s, const struct input *in)
{
	uint64_t seen = s->flt->seen;
	struct wd_pcapng_reader r;
	bool damaged = false;
	int err, status;

	s->path = in->path;
	memset(&s->fs, 0, sizeof(s->fs));
	wd_pcapng_reader_init(&r, in->f);
	err = read_all(&r, s);
	if (r.n_sections) {
		damaged = notes(s, &r, in->path);
		add_window(s);
		add_kernel(s, &r);
	}
	if (s->ro->verbose)
		say_contents(s, &r, in->path, s->flt->seen - seen);
	if (err == -1 && r.n_sections)
		fprintf(stderr, "whydrop read: %s: %s; the %s covers the %" PRIu64 " %s before "
			"it\n", in->path, r.err, s->ro->lines ? "output" : "summary",
			s->fs.packets, wd_plural(s->fs.packets, "packet", "packets"));
	else if (err == -1)
		fprintf(stderr, "whydrop read: %s: %s\n", in->path, r.err);
	status = err == -2 || (err && !r.n_sections) ? -1 : err || damaged;
	wd_pcapng_reader_free(&r);
	return status;
}

int cmd_read(int argc, char **argv)
{
	struct read_opts ro;
	struct wd_read_filter flt;
	struct wd_flame_out flame = { .fd = -1 };
	struct read_summary s = { .ro = &ro, .flt = &flt };
	struct input *in = NULL;
	struct wd_cli cli;
	int status, n = 0, worst = 0, r;

	if (wd_cli_parse(WD_CMD_READ, argc, argv, &cli, &status))
		return status;
	ro = (struct read_opts){
		.json = cli.o.json, .verbose = cli.o.verbose, .lines = cli.lines,
		.stacks = cli.o.stacks, .folded = cli.o.folded,
		.group_by = cli.o.group_by, .max_groups = cli.o.max_groups,
	};
	wd_read_table_init(&s.drops);
	wd_group_rows_init(&s.groups);
	wd_read_tcp_init(&s.tcp);
	wd_read_stacks_init(&s.stacks);
	status = wd_read_filter_init(&flt, &cli);
	if (status)
		goto out;
	n = cli.n_words;
	in = calloc((size_t)n, sizeof(*in));
	status = in ? open_all(in, cli.words, n) : 1;
	if (status)
		goto out;
	/* a bad path fails now, before anything is read */
	if (cli.svg && (status = wd_flame_out_open(&flame, "read", cli.svg)))
		goto out;
	s.flame = cli.svg ? &flame : NULL;
	for (int i = 0; i < n && worst >= 0; i++) {
		r = read_file(&s, &in[i]);
		worst = r < 0 ? -1 : (r > worst ? r : worst);
	}
	if (s.out_errno) {
		wd_output_report("read", stdout, s.out_errno);
		status = 1;
	} else if (worst < 0) {
		status = 1;	/* said; nothing printed */
	} else {
		status = ro.lines ? wd_output_check(stdout, "read") : wd_read_print_summary(&s);
		if (!status)	/* 2: --stacks of a recording without */
			status = worst;
	}
	if (ro.verbose && (wd_read_filter_by_comment(&flt) || flt.expr || flt.has_since ||
			   flt.has_until))
		fprintf(stderr, "whydrop read: %" PRIu64 " of %" PRIu64 " %s matched the "
			"filters\n", flt.matched, flt.seen, wd_plural(flt.seen, "packet", "packets"));
out:
	wd_flame_out_close(&flame);
	close_all(in, n);
	free(in);
	wd_read_filter_free(&flt);
	wd_table_free(&s.drops);
	wd_keyset_free(&s.groups);
	wd_read_stacks_free(&s.stacks);
	wd_read_tcp_free(&s.tcp);
	wd_cli_free(&cli);
	return status;
}
