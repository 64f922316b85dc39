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
#include "options.h"
#include "record.h"

#define RECORD_RATE	0	/* records/s when --rate is not given: no limit */

static const char usage[] =
"Usage: whydrop record -w FILE [-c COUNT] [-s SNAPLEN] [-C FILE_SIZE]\n"
"                      [-G SECONDS] [-W FILECOUNT] [-d T] [-r REASON,...]\n"
"                      [--netns NS] [-i IFNAME] [--rate N] [FILTER]\n"
"Write every dropped packet that matches to a pcapng file for Wireshark/tshark:\n"
"the packet from its IP header (LINKTYPE_RAW), the kernel's timestamp (ns), the\n"
"original length, and a packet comment\n"
"  reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 netns=4026531840 code=3\n"
"(fields the kernel did not give are left out). Drops that are not IP are written\n"
"too, with no packet bytes (l3=arp, ...). Files are created mode 0600.\n"
"On exit, stderr says how many drops were counted, written and not written.\n"
"\n"
"  -w, --write FILE     the pcapng file; - for standard output (a pipe)\n"
"  -c, --count N        stop after N packets\n"
"  -s, --snaplen N      bytes kept per packet: 0 (the default) for the whole\n"
"                       packet, or 1 to 262144. The kernel side copies the\n"
"                       packet's linear data, at most 65536 bytes; bytes in paged\n"
"                       data cannot be read: such packets are cut short (counted)\n"
"  -C FILE_SIZE         start a new file before one would grow past FILE_SIZE\n"
"                       millions of bytes (k, m, g: KiB, MiB, GiB), as tcpdump:\n"
"                       FILE, then FILE1, FILE2, ...\n"
"  -G SECONDS           start a new file every SECONDS; FILE may hold strftime(3)\n"
"                       conversions (drops-%H%M%S.pcapng)\n"
"  -W FILECOUNT         with -C: a ring of FILECOUNT files, FILE0, FILE1, ...\n"
"                       (zero-padded), the oldest overwritten; with -G alone:\n"
"                       stop after FILECOUNT files\n"
"  -d, --duration T     stop after T (5, 500ms, 1m); default: until Ctrl-C\n"
"  -r, --reason LIST    only these reasons\n"
"      --netns NS       only drops in this network namespace (ip netns name or path)\n"
"  -i, --interface IF   only drops on this interface\n"
"      --rate N         at most N packets per second (default and 0: no limit);\n"
"                       those over it are counted, not written\n"
WD_USAGE_SOURCE
"      --stacks         the kernel stack of each drop in its packet comment\n"
"                       (stack=frame;frame;..., innermost first)\n"
"  -p, --processes      name the process of each drop's socket (as ss -p); keeps\n"
"                       CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH to read /proc/PID/fd\n"
"  -v, --verbose        libbpf diagnostics\n"
"\n"
"Examples:\n"
"  sudo whydrop record -w drops.pcapng -d 30\n"
"  sudo whydrop record -w drops.pcapng -s 200 --netns blue -r NO_SOCKET -c 100\n"
"  sudo whydrop record -w drops.pcapng -C 100 -W 10   # <= 10 files of 100 MB\n"
"  sudo whydrop record -w drops-%Y%m%d-%H.pcapng -G 3600\n"
"  sudo whydrop record -w - | tshark -r - -T fields -e ip.src -e frame.comment\n"
"  whydrop read drops.pcapng\n";

static const struct option record_longopts[] = {
	{ "write",	required_argument, NULL, 'w' },
	{ "count",	required_argument, NULL, 'c' },
	{ "snaplen",	required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

static int bad_option(int c, const char *arg)
{
	static const char *const want[128] = {
		['c'] = "a number of packets, 1 or more",
		['s'] = "0 (the whole packet) or 1 to 262144 bytes per packet",
		['C'] = "a file size in millions of bytes, 1 or more, or with a k, m or g "
			"suffix (KiB, MiB, GiB)",
		['G'] = "a number of seconds, 1 or more",
		['W'] = "a number of files, 1 or more",
	};

	fprintf(stderr, "whydrop record: bad -%c '%s': %s\n(`whydrop record -h` for help)\n",
		c, arg, want[c & 127] ? want[c & 127] : "?");
	return -1;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct record *r = ctx;
	unsigned long v;

	switch (c) {
	case 'w':
		r->path = arg;
		return 0;
	case 'c':
		if (wd_parse_ulong(arg, 1, ULONG_MAX, &v))
			break;
		r->limit = v;
		return 0;
	case 's':
		/* tcpdump's: 0 is the whole packet, which is its largest snaplen */
		if (wd_parse_ulong(arg, 0, WD_SNAPLEN_MAX, &v))
			break;
		r->snaplen = v ? (uint32_t)v : WD_SNAPLEN_MAX;
		return 0;
	case 'C':
		if (wd_pcapng_parse_file_size(arg, &r->file_size))
			break;
		return 0;
	case 'G':
		if (wd_parse_ulong(arg, 1, UINT32_MAX, &v))
			break;
		r->rotate_s = (uint32_t)v;
		return 0;
	case 'W':
		if (wd_parse_ulong(arg, 1, INT_MAX, &v))
			break;
		r->filecount = (uint32_t)v;
		return 0;
	}
	return bad_option(c, arg);
}

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

	while (wd_session_poll(r->s, 100)) {
		if (wd_pcapng_flush(&r->w))
			wd_record_write_error(r);
		/* -G: a new file on time, even while no drop comes */
		if (!r->broken && !r->w.err)
			wd_record_period_check(r, wd_monotonic_ns());
		if (o->duration && wd_now() - t0 >= o->duration)
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
	fprintf(stderr, "%" PRIu64 " file%s, the last %s", r->files, r->files == 1 ? "" : "s",
		r->name);
	if (r->file_size && r->filecount && r->files > r->filecount)
		fprintf(stderr, " (-W %u: the %u latest kept)", r->filecount, r->filecount);
}

static void summary(struct record *r, const struct wd_stats *st)
{
	uint64_t done = r->after_limit + r->after_files + total_written(r);
	uint64_t failed = r->received > done ? r->received - done : 0;
	uint64_t missed = st->v[WD_STAT_RATE_LIMITED] + st->v[WD_STAT_RING_FULL] +
			  r->after_limit + r->after_files + failed;

	fprintf(stderr, "whydrop: %" PRIu64 " drops counted, %" PRIu64 " written to ",
		st->seen, total_written(r));
	print_destination(r);
	fprintf(stderr, ", %" PRIu64 " not written (%" PRIu64 " over --rate, %" PRIu64
		" lost: ring buffer full", missed, st->v[WD_STAT_RATE_LIMITED],
		st->v[WD_STAT_RING_FULL]);
	if (r->after_limit)
		fprintf(stderr, ", %" PRIu64 " after -c %" PRIu64, r->after_limit, r->limit);
	if (r->after_files)
		fprintf(stderr, ", %" PRIu64 " after the -W %u files", r->after_files,
			r->filecount);
	if (failed)
		fprintf(stderr, ", %" PRIu64 " failed to write", failed);
	fputc(')', stderr);
	if (r->cut_paged)
		fprintf(stderr, ", %" PRIu64 " written cut short: bytes in paged data, which "
			"the kernel side cannot read", r->cut_paged);
	if (st->recursion_misses)
		fprintf(stderr, ", %" PRIu64 " drops not traced (nested)", st->recursion_misses);
	if (st->filter_nonlinear)
		fprintf(stderr, ", %" PRIu64 " left out unmatched: the filter needed bytes in "
			"paged data", st->filter_nonlinear);
	fputc('\n', stderr);
}

/* Detach, drain, end the file; then say what was counted. */
static int finish(struct record *r)
{
	struct wd_stats st;
	int err;

	wd_session_detach(r->s);
	r->end_ns = wd_realtime_ns();
	err = wd_session_stats(r->s, &st);
	if (!err && r->fd >= 0 && !r->w.err)
		wd_record_file_stats(r, &st);
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
	return r->w.err || r->broken ? 1 : 0;
}

static int check_opts(const struct record *r, const struct wd_opts *o)
{
	const char *bad = NULL;

	if (!r->path || !r->path[0])
		bad = "-w FILE is needed (- for standard output)";
	else if (o->json)
		bad = "--json does not apply: record writes pcapng (`whydrop read --json FILE`)";
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
	struct record r = { .snaplen = WD_SNAPLEN_MAX, .fd = -1 };
	struct wd_extra_opts extra = {
		.shortopts = "w:c:s:C:G:W:", .longopts = record_longopts,
		.handle = on_option, .ctx = &r,
	};
	struct wd_session s;
	struct wd_opts o;
	int status;

	if (wd_parse_opts_extra(argc, argv, &o, usage, &extra, &status))
		goto out;
	status = check_opts(&r, &o);
	if (status)
		goto out;
	if (!o.rate_set)
		o.rate = RECORD_RATE;
	r.width = r.filecount ? wd_pcapng_count_width(r.filecount) : 0;
	/* Beyond the fixed-size record's 128 bytes, the program copies more. */
	wd_record_bytes = r.snaplen;
	wd_install_signals();
	status = 1;
	if (wd_record_open_output(&r))
		goto out;
	r.s = &s;
	status = wd_session_open(&s, &o, true, on_event, &r);
	if (status) {
		wd_record_discard_output(&r);
		goto out;
	}
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
		record_loop(&r, &o);
	}
	status = finish(&r);
	wd_session_close(&s);
out:
	wd_pcapng_writer_free(&r.w);
	if (r.fd >= 0 && r.fd != STDOUT_FILENO)
		close(r.fd);
	wd_opts_free(&o);
	return status;
}
