/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop record, between its files: cmd_record.c (options, records, the
 * summary) and record_output.c (the files: opened safely as root, emptied
 * once tracing works, rotated with -C/-G/-W, each ended by its statistics).
 */
#ifndef WD_RECORD_H
#define WD_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "pcapng_write.h"
#include "session.h"

/* Room kept in each -C file for the statistics block that ends it. */
#define ISB_RESERVE	512
#define NSEC_PER_SEC	1000000000ULL
/* record --tcp: the interface of the TCP events' packets (record_tcp.c) */
#define WD_RECORD_TCP_IF	1

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
	/* --tcp: resets and retransmissions, on interface WD_RECORD_TCP_IF */
	bool tcp;
	uint64_t tcp_received;	/* records delivered by the TCP source's ring buffer */
	uint64_t tcp_packets, tcp_written;	/* of files closed before this one */
	uint64_t start_ns, end_ns;
	struct stat st;		/* of fd, once opened */
	bool created;		/* the first file did not exist before */
	bool reported;		/* the write error was printed */
	bool broken;		/* a file failed: nothing more is written, exit 1 */
	bool files_done;	/* -G -W: the last file's time is over */
};

static inline bool rotating(const struct record *r)
{
	return r->file_size || r->rotate_s;
}

static inline uint64_t total_packets(const struct record *r)
{
	return r->packets + r->w.packets;
}

static inline uint64_t total_written(const struct record *r)
{
	return r->written + r->w.written;
}

static inline uint64_t tcp_written(const struct record *r)
{
	return r->tcp_written + r->w.other_written;
}

/* The first write error, once: said, the recording stops (exit 1). */
void wd_record_write_error(struct record *r);
/*
 * The first file. Opened before tracing starts so that a bad path fails at
 * once, but left untouched until tracing works: an existing file is only
 * truncated (and made 0600) then, and a file created here is removed if
 * tracing fails. 0, or -1 after saying why.
 */
int wd_record_open_output(struct record *r);
/* Tracing could not start: leave no file behind that was not there. */
void wd_record_discard_output(struct record *r);
/* Tracing works: the file emptied (made 0600) and its header written. 0 or -1. */
int wd_record_prepare_output(struct record *r);
/*
 * The statistics block that ends a file; st is NULL for a file closed by a
 * rotation.
 */
struct wd_tcp_stats;
void wd_record_file_stats(struct record *r, const struct wd_stats *st,
			  const struct wd_tcp_stats *tcp);
/* -G: the next file once the current file's time is over; false: nothing more. */
bool wd_record_period_check(struct record *r, uint64_t now);
/* -C: the next file before a block of this size would take it past -C. */
bool wd_record_size_check(struct record *r, size_t block);

struct wd_tcp_event;
/* --tcp: a TCP event's packet (60 bytes at least in buf); its length. */
size_t wd_record_tcp_packet(const struct wd_tcp_event *ev, uint8_t *buf);
/* --tcp: the session's callback for a TCP event, ctx a struct record. */
void wd_record_tcp_event(void *ctx, const struct wd_tcp_event *ev);

/* The clocks, in nanoseconds. */
uint64_t wd_realtime_ns(void);
uint64_t wd_monotonic_ns(void);

#endif /* WD_RECORD_H */
