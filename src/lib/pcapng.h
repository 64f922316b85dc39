/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pcapng (IETF draft-ietf-opsawg-pcapng): a small writer for `whydrop record`
 * and a defensive reader for `whydrop read`. No libpcap: libpcap 1.10 cannot
 * write pcapng.
 *
 * Files written: one Section Header Block (host byte order), one Interface
 * Description Block (LINKTYPE_RAW, if_tsresol 9), one Enhanced Packet Block
 * per drop with a comment "reason=.. location=.. ifname=.. netns=.. code=..",
 * and an Interface Statistics Block at the end with the counts.
 *
 * The reader takes any pcapng: both byte orders, several sections, unknown
 * blocks (skipped). It never trusts a length: every block and option is
 * bounds-checked, a block is at most WD_PCAPNG_MAX_BLOCK bytes, and each call
 * either consumes at least one block or stops for good.
 */
#ifndef WD_PCAPNG_H
#define WD_PCAPNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "format.h"

#define WD_PCAPNG_LINKTYPE_RAW	101		/* packet starts at the IP header */
#define WD_PCAPNG_MAX_BLOCK	(16u << 20)	/* larger blocks are refused */
#define WD_PCAPNG_MAX_IFS	65536		/* interfaces per section */

/* Block types. */
#define WD_PCAPNG_SHB	0x0A0D0D0Au
#define WD_PCAPNG_IDB	0x00000001u
#define WD_PCAPNG_PB	0x00000002u	/* obsolete Packet Block */
#define WD_PCAPNG_SPB	0x00000003u
#define WD_PCAPNG_ISB	0x00000005u
#define WD_PCAPNG_EPB	0x00000006u
#define WD_PCAPNG_BOM	0x1A2B3C4Du

/* ---- writer ---- */

struct wd_pcapng_writer {
	int fd;
	bool flush_each;	/* pipes: every packet leaves at once */
	int err;		/* errno of the first failed write, 0 if none */
	uint8_t *buf;
	size_t len, cap;
	uint64_t packets;	/* EPBs accepted */
	uint64_t written;	/* EPBs whose every byte reached fd */
	uint64_t pending;	/* EPBs still in buf */
	uint64_t bytes;		/* of the blocks accepted: the file's size once flushed */
};

struct wd_pcapng_header {
	const char *os;			/* shb_os, e.g. "Linux 6.18.44"; NULL: none */
	const char *hardware;		/* shb_hardware; NULL: none */
	const char *userappl;		/* shb_userappl, "whydrop 0.1.0" */
	const char *if_name;		/* if_name */
	const char *if_description;	/* if_description */
	uint16_t linktype;
	uint32_t snaplen;
};

struct wd_pcapng_packet {
	uint64_t ts_ns;		/* nanoseconds since the epoch */
	const uint8_t *data;
	uint32_t caplen;
	uint32_t origlen;
	const char *comment;	/* NULL: none */
};

/* Interface Statistics Block; the reader fills has_* for what it found. */
struct wd_pcapng_stats {
	bool has_start, has_end, has_ifrecv, has_osdrop, has_usrdeliv;
	uint64_t start_ns, end_ns;
	uint64_t ifrecv;	/* whydrop: drops counted */
	uint64_t osdrop;	/* whydrop: drops not delivered (rate, ring full) */
	uint64_t usrdeliv;	/* whydrop: packets written */
	const char *comment;
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
 * plausible, else max(v->len, caplen).
 */
void wd_pcapng_drop_lengths(const struct wd_drop_view *v, const uint8_t *hdr, size_t hdr_len,
			    uint32_t snaplen, uint32_t *caplen, uint32_t *origlen);
/*
 * "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=lo netns=4026531840 code=3",
 * then what is known of who: "netns_name=blue sock=42569 lport=9999 rport=0
 * state=CLOSE pid=20898 comm=wd-rcvr cgroup=/who.slice
 * workload=docker:0123456789ab" (or "sock=unknown"); spaces, '%' and
 * non-ASCII bytes in values are %XX.
 */
void wd_pcapng_drop_comment(const struct wd_drop_view *v, char *buf, size_t len);
int wd_pcapng_write_drop(struct wd_pcapng_writer *w, const struct wd_drop_view *v,
			 const uint8_t *hdr, size_t hdr_len, uint32_t snaplen);

/* ---- comments ---- */

/* What a whydrop packet comment says; has_* false = field absent. */
struct wd_pcapng_meta {
	bool has_reason, has_location, has_code, has_netns, has_ifname;
	char reason[128];
	char location[160];
	char function[160];	/* location up to the '+' */
	char ifname[32];
	uint32_t code;
	uint32_t netns;
	/* who: the namespace's name and the socket's owner */
	bool has_netns_name, has_sock, sock_unknown, has_lport, has_pid, has_comm;
	bool has_cgroup, has_workload, has_rport, has_state;
	char netns_name[64];
	uint64_t sock;
	uint16_t lport, rport;	/* rport 0: no peer */
	char state[16];		/* "ESTABLISHED", "SYN_SENT", ... as sk_state */
	uint32_t pid;
	char comm[32];
	char cgroup[512];
	char workload[200];
};

/*
 * Parse space-separated key=value words. Values must be printable ASCII;
 * others are ignored. Returns true if it is a whydrop comment (has location=).
 */
bool wd_pcapng_parse_comment(const char *s, struct wd_pcapng_meta *m);

/* ---- reader ---- */

enum wd_pcapng_rec_type {
	WD_PCAPNG_ERROR = -1,	/* r->err says why; every later call fails too */
	WD_PCAPNG_END = 0,
	WD_PCAPNG_PACKET,
	WD_PCAPNG_STATS,
};

struct wd_pcapng_if {
	uint16_t linktype;
	uint32_t snaplen;
	uint8_t tsresol;
};

struct wd_pcapng_rec {
	enum wd_pcapng_rec_type type;
	/* WD_PCAPNG_PACKET */
	uint32_t if_id;
	bool has_ts;		/* false: no interface or an absurd resolution */
	uint64_t ts_ns;
	uint32_t caplen, origlen;
	const uint8_t *data;	/* valid until the next call */
	const char *comment;	/* all opt_comments joined by '\n'; NULL: none */
	/* WD_PCAPNG_STATS */
	struct wd_pcapng_stats stats;
};

struct wd_pcapng_reader {
	FILE *f;
	uint64_t off;		/* file offset of the next block */
	bool swap;		/* section written in the other byte order */
	bool in_section;
	bool failed;
	uint8_t *buf;
	size_t cap;
	struct wd_pcapng_if *ifs;
	size_t n_ifs;
	uint64_t n_sections;
	uint64_t n_skipped;	/* blocks of types not needed here */
	uint64_t n_malformed;	/* well-framed blocks whose content is bad */
	char malformed[160];	/* the first such problem */
	char os[128];		/* shb_os of the latest section, "" if none */
	char userappl[128];	/* shb_userappl */
	char comment[4096];
	char err[200];
};

void wd_pcapng_reader_init(struct wd_pcapng_reader *r, FILE *f);
void wd_pcapng_reader_free(struct wd_pcapng_reader *r);
/* The next packet or statistics block. */
enum wd_pcapng_rec_type wd_pcapng_next(struct wd_pcapng_reader *r, struct wd_pcapng_rec *rec);

#endif /* WD_PCAPNG_H */
