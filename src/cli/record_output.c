// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop record's files: opened without following links nor writing to
 * what another user owns (src/lib/base/safe_open.c), rotated as tcpdump does (-C, -G,
 * -W), each one complete: header, packets, and a statistics block at its end.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "format.h"
#include "record.h"
#include "cli_open.h"
#include "safe_open.h"
#include "source_tcp.h"

void wd_record_write_error(struct record *r)
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
	char host[sizeof(u.nodename) + 16];

	/* --tcp: a second interface, so that no reader takes its packets for drops */
	if (r->tcp) {
		h.if2_name = "whydrop-tcp";
		h.if2_description = "whydrop: TCP resets and retransmissions (tcp: tracepoints), "
				    "headers synthesized from the event, no payload";
		h.if2_snaplen = 60;
	}
	if (!uname(&u)) {
		snprintf(os, sizeof(os), "%s %s", u.sysname, u.release);
		h.os = os;
		h.hardware = u.machine;
		/* read --group-by host tells recordings of several hosts apart by it */
		snprintf(host, sizeof(host), "whydrop: host=%s", u.nodename);
		h.comment = host;
	}
	if (wd_pcapng_write_header(&r->w, &h)) {
		wd_record_write_error(r);
		return -1;
	}
	return 0;
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

int wd_record_open_output(struct record *r)
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
	r->fd = wd_open_checked("record", r->name, &r->st, &r->created);
	return r->fd < 0 ? -1 : 0;
}

void wd_record_discard_output(struct record *r)
{
	if (r->created)
		wd_unlink_created(r->name, &r->st);
}

uint64_t wd_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t wd_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/*
 * A file opened here gets 0600 and is emptied; standard output (the
 * shell's redirection), pipes and devices are left as they are.
 */
int wd_record_prepare_output(struct record *r)
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
	r->file_start_ns = wd_realtime_ns();
	return write_header(r);
}

/*
 * The statistics block that ends a file; st is NULL for a file closed by a
 * rotation. Unrotated, it counts for the whole recording (isb_ifrecv: drops
 * counted). Once rotated, each file's says what that file holds (its time,
 * isb_usrdeliv: its packets), and the comment of the last one has the
 * totals of the recording.
 */
void wd_record_file_stats(struct record *r, const struct wd_stats *st,
			  const struct wd_tcp_stats *tcp)
{
	struct wd_pcapng_stats isb = {
		.has_start = true, .start_ns = r->file_start_ns,
		.has_end = true, .end_ns = st ? r->end_ns : wd_realtime_ns(),
		.has_usrdeliv = true,
	};
	char comment[512];
	int n;

	/* Written means on disk: flush first. */
	if (wd_pcapng_flush(&r->w)) {
		wd_record_write_error(r);
		return;
	}
	isb.usrdeliv = r->w.written;
	if (!st) {
		n = snprintf(comment, sizeof(comment), "whydrop: file %" PRIu64 " of a rotated "
			     "recording, written=%" PRIu64 "; the totals are in its last file",
			     r->files, r->w.written);
		if (r->tcp && n > 0 && (size_t)n < sizeof(comment))
			snprintf(comment + n, sizeof(comment) - (size_t)n, " tcp_written=%"
				 PRIu64, r->w.other_written);
	} else {
		n = snprintf(comment, sizeof(comment), "whydrop: counted=%" PRIu64
			     " written=%" PRIu64 " rate_limited=%" PRIu64 " ring_full=%" PRIu64
			     " after_count=%" PRIu64 " lost_events=%" PRIu64
			     " cut_paged=%" PRIu64, st->seen, total_written(r),
			     st->rate_limited, st->v[WD_STAT_RING_FULL], r->after_limit,
			     st->recursion_misses, r->cut_paged);
		if (rotating(r) && n > 0 && (size_t)n < sizeof(comment))
			n += snprintf(comment + n, sizeof(comment) - (size_t)n, " after_files=%"
				      PRIu64 " files=%" PRIu64, r->after_files, r->files);
		if (tcp && n > 0 && (size_t)n < sizeof(comment))
			snprintf(comment + n, sizeof(comment) - (size_t)n, " tcp_records=%" PRIu64
				 " tcp_written=%" PRIu64 " tcp_rate_limited=%" PRIu64
				 " tcp_ring_full=%" PRIu64, r->tcp_received, tcp_written(r),
				 tcp->v[WD_TCP_STAT_RATE_LIMITED], tcp->v[WD_TCP_STAT_RING_FULL]);
	}
	if (st && r->files == 1) {
		isb.has_ifrecv = isb.has_osdrop = true;
		isb.ifrecv = st->seen;
		isb.osdrop = st->rate_limited + st->v[WD_STAT_RING_FULL];
	}
	isb.comment = comment;
	if (wd_pcapng_write_stats(&r->w, &isb) || wd_pcapng_flush(&r->w))
		wd_record_write_error(r);
}

/* End the current file; its packets are added to the recording's. */
static void close_file(struct record *r, const struct wd_stats *st)
{
	if (r->fd < 0)
		return;
	if (!r->w.err)
		wd_record_file_stats(r, st, NULL);
	if (r->fd != STDOUT_FILENO && close(r->fd) && !r->w.err) {
		r->w.err = errno;
		wd_record_write_error(r);
	}
	r->fd = -1;
	r->packets += r->w.packets;
	r->written += r->w.written;
	r->tcp_packets += r->w.other_packets;
	r->tcp_written += r->w.other_written;
	r->w.packets = r->w.written = 0;
	r->w.other_packets = r->w.other_written = 0;
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
		while (r->period_end <= wd_monotonic_ns());
	}
	r->number = number;
	if (make_name(r, name, sizeof(name)))
		goto fail;
	fd = wd_open_checked("record", name, &st, &created);
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
	if (wd_record_prepare_output(r)) {
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
bool wd_record_period_check(struct record *r, uint64_t now)
{
	if (!r->rotate_s || r->files_done || now < r->period_end)
		return !r->files_done;
	if (!r->file_size && r->filecount && r->files >= r->filecount) {
		fprintf(stderr, "whydrop record: %u %s written (-W %u): stopping\n",
			r->filecount, wd_plural(r->filecount, "file", "files"), r->filecount);
		r->files_done = true;
		wd_stop = 1;
		return false;
	}
	return !next_file(r, true);
}

/* -C: a new file before this packet block would take the file past the size. */
bool wd_record_size_check(struct record *r, size_t block)
{
	if (!r->file_size || !(r->w.packets + r->w.other_packets) ||
	    r->w.bytes + block + ISB_RESERVE <= r->file_size)
		return true;
	return !next_file(r, false);
}
