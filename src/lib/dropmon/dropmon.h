/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * drop_monitor (generic netlink family "NET_DM", net/core/drop_monitor.c):
 * a pure parser of its messages (summary alerts, packet alerts, stats) and
 * the few requests whydrop sends (CONFIG, START, STOP, STATS_GET).
 */
#ifndef WD_DROPMON_H
#define WD_DROPMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WD_DM_NAME_LEN		64	/* reason, trap and group names */
#define WD_DM_SYMBOL_LEN	128	/* "%pS": "tcp_v4_rcv+0x99/0xb40 [mod]" */
#define WD_DM_IFNAME_LEN	16
#define WD_DM_MAX_POINTS	256	/* kernel sends at most dm_hit_limit (64) */
#define WD_DM_MAX_HW		64

enum wd_dm_kind {
	WD_DM_OTHER,		/* a message whydrop does not use */
	WD_DM_SUMMARY,		/* NET_DM_CMD_ALERT */
	WD_DM_PACKET,		/* NET_DM_CMD_PACKET_ALERT */
	WD_DM_STATS,		/* NET_DM_CMD_STATS_NEW */
};

struct wd_dm_point {
	uint64_t pc;		/* drop location, as the tracepoint's */
	uint32_t count;
};

struct wd_dm_hw_entry {
	char trap[WD_DM_NAME_LEN];
	uint32_t count;
};

/* A summary alert: software points and/or hardware trap entries. */
struct wd_dm_summary {
	uint32_t entries;	/* the kernel's count, may exceed n_points */
	struct wd_dm_point points[WD_DM_MAX_POINTS];
	size_t n_points;
	struct wd_dm_hw_entry hw[WD_DM_MAX_HW];
	size_t n_hw;
	bool hw_truncated;	/* more entries than WD_DM_MAX_HW */
};

/* A packet alert; payload points into the parsed buffer. */
struct wd_dm_packet {
	bool has_origin;
	uint16_t origin;	/* NET_DM_ORIGIN_SW or _HW */
	bool has_pc;
	uint64_t pc;
	char symbol[WD_DM_SYMBOL_LEN];
	bool has_ifindex;
	uint32_t ifindex;	/* skb_iif; names no namespace */
	char ifname[WD_DM_IFNAME_LEN + 1];	/* hardware drops only */
	bool has_ts;
	uint64_t ts_ns;		/* CLOCK_REALTIME of the drop */
	bool has_proto;
	uint16_t proto;		/* skb->protocol, host order */
	const uint8_t *payload;	/* from the MAC header */
	size_t payload_len;
	bool has_orig_len;
	uint32_t orig_len;	/* skb->len from the MAC header */
	bool has_trunc_len;
	uint32_t trunc_len;
	char reason[WD_DM_NAME_LEN];	/* "" when the kernel sent none */
	char hw_group[WD_DM_NAME_LEN];
	char hw_trap[WD_DM_NAME_LEN];
	bool has_hw_count;
	uint32_t hw_count;
	const uint8_t *cookie;	/* flow action cookie */
	size_t cookie_len;
};

struct wd_dm_stats {
	bool has_sw, has_hw;
	uint64_t sw_dropped;	/* sum over CPUs of queue-limit losses */
	uint64_t hw_dropped;
};

struct wd_dm_msg {
	enum wd_dm_kind kind;
	uint8_t cmd;
	union {
		struct wd_dm_summary summary;
		struct wd_dm_packet packet;
		struct wd_dm_stats stats;
	};
};

/*
 * Parse one netlink message (nlmsghdr + genlmsghdr + attributes) of
 * len bytes (its nlmsg_len, rounded up to 4 as the kernel pads it). 0, or
 * -EINVAL/-EMSGSIZE when malformed. Never reads outside buf; strings are
 * copied NUL-terminated, truncated if too long.
 */
int wd_dm_parse(const void *buf, size_t len, struct wd_dm_msg *m);

/*
 * Where the network header starts in a packet alert's payload (which
 * starts at the MAC header): 14 or 18 after an Ethernet (VLAN) header
 * whose type is proto, 0 when the payload is the IP packet itself,
 * -1 when it cannot be told.
 */
int wd_dm_l3_offset(const uint8_t *payload, size_t len, uint16_t proto);

/* ---- the requests (libmnl) ---- */

struct mnl_socket;
typedef void (*wd_dm_event_fn)(void *ctx, const struct wd_dm_msg *m);

struct wd_dm {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t group;		/* multicast group "events" */
	uint32_t seq;
	uint64_t overruns;	/* ENOBUFS: the socket lost messages */
	char ext_msg[256];	/* the kernel's extack text of the last error */
	wd_dm_event_fn on_event;	/* alerts, also those read during a request */
	void *ctx;
	uint8_t *buf;
	FILE *dump;		/* set by the caller: every alert as a hex line */
};

/*
 * Open the socket, resolve "NET_DM" and its group: 0, or -errno (ENOENT: no
 * family, or not in the initial network namespace). fn NULL: a socket for
 * requests only (STATS_GET from another thread), with no alerts to take.
 */
int wd_dm_open(struct wd_dm *dm, wd_dm_event_fn fn, void *ctx);
void wd_dm_close(struct wd_dm *dm);
/* NET_DM_ALERT_MODE_SUMMARY or _PACKET; trunc_len 0 = whole packet. */
int wd_dm_config(struct wd_dm *dm, uint8_t mode, uint32_t trunc_len, uint32_t queue_len);
int wd_dm_start(struct wd_dm *dm, bool sw, bool hw);
int wd_dm_stop(struct wd_dm *dm, bool sw, bool hw);
int wd_dm_join(struct wd_dm *dm);
int wd_dm_stats_get(struct wd_dm *dm, struct wd_dm_stats *st);
/* Read what is there (up to timeout_ms), calling on_event. 0 or -errno. */
int wd_dm_poll(struct wd_dm *dm, int timeout_ms);
int wd_dm_fd(const struct wd_dm *dm);

#endif /* WD_DROPMON_H */
