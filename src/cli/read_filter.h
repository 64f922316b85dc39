/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop read: which recorded packets count. The live commands' filters
 * (-r, --netns, -i, a pcap-filter expression) and a time range, applied to
 * what a recording holds: the packet comment's reason, namespace and
 * interface as recorded, the packet bytes (libpcap's pcap_offline_filter,
 * compiled for the link type of the packet's interface) and its timestamp.
 */
#ifndef WD_READ_FILTER_H
#define WD_READ_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_comment.h"
#include "pcapng_read.h"

#define WD_READ_MAX_LINKTYPES	8	/* distinct link types compiled for */

struct wd_read_filter {
	char **reasons;		/* -r words, upper case, SKB_DROP_REASON_ removed */
	size_t n_reasons;
	const char *netns;	/* name, cookie or inode */
	const char *ifname;
	const char *expr;	/* NULL: none */
	bool has_since, has_until;
	uint64_t since_ns, until_ns;
	struct wd_read_prog *progs;	/* expr compiled, by link type */
	size_t n_progs;
	uint64_t matched, seen;	/* packets, for -v */
};

struct wd_cli;

/*
 * From the command line. 0, or 2 (usage: an unknown reason, a bad
 * expression) or 1 (out of memory) after one message on stderr.
 */
int wd_read_filter_init(struct wd_read_filter *f, const struct wd_cli *c);
void wd_read_filter_free(struct wd_read_filter *f);
/* Whether any filter needs the packet comment. */
bool wd_read_filter_by_comment(const struct wd_read_filter *f);
/*
 * Whether the packet rec (on interface linktype) is kept: in the time
 * range, matched by the expression. -1 after a message naming file when
 * the expression cannot be compiled for that link type.
 */
int wd_read_filter_packet(struct wd_read_filter *f, const struct wd_pcapng_rec *rec,
			  uint16_t linktype, const char *file);
/* Whether rec's timestamp is in --since/--until (true when neither is given). */
bool wd_read_filter_in_range(const struct wd_read_filter *f, const struct wd_pcapng_rec *rec);
/* Whether the comment's fields m (NULL: not a whydrop comment) are kept. */
bool wd_read_filter_meta(const struct wd_read_filter *f, const struct wd_pcapng_meta *m);
/* A TCP event of record --tcp: --netns only (-r and -i are of drops). */
bool wd_read_filter_tcp(const struct wd_read_filter *f, const struct wd_pcapng_meta *m);

#endif /* WD_READ_FILTER_H */
