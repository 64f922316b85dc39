/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Output of drops: per-packet lines (text/JSON) and count documents. */
#ifndef WD_FORMAT_H
#define WD_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "counters.h"
#include "decode.h"
#include "diagnose.h"

/* The socket of a drop: none, one the kernel could not tell, or one it named. */
enum wd_sock_kind {
	WD_SOCK_NONE,		/* the kernel says there is none */
	WD_SOCK_UNKNOWN,	/* the tracepoint has no rx_sk (before 6.11) */
	WD_SOCK_SEEN,
};

struct wd_sock_view {
	enum wd_sock_kind kind;
	bool full;		/* ino, uid and cgroup are valid */
	uint64_t ino;
	uint16_t lport, rport;
	uint8_t state;		/* TCP_* (sk_state) */
	uint32_t uid;
	uint64_t cgroup_id;
	const char *cgroup;	/* its path, NULL if unknown */
	const char *workload;	/* what the path names: unit, container, pod; or NULL */
	/* the runtime's names of its container and pod (docs/who.md); NULL: unknown */
	const char *container;
	const char *pod;
	const char *k8s_namespace;
	int pid;		/* owning process, 0 if unknown */
	const char *comm;
	bool no_uid;		/* full, but uid and cgroup_id unknown (a recording) */
};

/* One dropped packet, already resolved to names. NULL/false = unknown. */
struct wd_drop_view {
	uint64_t ts_realtime_ns;
	const char *reason;	/* NULL in location-only mode */
	uint32_t code;
	const char *function;
	const char *location;
	uint16_t l3proto;
	struct wd_flow flow;
	bool no_skb_len;	/* skb_len unknown (a recording of an IP packet) */
	uint32_t skb_len;	/* skb->len at the drop point: what was left of the
				 * packet there (a SYN in tcp_v4_rcv: 20, its TCP header);
				 * the packet's own length is wd_drop_ip_len() */
	uint32_t ifindex;
	const char *ifname;
	uint32_t netns;		/* the namespace's inode */
	uint64_t netns_cookie;	/* its cookie, 0 if unknown (struct wd_netns_id) */
	const char *netns_name;	/* `ip netns` name, "host" or "COMM[PID]" */
	uint32_t cpu;
	struct wd_sock_view sock;
	const char *hint;	/* one-line explanation, text output only */
	/* drop_monitor: what it cannot say, and hardware drops */
	bool no_code;		/* a name the kernel's reason table lacks */
	bool no_cpu;
	const char *hw_group;	/* devlink trap group and trap, NULL: software */
	const char *hw_trap;
	const char *const *stack;	/* --stacks: frames, innermost first */
	size_t n_stack;
	/* --rules, a NETFILTER_DROP: its nftables rule ("inet/fw/input/2", ".../policy"), "unknown" */
	const char *rule;
};

struct wd_row_rule;

/* One aggregated row of a count. */
struct wd_count_row {
	uint32_t code;
	const char *reason;	/* NULL in location-only mode */
	const char *subsystem;
	const char *function;
	const char *location;
	const char *hint;
	uint64_t count;
	bool no_code;		/* drop_monitor: a name without a number here */
	const struct wd_diagnosis *cause;	/* why (JSON "cause"), NULL: none */
	/* --rules, a NETFILTER_DROP row: its parts by rule (JSON: an entry each) */
	const struct wd_row_rule *rules;
	size_t n_rules;
};

/* Where the counts came from when not the BPF program (drop_monitor). */
struct wd_count_source {
	const char *name;	/* "dropmon" */
	const char *mode;	/* "packet" or "summary" */
	uint64_t queue_dropped;	/* not reported: the kernel's per-CPU queue was full */
	uint64_t hw_queue_dropped;
	uint64_t overruns;	/* times our socket overflowed: an unknown number lost */
	uint64_t truncated;	/* packets cut to the configured length */
	uint64_t summary_full;	/* summary alerts that hit the kernel's location limit */
	bool lower_bound;	/* any loss: counts are at least, not exactly */
};

/* A kernel counter that moved over the same interval as the count. */
struct wd_counter_row {
	const char *name;	/* "TcpExtListenOverflows", "qdisc:drops" */
	uint64_t delta;
	const char *reasons;	/* matching reasons, "A,B"; NULL: context only */
	bool compared;		/* traced and unexplained are valid */
	bool explained;		/* compared, and the traced drops account for all */
	uint64_t traced;	/* drops traced with the matching reasons */
	uint64_t unexplained;	/* delta beyond traced: drops with no traced reason */
	const char *explanation; /* why such drops lack an event (unexplained > 0) */
	const char *note;	/* a remark, or why it was not compared */
	const char *message;	/* text output: the sentence for unexplained drops */
	const struct wd_counter_part *parts;	/* the devices whose part moved */
	size_t n_parts;
};

/* One (reason, location, stack) total of --stacks. */
struct wd_stack_row {
	const char *reason;	/* NULL in location-only mode */
	uint32_t code;
	const char *function;
	const char *location;
	uint64_t count;
	const char *const *frames;	/* innermost first */
	size_t n_frames;
	bool hidden;		/* by the noise list */
};

/* Drops hidden as expected by one noise rule. */
struct wd_hidden_rule {
	const char *rule;	/* "NOT_SPECIFIED@unix_release_sock" */
	const char *source;	/* "built-in list", "FILE:LINE", "--hide" */
	const char *why;	/* "" if none */
	uint64_t count;
};

/* One row of count --group-by: a group (who) and a reason (why). */
struct wd_group_out {
	const char *group;
	const char *reason;	/* NULL in location-only mode */
	uint32_t code;
	uint64_t count;
	/* --group-by netns|interface: the group's namespace, 0 if unknown */
	uint32_t netns;
	uint64_t netns_cookie;
};

struct wd_check_result;
struct wd_rules_doc;
struct wd_tcp_doc;

struct wd_count_doc {
	const char *kernel;
	double duration_s;
	uint64_t total;
	uint64_t lost_events;
	bool location_only;
	/* Additive: a filter expression was given; drops it could not read. */
	bool has_filter;
	uint64_t filter_paged;	/* left unmatched: it needed bytes in paged data */
	const struct wd_count_row *rows;
	size_t n_rows;
	/* Additive: kernel counters (printed only when has_counters). */
	bool has_counters;
	bool counters_only;	/* no tracing: total, drops, lost_events unknown */
	const char *counters_scope;	/* "network namespace blue", NULL: ours */
	const struct wd_counter_row *counters;
	size_t n_counters;
	uint64_t counters_untraced;	/* drops the counters found beyond the tracepoint */
	const char *counters_error;	/* why there are no counters (has_counters false) */
	const struct wd_count_source *source;	/* NULL: the BPF program */
	/* Additive: noise control (rows hidden as expected are not in rows). */
	bool noise;			/* hiding was on: print the hidden part */
	uint64_t hidden_total;
	const struct wd_count_row *hidden_rows;
	size_t n_hidden_rows;
	const struct wd_hidden_rule *hidden;
	size_t n_hidden;
	/* Additive: --stacks. */
	bool has_stacks;
	const struct wd_stack_row *stacks;
	size_t n_stacks;
	uint64_t stack_collisions, stack_errors, stack_overflow;
	/* Additive: --group-by (printed only when group_by is set). */
	const char *group_by;	/* "netns", "interface", "cgroup", "process" */
	const struct wd_group_out *groups;
	size_t n_groups;
	uint64_t groups_lost;	/* by-socket (by flow) counts the kernel had no room for */
	/* Additive: count --fail-on (check.h), NULL: no check asked for. */
	const struct wd_check_result *check;
	/* Additive: --rules (rules_format.h), NULL: not asked for. */
	const struct wd_rules_doc *rules;
	/* Additive: --tcp (tcp_format.h), NULL: not asked for. */
	const struct wd_tcp_doc *tcp;
};

/* one for 1, many for any other n: "1 drop", "2 drops", "0 drops". */
static inline const char *wd_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * The IP packet's length from its header, as tcpdump shows it, pcap-filter's
 * len means it and pcapng's original length is (the skb's length from the
 * IP header on where the header says 0: BIG TCP, see wd_flow_wire_len); 0
 * when unknown (not IP, no header bytes).
 */
uint32_t wd_drop_ip_len(const struct wd_drop_view *v);
/* "ESTABLISHED" for TCP_ESTABLISHED (1), as the kernel names sk_state */
const char *wd_sock_state_name(uint8_t state);
/* "2026-12-03T06:42:05.123456Z" */
void wd_format_time(uint64_t realtime_ns, char *buf, size_t len);
/*
 * What a record of the BPF program (or of drop_monitor) says by itself, as
 * a view: wall time (its monotonic time plus mono_to_real_ns), code,
 * protocol and flow (decoded from the caplen bytes of hdr[]), length,
 * device index, namespace, CPU. Everything else is zeroed: names, device
 * name, socket and stack are the caller's.
 */
struct wd_event;
void wd_event_view(const struct wd_event *ev, uint64_t mono_to_real_ns, struct wd_drop_view *v);
void wd_print_drop_text(FILE *f, const struct wd_drop_view *d);
void wd_print_drop_json(FILE *f, const struct wd_drop_view *d);
/* A socket's part of a drop line (" sock ..."), and its "socket" member. */
struct wd_json;
void wd_print_sock_text(FILE *f, const struct wd_sock_view *k);
void wd_print_sock_json(struct wd_json *j, const struct wd_sock_view *k);
/* "reason" and "code": both left out when the reason is unknown (NULL), the
 * code when no_code. */
void wd_json_reason(struct wd_json *j, const char *reason, uint32_t code, bool no_code);
void wd_print_count_json(FILE *f, const struct wd_count_doc *doc);
void wd_print_count_table(FILE *f, const struct wd_count_doc *doc);
/* The --stacks part of the table. */
void wd_print_stacks_text(FILE *f, const struct wd_count_doc *doc);
/* Only the --group-by part of the table (count's, and top's every second). */
void wd_print_groups_table(FILE *f, const struct wd_count_doc *doc);
/* Only the counters part of the table (what `top` shows every second). */
void wd_print_counters_table(FILE *f, const struct wd_count_doc *doc);

#endif /* WD_FORMAT_H */
