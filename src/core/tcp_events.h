/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TCP events program (src/bpf/tcp_events.bpf.c) for user space: open,
 * load and attach it (tp_btf, else raw_tp), read its exact counts and its
 * flows table, take its records, detach. Plain structs in and out, nothing
 * of a drop session: a command, or a drop source of its own, wraps it.
 * Nothing of it is loaded unless wd_tcp_open() is called.
 */
#ifndef WD_TCP_EVENTS_H
#define WD_TCP_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "tcp_shared.h"

struct wd_tcp_opts {
	uint64_t netns_cookie;	/* only this namespace (wd_tcp_netns_cookie()); 0: all */
	uint32_t max_flows;	/* flows the kernel keeps apart; 0: WD_TCP_FLOWS */
	uint32_t max_rst_keys;	/* reset keys; 0: WD_TCP_RST_KEYS */
	uint32_t rate;		/* records per second; 0: none; WD_TCP_NO_LIMIT: all */
	bool raw_tp;		/* the raw_tp flavour even where tp_btf attaches */
};

/* What this kernel's tracepoints carry, from its BTF. */
struct wd_tcp_caps {
	bool rst_reason;	/* tcp_send_reset has enum sk_rst_reason (6.10+) */
	bool retrans_err;	/* tcp_retransmit_skb has err (6.17+): it also fires
				 * for failed retransmissions, counted or not */
	const char *attach;	/* "tp_btf" or "raw_tp" */
};

struct wd_tcp_rst_count {
	struct wd_tcp_rst_key key;	/* netns and state 0 in an overflow row */
	bool overflow;		/* counted while the hash was full: namespace and
				 * state unknown; reason WD_TCP_RST_SLOTS - 1 is
				 * that reason or any above, or no reason */
	uint64_t count;
};

struct wd_tcp_flow_count {
	struct wd_tcp_flow flow;
	uint64_t segs;		/* retransmitted segments, as TcpRetransSegs counts */
};

struct wd_tcp_stats {
	uint64_t v[WD_TCP_STAT_MAX];	/* enum wd_tcp_stat, summed over CPUs */
};

/* bpf_stats of one program (kernel.bpf_stats_enabled=1 while it ran). */
struct wd_tcp_prog_stats {
	char name[16];
	uint64_t run_cnt;
	uint64_t run_time_ns;
	uint64_t recursion_misses;	/* runs the kernel skipped: nested on a CPU */
};

struct wd_tcp;

/*
 * Load and attach. NULL on failure with a message in err (and libbpf's
 * messages kept, see runtime.h). WHYDROP_BTF=FILE relocates against that
 * BTF instead of the kernel's, as for the drop program.
 */
struct wd_tcp *wd_tcp_open(const struct wd_tcp_opts *o, char *err, size_t errlen);
/* Detach and free everything; NULL is fine. */
void wd_tcp_close(struct wd_tcp *t);
const struct wd_tcp_caps *wd_tcp_caps(const struct wd_tcp *t);
/* Stop counting: the counts stay readable, records waiting can be polled. */
void wd_tcp_detach(struct wd_tcp *t);
/* Readable when records wait (the ring buffer's epoll fd); -1 without records. */
int wd_tcp_fd(const struct wd_tcp *t);

/*
 * Counts so far (they only grow), summed over CPUs, read by batches: the
 * reset keys then the overflow rows; the flows, and what the flows hash
 * had no room for in *overflow. *out is malloc'd (the caller frees).
 * 0 or -errno.
 */
int wd_tcp_read_resets(struct wd_tcp *t, struct wd_tcp_rst_count **out, size_t *n);
int wd_tcp_read_flows(struct wd_tcp *t, struct wd_tcp_flow_count **out, size_t *n,
		      uint64_t *overflow);
int wd_tcp_read_stats(struct wd_tcp *t, struct wd_tcp_stats *st);

/*
 * Records waiting in the ring buffer, to fn one by one, after waiting up
 * to timeout_ms (0: none) for the kernel to wake us (it does so only once
 * many wait: poll again). Returns the number handled, or -errno; fn
 * returning non-zero stops it.
 */
typedef int (*wd_tcp_record_fn)(const struct wd_tcp_event *ev, void *arg);
int wd_tcp_poll(struct wd_tcp *t, int timeout_ms, wd_tcp_record_fn fn, void *arg);

/* The programs' bpf_stats: up to max, returns how many. */
int wd_tcp_prog_stats(struct wd_tcp *t, struct wd_tcp_prog_stats *out, int max);

/* Cookie and inode of the network namespace at path (SO_NETNS_COOKIE, 5.14+). */
int wd_tcp_netns_cookie(const char *path, uint64_t *cookie, uint32_t *ino);

#endif /* WD_TCP_EVENTS_H */
