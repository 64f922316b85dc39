/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --tcp in a report: the resets and the flows with retransmissions, named
 * and joined by the caller (src/cli/tcp_report.c), printed here as the
 * "resets" and "flows" of `count --json` and as sections of the tables.
 */
#ifndef WD_TCP_FORMAT_H
#define WD_TCP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"

/* A connection's key, "A:P B:Q" with the lower endpoint first: the same for
 * both directions, so that a flow joins the drops of its packets either way. */
#define WD_TCP_CONN_LEN	(2 * (46 + 8))	/* 2 x (INET6_ADDRSTRLEN + ":port") */
void wd_tcp_conn_key(const char *a, uint16_t pa, const char *b, uint16_t pb, char *out,
		     size_t len);

/* One row of resets: a direction, a reason, a TCP state, a namespace. */
struct wd_tcp_reset_out {
	const char *direction;	/* "sent", "received" */
	const char *reason;	/* sent: the kernel's name, "unknown" before 6.10;
				 * received: "none" (a reset carries no reason) */
	uint32_t code;		/* enum sk_rst_reason; 65535: none */
	const char *state;	/* TCP state of the socket, "-": no socket */
	uint32_t netns;		/* inode, 0: unknown (overflow) */
	uint64_t netns_cookie;
	bool overflow;		/* counted while the hash was full */
	uint64_t count;
	/* who: the task holding the socket when it reset, the socket's cgroup */
	uint32_t pid;		/* 0: none (an interrupt's reset, no full socket) */
	char comm[17];
	uint64_t cgroup_id;	/* 0: none */
	char cgroup[256];	/* its path, "" if unknown */
	char cgroup_label[128];	/* its short name (wd_cgroup_label()), "" if unknown */
	char container[256], pod[256];	/* what the runtime names it, "" if unknown */
};

/* Drops of a flow by reason, inside the view. */
struct wd_tcp_flow_reason {
	const char *reason;
	uint64_t count;
};

/* A flow with retransmissions, as this host's socket sees it. */
struct wd_tcp_flow_out {
	const char *family;	/* "ipv4", "ipv6" */
	char src[48], dst[48];	/* local, remote */
	uint16_t sport, dport;
	uint32_t netns;
	uint64_t netns_cookie;
	uint64_t retransmits;	/* segments, as TcpRetransSegs counts them */
	uint64_t dropped_here;	/* its drops inside the view, both directions */
	uint64_t dropped_segs_here;	/* their TCP segments (a GSO packet holds many) */
	const struct wd_tcp_flow_reason *reasons;
	size_t n_reasons;
	const char *where;	/* "here", "beyond", "here and beyond" */
};

struct wd_tcp_doc {
	const char *attach;	/* "tp_btf", "raw_tp" */
	bool reasons_known;	/* tcp_send_reset carries a reason (6.10+) */
	const struct wd_tcp_reset_out *resets;	/* sorted by count */
	size_t n_resets;
	uint64_t resets_sent, resets_received;
	/* Flows: the max_flows most retransmitting, the rest summed. */
	bool has_flows;
	const struct wd_tcp_flow_out *flows;
	size_t n_flows;
	size_t flows_other;		/* flows left out of flows[] */
	uint64_t other_retransmits;	/* their segments, and those of flows the
					 * kernel had no room for */
	uint64_t other_dropped_here;
	uint64_t retransmits;		/* every segment counted: flows + other */
	uint64_t flow_drops_overflow;	/* TCP drops the per-flow hash had no room for */
	uint32_t max_flows;
	uint64_t caught_up;		/* segments counted at a socket's next call */
};

/* The "tcp" members of the count --json document: resets, flows, their totals. */
void wd_print_tcp_json(struct wd_json *j, const struct wd_tcp_doc *t);
/* top's live section: totals, the max largest reset rows and worst flows. */
void wd_print_tcp_live(FILE *f, const struct wd_tcp_doc *t, size_t max);
/* The tables' sections: resets, then the flows. */
void wd_print_tcp_table(FILE *f, const struct wd_tcp_doc *t);

#endif /* WD_TCP_FORMAT_H */
