/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a session is asked for: the options shared by the live commands
 * (top, watch, count, record, serve), parsed by src/cli/options.c.
 */
#ifndef WD_OPTS_H
#define WD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "whydrop_types.h"

#define WD_DEFAULT_RATE		10000	/* detail records per second */
#define WD_DEFAULT_MAP_SIZE	10240	/* distinct counting keys */
#define WD_DEFAULT_DM_QUEUE	1000	/* drop_monitor's own default queue length */

/* Where drops come from: the BPF program, drop_monitor, or BPF else drop_monitor. */
enum wd_source_choice { WD_SOURCE_AUTO, WD_SOURCE_BPF, WD_SOURCE_DROPMON };
#define WD_MAX_HIDE		64	/* --hide options */

struct wd_noise;
struct wd_flame_out;
#define WD_DEFAULT_MAX_GROUPS	10	/* --group-by rows before "other" */

/* count/top --group-by: who the drops hurt, besides why. */
enum wd_group_by {
	WD_GROUP_NONE,
	WD_GROUP_NETNS,
	WD_GROUP_INTERFACE,
	WD_GROUP_CGROUP,	/* the socket's cgroup: unit, container, pod */
	WD_GROUP_PROCESS,	/* the socket's process */
	WD_GROUP_CONTAINER,	/* the socket's container, else the namespace's */
	WD_GROUP_POD,		/* ... its Kubernetes pod */
	WD_GROUP_FLOW,		/* the packet's protocol, addresses and ports */
	WD_GROUP_SRC,		/* its source address */
	WD_GROUP_DST,		/* its destination address */
	WD_GROUP_HOST,		/* read: the host that recorded it */
};
/* The last grouping --group-by takes (the ones after are not made yet). */
#define WD_GROUP_LAST	WD_GROUP_HOST

/* Groupings counted by socket in the kernel (WD_SRC_SOCKETS). */
/* --group-by flow, src, dst: the drop program's per-flow count (tcp_drops.h). */
static inline bool wd_group_by_flow(enum wd_group_by by)
{
	return by == WD_GROUP_FLOW || by == WD_GROUP_SRC || by == WD_GROUP_DST;
}

static inline bool wd_group_by_socket(enum wd_group_by by)
{
	return by == WD_GROUP_CGROUP || by == WD_GROUP_PROCESS || by == WD_GROUP_CONTAINER ||
	       by == WD_GROUP_POD;
}

struct wd_opts {
	const char *cmd;
	const char *reasons;	/* -r: comma-separated names */
	const char *netns;	/* --netns NAME|PATH */
	const char *ifname;	/* -i */
	double duration;	/* -d seconds, 0 = until Ctrl-C */
	uint32_t rate;		/* --rate detail records/s, 0: no limit */
	uint32_t map_size;	/* --map-size */
	enum wd_group_by group_by;	/* --group-by */
	uint32_t max_groups;	/* --max-groups */
	bool json;
	bool explain;		/* --explain: full entry of each reason seen, on exit */
	bool verbose;
	bool rate_set;		/* --rate given explicitly */
	bool counters_only;	/* --counters-only (top, count): no BPF, kernel counters */
	bool processes;		/* -p: name sockets' processes (keeps /proc read access) */
	bool netns_names;	/* serve --netns-names: name namespaces (scan at start) */
	const char *host_root;	/* --host-root: the runtimes' files below it, NULL: / */
	const char *docker_root;	/* --docker-root: dockerd's --data-root, NULL: default */
	char *filter;		/* trailing pcap-filter expression, NULL if none */
	enum wd_source_choice source;	/* --source */
	bool dropmon_summary;	/* --dropmon-mode summary */
	bool dropmon_mode_set;
	uint32_t dropmon_queue;	/* --dropmon-queue: drop_monitor's per-CPU queue */
	bool stacks;		/* --stacks: kernel stack of each drop */
	bool rules;		/* --rules: NETFILTER_DROP by nftables rule (source_nftrace.c) */
	bool tcp;		/* --tcp: resets and retransmissions (source_tcp.c) */
	bool folded;		/* --folded (count --stacks): flame-graph lines */
	uint32_t stack_map_size;	/* --stack-map-size: distinct stacks stored */
	bool stack_map_set;
	/*
	 * record -s: the packet bytes per record (0: not record). loader.c
	 * gives the program its record_bytes from it, and beyond
	 * WD_HDR_BYTES sizes long_events and the ring buffer by it.
	 */
	uint32_t record_bytes;
	bool show_all;		/* --show-all: hide no expected drop */
	const char *noise_file;	/* --noise-file PATH */
	const char *hide[WD_MAX_HIDE];	/* --hide REASON[@FUNCTION], as given */
	size_t n_hide;
	struct wd_noise *noise;	/* set by top and count: rules of this run */
	struct wd_flame_out *flame;	/* count --svg: the flame graph's file, opened */
};

/* The per-flow count of drops (tcp_drops.h): --tcp, --group-by flow|src|dst. */
static inline bool wd_flows_wanted(const struct wd_opts *o)
{
	return o->tcp || wd_group_by_flow(o->group_by);
}

/* Status codes: 0 ok, 1 runtime failure, 2 usage error. */
#define WD_EXIT_USAGE 2

#endif /* WD_OPTS_H */
