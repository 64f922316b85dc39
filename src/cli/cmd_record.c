// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop record: every dropped packet that matches, to a pcapng file. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "pcapng.h"
#include "privileges.h"
#include "session.h"

#define RECORD_RATE	0	/* records/s when --rate is not given: no limit */

static const char usage[] =
"Usage: whydrop record -w FILE [-c COUNT] [-s SNAPLEN] [-d T] [-r REASON,...] [--netns NS]\n"
"                      [-i IFNAME] [--rate N] [FILTER]\n"
"Write every dropped packet that matches to a pcapng file for Wireshark/tshark:\n"
"the packet from its IP header (LINKTYPE_RAW), the kernel's timestamp (ns), the\n"
"original length, and a packet comment\n"
"  reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 netns=4026531840 code=3\n"
"(fields the kernel did not give are left out). Drops that are not IP are written\n"
"too, with no packet bytes (l3=arp, ...). The file is created mode 0600.\n"
"On exit, stderr says how many drops were counted, written and not written.\n"
"\n"
"  -w, --write FILE     the pcapng file; - for standard output (a pipe)\n"
"  -c, --count N        stop after N packets\n"
"  -s, --snaplen N      bytes kept per packet, 1 to 128 (default and most: 128,\n"
"                       what the kernel side copies from the network header)\n"
"  -d, --duration T     stop after T (5, 500ms, 1m); default: until Ctrl-C\n"
"  -r, --reason LIST    only these reasons\n"
"      --netns NS       only drops in this network namespace (ip netns name or path)\n"
"  -i, --interface IF   only drops on this interface\n"
"      --rate N         at most N packets per second (default and 0: no limit);\n"
"                       those over it are counted, not written\n"
"      --source S       bpf, dropmon (drop_monitor, no BPF; docs/dropmon.md),\n"
"                       or auto: BPF, else drop_monitor (default)\n"
"      --dropmon-mode M packet (reasons, packets) or summary (by location only)\n"
"      --dropmon-queue N  drop_monitor's per-CPU queue, in packets (1000)\n"
"      --stacks         the kernel stack of each drop in its packet comment\n"
"                       (stack=frame;frame;..., innermost first)\n"
"  -p, --processes      name the process of each drop's socket (as ss -p); keeps\n"
"                       CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH to read /proc/PID/fd\n"
"  -v, --verbose        libbpf diagnostics\n"
"\n"
"Examples:\n"
"  sudo whydrop record -w drops.pcapng -d 30\n"
"  sudo whydrop record -w drops.pcapng --netns blue -r NO_SOCKET -c 100\n"
"  sudo whydrop record -w - | tshark -r - -T fields -e ip.src -e frame.comment\n"
"  whydrop read drops.pcapng\n";

static const struct option record_longopts[] = {
	{ "write",	required_argument, NULL, 'w' },
	{ "count",	required_argument, NULL, 'c' },
	{ "snaplen",	required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

struct record {
	struct wd_session *s;
	struct wd_pcapng_writer w;
	const char *path;	/* as given; "-" is standard output */
	const char *name;	/* for messages */
	int fd;
	uint64_t limit;		/* -c, 0 = none */
	uint32_t snaplen;
	uint64_t received;	/* records delivered by the ring buffer */
	uint64_t after_limit;	/* received once -c was reached */
	uint64_t start_ns, end_ns;
	struct stat st;		/* of fd, once opened */
	bool created;		/* the file did not exist before */
	bool reported;		/* the write error was printed */
};

static int parse_num(const char *arg, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || arg[0] == '-' || *out < min || *out > max)
		return -1;
	return 0;
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
		if (parse_num(arg, 1, ULONG_MAX, &v))
			break;
		r->limit = v;
		return 0;
	case 's':
		/* Only what is honoured: 0 (tcpdump's whole packet) and more are not, yet. */
		if (parse_num(arg, 1, WD_HDR_BYTES, &v))
			break;
		r->snaplen = (uint32_t)v;
		return 0;
	}
	if (c == 's')
		fprintf(stderr, "whydrop record: bad -s '%s': 1 to %d bytes per packet; the "
			"kernel side copies at most %d bytes from the network header today, so "
			"more (and 0, the whole packet) cannot be honoured\n"
			"(`whydrop record -h` for help)\n", arg, WD_HDR_BYTES, WD_HDR_BYTES);
	else
		fprintf(stderr, "whydrop record: bad -c '%s': a number of packets, 1 or more\n"
			"(`whydrop record -h` for help)\n", arg);
	return -1;
}

static void report_write_error(struct record *r)
{
	if (r->reported || !r->w.err)
		return;
	r->reported = true;
	fprintf(stderr, "whydrop record: cannot write %s: %s; stopping\n", r->name,
		strerror(r->w.err));
	wd_stop = 1;
}

static int write_header(struct record *r)
{
	struct wd_pcapng_header h = {
		.userappl = "whydrop " WHYDROP_VERSION,
		.if_name = "whydrop",
		.if_description = "whydrop: kernel drops (skb:kfree_skb)",
		.linktype = WD_PCAPNG_LINKTYPE_RAW,
		.snaplen = r->snaplen,
	};
	struct utsname u;
	char os[sizeof(u.sysname) + sizeof(u.release)];

	if (!uname(&u)) {
		snprintf(os, sizeof(os), "%s %s", u.sysname, u.release);
		h.os = os;
		h.hardware = u.machine;
	}
	if (wd_pcapng_write_header(&r->w, &h)) {
		report_write_error(r);
		return -1;
	}
	return 0;
}

/*
 * Why whydrop, as root, will not write to what it opened: only a regular
 * file of the caller's own with no other name, a FIFO or a character device
 * (/dev/null). NULL when it may.
 */
static const char *refusal(const struct stat *st, char *buf, size_t len)
{
	if (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode))
		return NULL;
	if (!S_ISREG(st->st_mode))
		return "not a regular file, a FIFO or a character device";
	if (st->st_uid != geteuid()) {
		snprintf(buf, len, "it belongs to another user (uid %u); remove it or choose "
			 "another name", (unsigned int)st->st_uid);
		return buf;
	}
	if (st->st_nlink > 1)
		return "it has other hard links, which would be rewritten too; "
		       "remove it or choose another name";
	return NULL;
}

/* The kernel's reasons for refusing an open that are about what is there. */
static const char *open_refusal(int err)
{
	switch (err) {
	case ELOOP:
		return "it is a symbolic link, which whydrop does not follow; "
		       "give the path of what it points to";
	case EISDIR:
		return "it is a directory; give a file name";
	case ENXIO:
		return "not a regular file, a FIFO or a character device";
	}
	return NULL;
}

static int refuse(struct record *r, const char *why)
{
	fprintf(stderr, "whydrop record: not writing to %s: %s\n", r->path, why);
	return -1;
}

/*
 * Opened before tracing starts so that a bad path fails at once, but left
 * untouched until tracing works: an existing file is only truncated (and
 * made 0600) then, and a file created here is removed if tracing fails.
 * Run as root, the path must not make whydrop write elsewhere: no symbolic
 * link is followed, and what was opened is checked before it is touched.
 */
static int open_output(struct record *r)
{
	char buf[160];
	const char *why;

	if (!strcmp(r->path, "-")) {
		r->name = "standard output";
		r->fd = STDOUT_FILENO;
		if (fstat(r->fd, &r->st))
			r->st.st_mode = 0;
		if (!isatty(r->fd))
			return 0;
		fprintf(stderr, "whydrop record: not writing binary pcapng to a terminal; "
				"redirect or pipe standard output (-w - | tshark -r -)\n");
		return -1;
	}
	r->name = r->path;
	r->fd = open(r->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
		     0600);
	r->created = r->fd >= 0;
	if (r->fd < 0 && errno == EEXIST)
		r->fd = open(r->path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (r->fd < 0) {
		why = open_refusal(errno);
		if (why)
			return refuse(r, why);
		fprintf(stderr, "whydrop record: cannot create %s: %s\n", r->path,
			strerror(errno));
		return -1;
	}
	if (fstat(r->fd, &r->st)) {
		fprintf(stderr, "whydrop record: cannot stat %s: %s\n", r->path, strerror(errno));
		return -1;
	}
	why = r->created ? NULL : refusal(&r->st, buf, sizeof(buf));
	return why ? refuse(r, why) : 0;
}

/* Tracing could not start: leave no file behind that was not there. */
static void discard_output(struct record *r)
{
	struct stat now;

	/* Only the file created here, not whatever took its name since. */
	if (r->created && !lstat(r->path, &now) && now.st_dev == r->st.st_dev &&
	    now.st_ino == r->st.st_ino)
		unlink(r->path);
}

/*
 * A file opened here gets 0600 and is emptied; standard output (the
 * shell's redirection), pipes and devices are left as they are.
 */
static int prepare_output(struct record *r)
{
	bool regular = S_ISREG(r->st.st_mode) && r->fd != STDOUT_FILENO;

	if (regular && (r->st.st_mode & 07777) != 0600 && fchmod(r->fd, 0600)) {
		fprintf(stderr, "whydrop record: cannot make %s private (mode 0600): %s\n",
			r->name, strerror(errno));
		return -1;
	}
	if (regular && ftruncate(r->fd, 0)) {
		fprintf(stderr, "whydrop record: cannot truncate %s: %s\n", r->name,
			strerror(errno));
		return -1;
	}
	/* A reader at the other end of a pipe sees each packet at once. */
	if (wd_pcapng_writer_init(&r->w, r->fd, !S_ISREG(r->st.st_mode))) {
		fprintf(stderr, "whydrop record: out of memory\n");
		return -1;
	}
	return write_header(r);
}

static uint64_t now_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void on_event(void *ctx, const struct wd_event *ev)
{
	struct record *r = ctx;
	char reason[160], function[160], location[160];
	struct wd_drop_view v;
	size_t caplen = ev->caplen <= WD_HDR_BYTES ? ev->caplen : WD_HDR_BYTES;

	r->received++;
	if (r->w.err)
		return;
	if (r->limit && r->w.packets >= r->limit) {
		r->after_limit++;
		wd_stop = 1;
		return;
	}
	wd_session_view(r->s, ev, &v, reason, function, location, sizeof(reason));
	if (wd_pcapng_write_drop(&r->w, &v, ev->hdr, caplen, r->snaplen))
		report_write_error(r);
	if (r->limit && r->w.packets >= r->limit)
		wd_stop = 1;
}

static void record_loop(struct record *r, const struct wd_opts *o)
{
	double t0 = wd_now();

	while (wd_session_poll(r->s, 100)) {
		if (wd_pcapng_flush(&r->w))
			report_write_error(r);
		if (o->duration && wd_now() - t0 >= o->duration)
			break;
	}
}

/* The counts, also as an Interface Statistics Block that `read` uses. */
static void write_stats(struct record *r, const struct wd_stats *st)
{
	struct wd_pcapng_stats isb = {
		.has_start = true, .start_ns = r->start_ns,
		.has_end = true, .end_ns = r->end_ns,
		.has_ifrecv = true, .ifrecv = st->seen,
		.has_osdrop = true,
		.osdrop = st->v[WD_STAT_RATE_LIMITED] + st->v[WD_STAT_RING_FULL],
		.has_usrdeliv = true,
	};
	char comment[256];

	/* Written means on disk: flush first. */
	if (wd_pcapng_flush(&r->w)) {
		report_write_error(r);
		return;
	}
	isb.usrdeliv = r->w.written;
	snprintf(comment, sizeof(comment),
		 "whydrop: counted=%" PRIu64 " written=%" PRIu64 " rate_limited=%" PRIu64
		 " ring_full=%" PRIu64 " after_count=%" PRIu64 " lost_events=%" PRIu64,
		 st->seen, r->w.written, st->v[WD_STAT_RATE_LIMITED],
		 st->v[WD_STAT_RING_FULL], r->after_limit, st->recursion_misses);
	isb.comment = comment;
	if (wd_pcapng_write_stats(&r->w, &isb) || wd_pcapng_flush(&r->w))
		report_write_error(r);
}

static void summary(struct record *r, const struct wd_stats *st)
{
	uint64_t done = r->after_limit + r->w.written;
	uint64_t failed = r->received > done ? r->received - done : 0;
	uint64_t missed = st->v[WD_STAT_RATE_LIMITED] + st->v[WD_STAT_RING_FULL] +
			  r->after_limit + failed;

	fprintf(stderr,
		"whydrop: %" PRIu64 " drops counted, %" PRIu64 " written to %s, %" PRIu64
		" not written (%" PRIu64 " over --rate, %" PRIu64 " lost: ring buffer full",
		st->seen, r->w.written, r->name, missed,
		st->v[WD_STAT_RATE_LIMITED], st->v[WD_STAT_RING_FULL]);
	if (r->after_limit)
		fprintf(stderr, ", %" PRIu64 " after -c %" PRIu64, r->after_limit, r->limit);
	if (failed)
		fprintf(stderr, ", %" PRIu64 " failed to write", failed);
	fputc(')', stderr);
	if (st->recursion_misses)
		fprintf(stderr, ", %" PRIu64 " drops not traced (nested)", st->recursion_misses);
	if (st->filter_nonlinear)
		fprintf(stderr, ", %" PRIu64 " left out unmatched: the filter needed bytes in "
			"paged data", st->filter_nonlinear);
	fputc('\n', stderr);
}

/* Detach, drain, close the file; then say what was counted. */
static int finish(struct record *r)
{
	struct wd_stats st;
	int err;

	wd_session_detach(r->s);
	r->end_ns = now_realtime_ns();
	err = wd_session_stats(r->s, &st);
	if (!err)
		write_stats(r, &st);
	if (wd_pcapng_flush(&r->w))
		report_write_error(r);
	if (r->fd != STDOUT_FILENO && close(r->fd) && !r->w.err) {
		r->w.err = errno;
		report_write_error(r);
	}
	r->fd = -1;
	if (err) {
		fprintf(stderr, "whydrop: cannot read the counts: %s\n", strerror(-err));
		return 1;
	}
	summary(r, &st);
	return r->w.err ? 1 : 0;
}

static int check_opts(const struct record *r, const struct wd_opts *o)
{
	const char *bad = NULL;

	if (!r->path)
		bad = "-w FILE is needed (- for standard output)";
	else if (o->json)
		bad = "--json does not apply: record writes pcapng (`whydrop read --json FILE`)";
	if (!bad)
		return 0;
	fprintf(stderr, "whydrop record: %s\n(`whydrop record -h` for help)\n", bad);
	return WD_EXIT_USAGE;
}

int cmd_record(int argc, char **argv)
{
	struct record r = { .snaplen = WD_HDR_BYTES, .fd = -1 };
	struct wd_extra_opts extra = {
		.shortopts = "w:c:s:", .longopts = record_longopts,
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
	wd_install_signals();
	status = 1;
	if (open_output(&r))
		goto out;
	r.s = &s;
	status = wd_session_open(&s, &o, true, on_event, &r);
	if (status) {
		discard_output(&r);
		goto out;
	}
	r.start_ns = now_realtime_ns();
	if (prepare_output(&r)) {
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
