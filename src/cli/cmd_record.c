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

/* Room kept in each -C file for the statistics block that ends it. */
#define ISB_RESERVE	512
#define NSEC_PER_SEC	1000000000ULL

struct record {
	struct wd_session *s;
	struct wd_pcapng_writer w;	/* of the current file */
	const char *path;	/* -w as given; "-" is standard output */
	char name[PATH_MAX];	/* the current file's name, for messages */
	int fd;
	uint64_t limit;		/* -c, 0 = none */
	uint32_t snaplen;	/* -s; 0 was made WD_SNAPLEN_MAX */
	uint64_t file_size;	/* -C, in bytes; 0 = none */
	uint32_t rotate_s;	/* -G, 0 = none */
	uint32_t filecount;	/* -W, 0 = none */
	unsigned int width;	/* digits of the -C number (-W) */
	unsigned int number;	/* -C: the number in the current file's name */
	uint64_t files;		/* files opened and written to */
	uint64_t period_end;	/* -G: CLOCK_MONOTONIC ns at which the current file ends */
	time_t period_time;	/* -G: the wall clock its name was made from */
	uint64_t file_start_ns;	/* the current file's start, wall clock */
	uint64_t packets;	/* packets accepted into files closed before this one */
	uint64_t written;	/* ... and written */
	uint64_t received;	/* records delivered by the ring buffer */
	uint64_t after_limit;	/* received once -c was reached */
	uint64_t after_files;	/* received once -G's -W files were done */
	uint64_t cut_paged;	/* written shorter than wanted: paged data */
	uint64_t start_ns, end_ns;
	struct stat st;		/* of fd, once opened */
	bool created;		/* the first file did not exist before */
	bool reported;		/* the write error was printed */
	bool broken;		/* a file failed: nothing more is written, exit 1 */
	bool files_done;	/* -G -W: the last file's time is over */
};

static bool rotating(const struct record *r)
{
	return r->file_size || r->rotate_s;
}

static uint64_t total_packets(const struct record *r)
{
	return r->packets + r->w.packets;
}

static uint64_t total_written(const struct record *r)
{
	return r->written + r->w.written;
}

static int parse_num(const char *arg, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || arg[0] == '-' || *out < min || *out > max)
		return -1;
	return 0;
}

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
		if (parse_num(arg, 1, ULONG_MAX, &v))
			break;
		r->limit = v;
		return 0;
	case 's':
		/* tcpdump's: 0 is the whole packet, which is its largest snaplen */
		if (parse_num(arg, 0, WD_SNAPLEN_MAX, &v))
			break;
		r->snaplen = v ? (uint32_t)v : WD_SNAPLEN_MAX;
		return 0;
	case 'C':
		if (wd_pcapng_parse_file_size(arg, &r->file_size))
			break;
		return 0;
	case 'G':
		if (parse_num(arg, 1, UINT32_MAX, &v))
			break;
		r->rotate_s = (uint32_t)v;
		return 0;
	case 'W':
		if (parse_num(arg, 1, INT_MAX, &v))
			break;
		r->filecount = (uint32_t)v;
		return 0;
	}
	return bad_option(c, arg);
}

static void report_write_error(struct record *r)
{
	if (r->reported || !r->w.err)
		return;
	r->reported = true;
	r->broken = true;	/* for the files after this one too */
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

static int refuse(const char *path, const char *why)
{
	fprintf(stderr, "whydrop record: not writing to %s: %s\n", path, why);
	return -1;
}

/*
 * Open path for writing, as root, without letting it make whydrop write
 * elsewhere: no symbolic link is followed, and what was opened is checked
 * (refusal()) before anything is written. Every file of a recording comes
 * here, the rotated ones too. The fd, or -1 after saying why.
 */
static int open_checked(const char *path, struct stat *st, bool *created)
{
	char buf[160];
	const char *why;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		why = open_refusal(errno);
		if (why)
			return refuse(path, why);
		fprintf(stderr, "whydrop record: cannot create %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, st)) {
		fprintf(stderr, "whydrop record: cannot stat %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	why = *created ? NULL : refusal(st, buf, sizeof(buf));
	if (why) {
		close(fd);
		return refuse(path, why);
	}
	return fd;
}

/* The name of the next file: -G's strftime(3) conversions, -C's number. */
static int make_name(struct record *r, char *buf, size_t len)
{
	struct tm tm;
	int err;

	if (r->rotate_s && !localtime_r(&r->period_time, &tm))
		return -EINVAL;
	err = wd_pcapng_file_name(buf, len, r->path, r->rotate_s ? &tm : NULL,
				  r->file_size ? r->number : 0, r->file_size ? r->width : 0);
	if (err)
		fprintf(stderr, "whydrop record: cannot make a file name of '%s'%s: %s\n",
			r->path, r->rotate_s ? " (strftime)" : "", strerror(-err));
	return err;
}

/*
 * Once attached, whydrop runs with no capability: a rotated file is created
 * with the plain permissions of its user id (root's too). Where the
 * directory's mode does not allow that, say so before tracing starts.
 */
static int check_rotation_dir(const struct record *r)
{
	char dir[PATH_MAX], *slash;
	gid_t groups[256];
	struct stat st;
	mode_t need;
	int n;

	snprintf(dir, sizeof(dir), "%s", r->name);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	if (stat(dir, &st))
		return 0;	/* opening the first file said what is wrong */
	if (st.st_uid == geteuid()) {
		need = S_IWUSR | S_IXUSR;
	} else {
		need = S_IWOTH | S_IXOTH;
		if (st.st_gid == getegid())
			need = S_IWGRP | S_IXGRP;
		n = getgroups(sizeof(groups) / sizeof(groups[0]), groups);
		for (int i = 0; i < n; i++)
			if (groups[i] == st.st_gid)
				need = S_IWGRP | S_IXGRP;
	}
	if ((st.st_mode & need) == need)
		return 0;
	fprintf(stderr, "whydrop record: cannot rotate files in %s: once attached whydrop "
		"runs without capabilities, and its mode (%04o, owner uid %u) does not let uid "
		"%u create files there; choose a directory it may write to\n", dir,
		(unsigned int)(st.st_mode & 07777), (unsigned int)st.st_uid,
		(unsigned int)geteuid());
	return -1;
}

/*
 * The first file. Opened before tracing starts so that a bad path fails at
 * once, but left untouched until tracing works: an existing file is only
 * truncated (and made 0600) then, and a file created here is removed if
 * tracing fails.
 */
static int open_output(struct record *r)
{
	if (!strcmp(r->path, "-")) {
		snprintf(r->name, sizeof(r->name), "standard output");
		r->fd = STDOUT_FILENO;
		if (fstat(r->fd, &r->st))
			r->st.st_mode = 0;
		if (!isatty(r->fd))
			return 0;
		fprintf(stderr, "whydrop record: not writing binary pcapng to a terminal; "
				"redirect or pipe standard output (-w - | tshark -r -)\n");
		return -1;
	}
	r->period_time = time(NULL);
	if (make_name(r, r->name, sizeof(r->name)))
		return -1;
	if (rotating(r) && check_rotation_dir(r))
		return -1;
	r->fd = open_checked(r->name, &r->st, &r->created);
	return r->fd < 0 ? -1 : 0;
}

/* Tracing could not start: leave no file behind that was not there. */
static void discard_output(struct record *r)
{
	struct stat now;

	/* Only the file created here, not whatever took its name since. */
	if (r->created && !lstat(r->name, &now) && now.st_dev == r->st.st_dev &&
	    now.st_ino == r->st.st_ino)
		unlink(r->name);
}

static uint64_t now_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static uint64_t now_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
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
	r->files++;
	r->file_start_ns = now_realtime_ns();
	return write_header(r);
}

/*
 * The statistics block that ends a file; st is NULL for a file closed by a
 * rotation. Unrotated, it counts for the whole recording (isb_ifrecv: drops
 * counted). Once rotated, each file's says what that file holds (its time,
 * isb_usrdeliv: its packets), and the comment of the last one has the
 * totals of the recording.
 */
static void write_file_stats(struct record *r, const struct wd_stats *st)
{
	struct wd_pcapng_stats isb = {
		.has_start = true, .start_ns = r->file_start_ns,
		.has_end = true, .end_ns = st ? r->end_ns : now_realtime_ns(),
		.has_usrdeliv = true,
	};
	char comment[320];
	int n;

	/* Written means on disk: flush first. */
	if (wd_pcapng_flush(&r->w)) {
		report_write_error(r);
		return;
	}
	isb.usrdeliv = r->w.written;
	if (!st) {
		snprintf(comment, sizeof(comment), "whydrop: file %" PRIu64 " of a rotated "
			 "recording, written=%" PRIu64 "; the totals are in its last file",
			 r->files, r->w.written);
	} else {
		n = snprintf(comment, sizeof(comment), "whydrop: counted=%" PRIu64
			     " written=%" PRIu64 " rate_limited=%" PRIu64 " ring_full=%" PRIu64
			     " after_count=%" PRIu64 " lost_events=%" PRIu64
			     " cut_paged=%" PRIu64, st->seen, total_written(r),
			     st->v[WD_STAT_RATE_LIMITED], st->v[WD_STAT_RING_FULL], r->after_limit,
			     st->recursion_misses, r->cut_paged);
		if (rotating(r) && n > 0 && (size_t)n < sizeof(comment))
			snprintf(comment + n, sizeof(comment) - (size_t)n, " after_files=%" PRIu64
				 " files=%" PRIu64, r->after_files, r->files);
	}
	if (st && r->files == 1) {
		isb.has_ifrecv = isb.has_osdrop = true;
		isb.ifrecv = st->seen;
		isb.osdrop = st->v[WD_STAT_RATE_LIMITED] + st->v[WD_STAT_RING_FULL];
	}
	isb.comment = comment;
	if (wd_pcapng_write_stats(&r->w, &isb) || wd_pcapng_flush(&r->w))
		report_write_error(r);
}

/* End the current file; its packets are added to the recording's. */
static void close_file(struct record *r, const struct wd_stats *st)
{
	if (r->fd < 0)
		return;
	if (!r->w.err)
		write_file_stats(r, st);
	if (r->fd != STDOUT_FILENO && close(r->fd) && !r->w.err) {
		r->w.err = errno;
		report_write_error(r);
	}
	r->fd = -1;
	r->packets += r->w.packets;
	r->written += r->w.written;
	r->w.packets = r->w.written = 0;
	wd_pcapng_writer_free(&r->w);
}

/*
 * The next file of a rotated recording: opened and checked first, the
 * current one ended after (with -W, or a name without -G's conversions,
 * the next file may be the current one), and only then emptied. If it
 * cannot be opened the recording stops in the current file.
 */
static int next_file(struct record *r, bool new_period)
{
	unsigned int number = new_period ? 0 : r->number + 1;
	char name[sizeof(r->name)];
	struct stat st;
	bool created;
	int fd;

	if (r->filecount && number >= r->filecount)
		number = 0;
	if (new_period) {
		r->period_time = time(NULL);
		/* Periods follow each other; one missed (a stall) is skipped. */
		do
			r->period_end += (uint64_t)r->rotate_s * NSEC_PER_SEC;
		while (r->period_end <= now_monotonic_ns());
	}
	r->number = number;
	if (make_name(r, name, sizeof(name)))
		goto fail;
	fd = open_checked(name, &st, &created);
	if (fd < 0)
		goto fail;
	close_file(r, NULL);
	if (r->broken) {	/* ending the current file failed: said, stopping */
		close(fd);
		if (created)
			unlink(name);
		return -1;
	}
	r->fd = fd;
	r->st = st;
	memcpy(r->name, name, sizeof(name));
	if (prepare_output(r)) {
		r->broken = true;
		r->reported = true;
		wd_stop = 1;
		return -1;
	}
	return 0;
fail:
	fprintf(stderr, "whydrop record: stopping; %s is the last file\n", r->name);
	r->broken = true;
	r->reported = true;
	wd_stop = 1;
	return -1;
}

/*
 * -G: the current file's time is over at now (CLOCK_MONOTONIC ns): the next
 * file, or with -W and no -C the end once -W files were written (the last
 * one stays open for the totals). False when nothing more may be written.
 */
static bool period_check(struct record *r, uint64_t now)
{
	if (!r->rotate_s || r->files_done || now < r->period_end)
		return !r->files_done;
	if (!r->file_size && r->filecount && r->files >= r->filecount) {
		fprintf(stderr, "whydrop record: %u files written (-W %u): stopping\n",
			r->filecount, r->filecount);
		r->files_done = true;
		wd_stop = 1;
		return false;
	}
	return !next_file(r, true);
}

/* -C: a new file before this packet block would take the file past the size. */
static bool size_check(struct record *r, size_t block)
{
	if (!r->file_size || !r->w.packets ||
	    r->w.bytes + block + ISB_RESERVE <= r->file_size)
		return true;
	return !next_file(r, false);
}

static void on_event(void *ctx, const struct wd_event *ev)
{
	struct record *r = ctx;
	char reason[160], function[160], location[160], comment[4096];
	struct wd_pcapng_packet p = { .data = ev->hdr, .comment = comment };
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
	p.ts_ns = v.ts_realtime_ns;
	/* caplen bytes from hdr[] on: the session checked the record holds them */
	wd_pcapng_drop_lengths(&v, ev->hdr, ev->caplen, r->snaplen, &p.caplen, &p.origlen);
	wd_pcapng_drop_comment(&v, comment, sizeof(comment));
	if (!period_check(r, ev->ts_ns)) {
		r->after_files += r->files_done;
		return;
	}
	if (!size_check(r, wd_pcapng_packet_size(&p)))
		return;
	if (wd_pcapng_write_packet(&r->w, &p)) {
		report_write_error(r);
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
			report_write_error(r);
		/* -G: a new file on time, even while no drop comes */
		if (!r->broken && !r->w.err)
			period_check(r, now_monotonic_ns());
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
	r->end_ns = now_realtime_ns();
	err = wd_session_stats(r->s, &st);
	if (!err && r->fd >= 0 && !r->w.err)
		write_file_stats(r, &st);
	if (r->fd >= 0 && r->fd != STDOUT_FILENO && close(r->fd) && !r->w.err) {
		r->w.err = errno;
		report_write_error(r);
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
	if (open_output(&r))
		goto out;
	r.s = &s;
	status = wd_session_open(&s, &o, true, on_event, &r);
	if (status) {
		discard_output(&r);
		goto out;
	}
	r.start_ns = now_realtime_ns();
	r.period_end = now_monotonic_ns() + (uint64_t)r.rotate_s * NSEC_PER_SEC;
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
