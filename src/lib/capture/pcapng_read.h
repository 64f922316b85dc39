/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pcapng reader of `whydrop read`. It takes any pcapng: both byte
 * orders, several sections, unknown blocks (skipped). It never trusts a
 * length: every block and option is bounds-checked, a block is at most
 * WD_PCAPNG_MAX_BLOCK bytes, and each call either consumes at least one
 * block or stops for good.
 */
#ifndef WD_PCAPNG_READ_H
#define WD_PCAPNG_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pcapng.h"

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
	char shb_comment[256];	/* the section's opt_comment ("whydrop: host=web1"), "" if none */
	char comment[4096];
	char err[200];
};

void wd_pcapng_reader_init(struct wd_pcapng_reader *r, FILE *f);
void wd_pcapng_reader_free(struct wd_pcapng_reader *r);
/* The next packet or statistics block. */
enum wd_pcapng_rec_type wd_pcapng_next(struct wd_pcapng_reader *r, struct wd_pcapng_rec *rec);

#endif /* WD_PCAPNG_READ_H */
