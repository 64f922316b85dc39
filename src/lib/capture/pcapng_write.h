/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pcapng writer of `whydrop record`. Files written: one Section Header
 * Block (host byte order), one Interface Description Block (LINKTYPE_RAW,
 * if_tsresol 9), one Enhanced Packet Block per drop with its comment
 * (drop_comment.h), and an Interface Statistics Block at the end with the
 * counts. Rotated recordings are named as tcpdump names them.
 */
#ifndef WD_PCAPNG_WRITE_H
#define WD_PCAPNG_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "format.h"
#include "pcapng.h"

struct wd_pcapng_writer {
	int fd;
	bool flush_each;	/* pipes: every packet leaves at once */
	int err;		/* errno of the first failed write, 0 if none */
	uint8_t *buf;
	size_t len, cap;
	uint64_t packets;	/* EPBs of interface 0 (the drops) accepted */
	uint64_t written;	/* ... whose every byte reached fd */
	uint64_t pending;	/* ... still in buf */
	/* The same of the EPBs of other interfaces (record --tcp's TCP events). */
	uint64_t other_packets, other_written, other_pending;
	uint64_t bytes;		/* of the blocks accepted: the file's size once flushed */
};

struct wd_pcapng_header {
	const char *os;			/* shb_os, e.g. "Linux 6.18.44"; NULL: none */
	const char *hardware;		/* shb_hardware; NULL: none */
	const char *userappl;		/* shb_userappl, "whydrop 0.1.0" */
	const char *comment;		/* the section's opt_comment ("whydrop: host=web1"); NULL: none */
	const char *if_name;		/* if_name */
	const char *if_description;	/* if_description */
	uint16_t linktype;
	uint32_t snaplen;
	/* A second interface (id 1) of the same link type, when if2_name is set. */
	const char *if2_name, *if2_description;
	uint32_t if2_snaplen;
};

struct wd_pcapng_packet {
	uint64_t ts_ns;		/* nanoseconds since the epoch */
	const uint8_t *data;
	uint32_t caplen;
	uint32_t origlen;
	const char *comment;	/* NULL: none */
	uint32_t if_id;		/* 0: the drops' interface */
};

/* The writer does not own fd. Returns 0 or -ENOMEM. */
int wd_pcapng_writer_init(struct wd_pcapng_writer *w, int fd, bool flush_each);
/* Flushes what is buffered (see w->err) and frees the buffer. */
void wd_pcapng_writer_free(struct wd_pcapng_writer *w);
/* Each returns 0, or -errno (sticky: once a write failed, all fail). */
int wd_pcapng_write_header(struct wd_pcapng_writer *w, const struct wd_pcapng_header *h);
int wd_pcapng_write_packet(struct wd_pcapng_writer *w, const struct wd_pcapng_packet *p);
int wd_pcapng_write_stats(struct wd_pcapng_writer *w, const struct wd_pcapng_stats *st);
int wd_pcapng_flush(struct wd_pcapng_writer *w);
/* Bytes the Enhanced Packet Block of p takes in the file. */
size_t wd_pcapng_packet_size(const struct wd_pcapng_packet *p);

/* ---- rotated recordings (record -C, -G, -W), named as tcpdump names them ---- */

/*
 * The name of one file: pattern through strftime(3) when tm is given (-G),
 * then count appended with at least width digits unless both are 0: with
 * -C, "FILE" then "FILE1", "FILE2"...; with -C and -W N, width is
 * wd_pcapng_count_width(N): "FILE0", "FILE1"... Returns 0, -ENAMETOOLONG
 * (more than len - 1 bytes, or strftime made nothing of it), or -EINVAL
 * (an empty pattern).
 */
int wd_pcapng_file_name(char *buf, size_t len, const char *pattern, const struct tm *tm,
			unsigned int count, unsigned int width);
/* Digits of filecount - 1, as tcpdump pads -W: 0 for 1 file, 1 up to 10, 2 up to 100... */
unsigned int wd_pcapng_count_width(unsigned int filecount);
/*
 * -C FILE_SIZE as tcpdump takes it: a whole number of millions of bytes, or
 * of KiB, MiB, GiB with a k/K, m/M, g/G suffix. Returns 0, or -1 for
 * anything else (0, a sign, junk, more than UINT64_MAX bytes).
 */
int wd_pcapng_parse_file_size(const char *arg, uint64_t *bytes);

/*
 * A drop as whydrop records it. hdr holds hdr_len bytes from the network
 * header. Non-IP drops (and IP ones without header bytes) get caplen 0, so
 * the file holds every drop. Captured length: min(hdr_len, snaplen, IP
 * length); original length: the IP header's length when decoded and
 * plausible (wd_drop_ip_len), else max(v->skb_len, caplen).
 */
void wd_pcapng_drop_lengths(const struct wd_drop_view *v, const uint8_t *hdr, size_t hdr_len,
			    uint32_t snaplen, uint32_t *caplen, uint32_t *origlen);
/*
 * A drop's packet as whydrop records it: hdr with the lengths above, the
 * drop's comment (drop_comment.h) made in comment[len].
 */
void wd_pcapng_drop_packet(const struct wd_drop_view *v, const uint8_t *hdr, size_t hdr_len,
			   uint32_t snaplen, char *comment, size_t len, struct wd_pcapng_packet *p);

#endif /* WD_PCAPNG_WRITE_H */
