// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop record: every dropped packet that matches, to a pcapng file. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "drop_comment.h"
#include "format.h"
#include "options.h"
#include "output.h"
#include "record.h"
#include "source_tcp.h"

#define RECORD_RATE	0	/* records/s when --rate is not given: no limit */

static void on_event(void *ctx, const struct wd_event *ev)
{
	struct record *r = ctx;
	char reason[160], function[160], location[160], comment[4096];
	struct wd_pcapng_packet p;
	struct wd_drop_view v;

	r->received++;
	if (r->w.err || r->broken)
		return;
	if (r->files_done) {
		r->after_files++;
		return;
	}
	if (r->limit && total_packets(r) >= r->limit) {
		r->after_limit++;
		wd_stop = 1;
		return;
	}
	wd_session_view(r->s, ev, &v, reason, function, location, sizeof(reason));
	/* caplen bytes from hdr[] on: the session checked the record holds them */
	wd_pcapng_drop_packet(&v, ev->hdr, ev->caplen, r->snaplen, comment, sizeof(comment),
			      &p);
	if (!wd_record_period_check(r, ev->ts_ns)) {
		r->after_files += r->files_done;
		return;
	}
	if (!wd_record_size_check(r, wd_pcapng_packet_size(&p)))
		return;
	if (wd_pcapng_write_packet(&r->w, &p)) {
		wd_record_write_error(r);
		return;
	}
	/* Shorter than -s and the packet: what was in paged data is missing. */
	if ((ev->flags & WD_EV_PAGED) && p.caplen < r->snaplen && p.caplen < p.origlen)
		r->cut_paged++;
	if (r->limit && total_packets(r) >= r->limit)
		wd_stop = 1;
}

static void record_loop(struct record *r, const struct wd_opts *o)
{
	double t0 = wd_now();

	while (wd_session_poll(r->s, wd_wait_ms(t0, o->duration, 100))) {
		if (wd_pcapng_flush(&r->w))
			wd_record_write_error(r);
		/* -G: a new file on time, even while no drop comes */
		if (!r->broken && !r->w.err)
			wd_record_period_check(r, wd_monotonic_ns());
		if (wd_over(t0, o->duration))
			break;
	}
}

/* "written to drops.pcapng", or "to 3 files, the last drops.pcapng2" */
static void print_destination(const struct record *r)
{
	if (!rotating(r)) {
		fprintf(stderr, "%s", r->name);
		return;
	}
	fprintf(stderr, "%" PRIu64 " %s, the last %s", r->files,
		wd_plural(r->files, "file", "files"), r->name);
	if (r->file_size && r->filecount && r->files > r->filecount)
		fprintf(stderr, " (-W %u: the %u latest kept)", r->filecount, r->filecount);
}

static void summary(struct record *r, const struct wd_stats *st)
{
	uint64_t done = r->after_limit + r->after_files + total_written(r);
	uint64_t failed = r->received > done ? r->received - done : 0;
	uint64_t missed = st->rate_limited + st->v[WD_STAT_RING_FULL] +
			  r->after_limit + r->after_files + failed;

	fprintf(stderr, "whydrop: %" PRIu64 " %s counted, %" PRIu64 " written to ",
		st->seen, wd_plural(st->seen, "drop", "drops"), total_written(r));
	print_destination(r);
	fprintf(stderr, ", %" PRIu64 " not written (%" PRIu64 " over --rate, %" PRIu64
		" lost: ring buffer full", missed, st->rate_limited,
		st->v[WD_STAT_RING_FULL]);
	if (r->after_limit)
		fprintf(stderr, ", %" PRIu64 " after -c %" PRIu64, r->after_limit, r->limit);
	if (r->after_files)
		fprintf(stderr, ", %" PRIu64 " after the -W %u %s", r->after_files,
			r->filecount, wd_plural(r->filecount, "file", "files"));
	if (failed)
		fprintf(stderr, ", %" PRIu64 " failed to write", failed);
	fputc(')', stderr);
	if (r->cut_paged)
		fprintf(stderr, ", %" PRIu64 " written cut short: bytes in paged data, which "
			"the kernel side cannot read", r->cut_paged);
	wd_output_summary_end(st);
}

/*
 * --tcp: the TCP events as the drops' line says them. Records delivered but
 * not written (a write error, after -W's files) are "failed to write".
 */
static void tcp_summary(const struct record *r, const struct wd_tcp_stats *t)
{
	uint64_t written = tcp_written(r);

	fprintf(stderr, "whydrop: %" PRIu64 " TCP %s (resets, retransmissions) written, %"
		PRIu64 " over --rate, %" PRIu64 " lost: ring buffer full", written,
		wd_plural(written, "event", "events"), t->v[WD_TCP_STAT_RATE_LIMITED],
		t->v[WD_TCP_STAT_RING_FULL]);
	if (r->tcp_received > written)
		fprintf(stderr, ", %" PRIu64 " not written", r->tcp_received - written);
	fputc('\n', stderr);
}

/* Detach, drain, end the file; then say what was counted. */
static int finish(struct record *r)
{
	struct wd_tcp_stats tcp = { 0 };
	struct wd_snapshot snap;
	struct wd_stats st;
	int err;

	wd_session_detach(r->s);
	r->end_ns = wd_realtime_ns();
	err = wd_session_snapshot(r->s, &snap);
	if (!err) {
		st = snap.stats;
		if (snap.tcp)
			tcp = snap.tcp->stats;
		wd_snapshot_free(&snap);
	}
	if (!err && r->fd >= 0 && !r->w.err)
		wd_record_file_stats(r, &st, r->tcp ? &tcp : NULL);
	if (r->fd >= 0 && r->fd != STDOUT_FILENO && close(r->fd) && !r->w.err) {
		r->w.err = errno;
		wd_record_write_error(r);
	}
	r->fd = -1;
	if (err) {
		fprintf(stderr, "whydrop: cannot read the counts: %s\n", strerror(-err));
		return 1;
	}
	summary(r, &st);
	if (r->tcp)
		tcp_summary(r, &tcp);
	return r->w.err || r->broken ? 1 : 0;
}

static int check_opts(const struct record *r)
{
	const char *bad = NULL;

	if (!r->path || !r->path[0])
		bad = "-w FILE is needed (- for standard output)";
	else if (rotating(r) && !strcmp(r->path, "-"))
		bad = "-C and -G write files one after another: not with -w - (standard output)";
	else if (r->filecount && !rotating(r))
		bad = "-W goes with -C or -G";
	if (!bad)
		return 0;
	fprintf(stderr, "whydrop record: %s\n(`whydrop record -h` for help)\n", bad);
	return WD_EXIT_USAGE;
}

int cmd_record(int argc, char **argv)
{
	struct record r = { .fd = -1 };
	struct wd_session s;
	struct wd_cli cli;
	struct wd_opts *o = &cli.o;
	int status;

	if (wd_cli_parse(WD_CMD_RECORD, argc, argv, &cli, &status))
		return status;
	r.path = cli.write;
	r.limit = cli.packets;
	r.snaplen = cli.snaplen;
	r.file_size = cli.file_size;
	r.rotate_s = cli.rotate_s;
	r.filecount = cli.filecount;
	r.tcp = o->tcp;
	status = check_opts(&r);
	if (status)
		goto out;
	if (!o->rate_set)
		o->rate = RECORD_RATE;
	r.width = r.filecount ? wd_pcapng_count_width(r.filecount) : 0;
	/* Beyond the fixed-size record's 128 bytes, the program copies more. */
	o->record_bytes = r.snaplen;
	wd_install_signals();
	status = 1;
	if (wd_record_open_output(&r))
		goto out;
	r.s = &s;
	status = wd_session_open(&s, o, true, on_event, &r);
	if (status) {
		wd_record_discard_output(&r);
		goto out;
	}
	if (r.tcp)
		s.on_tcp = wd_record_tcp_event;
	r.start_ns = wd_realtime_ns();
	r.period_end = wd_monotonic_ns() + (uint64_t)r.rotate_s * NSEC_PER_SEC;
	if (wd_record_prepare_output(&r)) {
		/* said why; records still pending are counted as not written */
		r.w.err = r.w.err ? r.w.err : EIO;
		r.reported = true;
	} else if (wd_session_drop_privileges(&s)) {
		r.w.err = EPERM;
		r.reported = true;
	} else {
		record_loop(&r, o);
	}
	status = finish(&r);
	wd_session_close(&s);
out:
	wd_pcapng_writer_free(&r.w);
	if (r.fd >= 0 && r.fd != STDOUT_FILENO)
		close(r.fd);
	wd_cli_free(&cli);
	return status;
}
