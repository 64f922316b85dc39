/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A tracing session: resolve filters, load and attach the BPF program (or
 * open drop_monitor), read its exact counts and sampled records, detach.
 * Shared by the live commands: top, watch, count, record, serve.
 */
#ifndef WD_SESSION_H
#define WD_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "format.h"
#include "keyset.h"
#include "ksym.h"
#include "netns.h"
#include "opts.h"
#include "reasons.h"
#include "runtime.h"
#include "stack.h"
#include "who.h"
#include "whydrop_types.h"

struct whydrop_bpf;
struct wd_groups;
struct whydrop_nobtf_bpf;
struct bpf_link;
struct ring_buffer;
struct wd_dm_source;
struct wd_cgroup_events;

typedef void (*wd_event_fn)(void *ctx, const struct wd_event *ev);
struct wd_sock_total;
/* Takes a swapped-out socket's count under a name of its own (true), or leaves it (false). */
typedef bool (*wd_sock_fold_fn)(void *ctx, const struct wd_sock_total *t);

/* A counting hash in generations (src/core/generations.c). */
struct wd_gen {
	int outer_fd;	/* the one-slot array of maps the program finds it in */
	int cur_fd;	/* the hash of this generation (ours to close), -1: none */
	int spare_fd;	/* the next one, empty; -1: no more swaps */
};

struct wd_session {
	struct whydrop_bpf *skel;		/* the CO-RE program, or */
	struct whydrop_nobtf_bpf *nobtf;	/* the fallback without kernel BTF */
	struct bpf_link *link;
	struct wd_gen counts;		/* the counting hash's generations */
	int overflow_fd, runs_fd, stats_fd, prog_fd;
	uint32_t map_size;		/* --map-size: keys per generation */
	bool stacks;				/* --stacks: the maps below are live */
	int stackmap_fd, stack_counts_fd, stack_overflow_fd;
	int filter_fd;			/* the translated pcap filter, -1 if none */
	int filter_ctx_fd;		/* its per-CPU state (nonlinear drops), -1 if none */
	struct wd_key_total *retired;	/* counts of swapped-out generations, by key */
	size_t n_retired;
	size_t gen_keys;		/* keys in this generation at the last read */
	unsigned int generations;	/* swaps so far */
	struct wd_key_total *last_keys;	/* the previous read, for monotonic totals */
	size_t n_last_keys;
	struct ring_buffer *rb;
	const char *attach_mode;	/* "tp_btf", "raw_tp" or "raw_tp, no BTF" */
	struct wd_reasons reasons;
	struct wd_ksyms ksyms;
	struct wd_ifnames ifnames;
	struct wd_who who;		/* names for sampled records: netns, socket owner */
	struct wd_groups *groups;	/* count/top --group-by, NULL if not asked */
	struct wd_gen socks;		/* the by-socket hash's (--group-by cgroup|process) */
	struct wd_sock_total *sock_retired;	/* counts of its swapped-out generations */
	size_t n_sock_retired;
	unsigned int sock_generations;	/* its swaps so far */
	struct wd_cgroup_events *cgev;	/* cgroups made and gone (cgroup_events.c), or NULL */
	wd_sock_fold_fn sock_fold;	/* given each swapped-out count first, if set */
	void *sock_fold_ctx;
	char ev_ifname[WD_IFNAME_BYTES + 1];	/* of the last wd_session_view */
	struct wd_stack ev_stack;		/* of the last wd_session_view */
	/*
	 * --netns: the namespace (netns.inode 0: none), held open by netns_fd
	 * for the session: its inode cannot go to another namespace meanwhile.
	 */
	struct wd_netns_id netns;
	int netns_fd;
	uint32_t ifindex;
	char netns_path[300];
	struct wd_netns_name netns_name;	/* --netns: is it still named so? */
	double netns_check_at;		/* wd_now() of the next look */
	uint64_t mono_to_real_ns;	/* add to bpf_ktime_get_ns() for wall time */
	double attach_ms;
	double t_attached;		/* wd_now() when counting started */
	struct wd_cbpf_insn *filter;	/* compiled pcap filter, NULL if none */
	size_t filter_len;
	wd_event_fn on_event;
	void *event_ctx;
	char kernel[65];
	struct wd_dm_source *dm;	/* drop_monitor instead of BPF (source_dropmon.c) */
	bool details;			/* records asked for (watch, record) */
	bool verbose;			/* -v */
};

/* A (reason, location) total, summed over CPUs and the rest of the key. */
struct wd_total {
	uint32_t reason;
	uint64_t location;	/* 0: overflow bucket, location unknown */
	uint64_t count;
};

struct wd_stats {
	uint64_t seen;			/* drops counted: the sum of all counts */
	uint64_t v[WD_STAT_MAX];
	uint64_t rate_limited;		/* records over --rate: derived, not counted */
	uint64_t recursion_misses;	/* drops the kernel could not run us for */
	uint64_t filter_nonlinear;	/* left unmatched: the filter needed paged data */
};

/* A (reason, location, stack) total of --stacks (src/core/stacks.c). */
struct wd_stack_total {
	uint32_t reason;
	int32_t stack_id;	/* <0: the error instead of a stack; WD_STACK_NONE: overflow */
	uint64_t location;	/* 0: stack_counts was full */
	uint64_t count;
};

/*
 * key.ino of swapped-out counts whose socket's inode was let go: the counts of
 * sockets of one reason, namespace and cgroup that sock_fold did not take.
 */
#define WD_SOCK_INO_RETIRED	UINT64_MAX

/* Drops by socket (--group-by cgroup|process), summed over CPUs. */
struct wd_sock_total {
	struct wd_sock_key key;
	uint64_t count;
};

/* Returns 0, or an exit status after printing one clear message. */
int wd_session_open(struct wd_session *s, const struct wd_opts *o, bool details,
		    wd_event_fn fn, void *ctx);
void wd_session_close(struct wd_session *s);
/* Stop tracing but keep the maps readable, then deliver pending records. */
void wd_session_detach(struct wd_session *s);

/*
 * Once attached and set up: no capability in effect from here on (CAP_BPF
 * where the kernel demands it to read maps); what -p and drop_monitor need
 * now and then stays permitted, raised only around it. 0, or 1 after
 * saying why.
 */
int wd_session_drop_privileges(struct wd_session *s);
/* Sleep up to ms, delivering records; false once asked to stop. */
bool wd_session_poll(struct wd_session *s, int ms);
/*
 * Exact counts (src/core/counts.c). While attached they never decrease and
 * never exceed the truth; after wd_session_detach they are exact.
 * By the whole key, sorted by key; caller frees *out.
 */
int wd_session_keys(struct wd_session *s, struct wd_key_total **out, size_t *n);
/* By (reason, location), sorted by count; caller frees *out. */
int wd_session_totals(struct wd_session *s, struct wd_total **out, size_t *n);
int wd_session_stats(struct wd_session *s, struct wd_stats *st);
/* The same with the counts already read (seen is their sum). */
int wd_session_stats_of(struct wd_session *s, struct wd_stats *st,
			const struct wd_key_total *k, size_t n);
/* The kernel's by_socket counts, unsorted; caller frees *out. 0 or -errno. */
int wd_session_sock_totals(struct wd_session *s, struct wd_sock_total **out, size_t *n);
/*
 * Forget the counts by socket of these cgroups, sorted ids (serve: their
 * series retired), in the kept generations and the kernel's hash. 0 or -errno.
 */
int wd_session_sock_forget(struct wd_session *s, const uint64_t *ids, size_t n);
/*
 * --group-by cgroup: trace cgroups made and gone (cgroup_events.c), then
 * walk the hierarchy; while privileged. 0, or -1 when only walks will tell.
 */
int wd_session_cgroups_open(struct wd_session *s);
/* What the kernel told of cgroups since the last call, into s->who.cgroups. */
void wd_session_cgroups_read(struct wd_session *s);
void wd_session_cgroups_close(struct wd_session *s);
/* Resolve a record into a view; names live in the buffers given. */
void wd_session_view(struct wd_session *s, const struct wd_event *ev, struct wd_drop_view *v,
		     char *reason, char *function, char *location, size_t len);
/* Names for a total, for tables and JSON. */
void wd_session_row(struct wd_session *s, const struct wd_total *t, struct wd_count_row *row,
		    char *reason, char *subsys, char *function, char *location, size_t len);
/* --stacks totals, sorted by count; caller frees *out. */
int wd_session_stack_totals(struct wd_session *s, struct wd_stack_total **out, size_t *n);
/* The frames of a stack id (or a pseudo-frame for an error); 0 or -errno. */
int wd_session_stack(struct wd_session *s, int32_t stack_id, struct wd_stack *st);

#endif /* WD_SESSION_H */
