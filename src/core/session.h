/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A tracing session: resolve filters, open the drop source (the BPF
 * program, or drop_monitor: source.h), deliver its records, take snapshots
 * of what it counted (snapshot.h), name them, detach. Shared by the live
 * commands: top, watch, count, record, serve. The session keeps what every
 * source shares; what one source needs is in that source.
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
#include "snapshot.h"
#include "source.h"
#include "stack.h"
#include "who.h"
#include "whydrop_types.h"

struct wd_cgroup_events;

typedef void (*wd_event_fn)(void *ctx, const struct wd_event *ev);
struct wd_tcp_event;
/* --tcp: a record of the TCP source (a reset, a retransmission), not a drop */
typedef void (*wd_tcp_event_fn)(void *ctx, const struct wd_tcp_event *ev);

#define WD_SOURCES_MAX	4	/* sources of one session: drops, and what explains them */

struct wd_session {
	struct wd_source *src[WD_SOURCES_MAX];	/* src[0]: where drops come from */
	size_t n_src;
	/* names */
	struct wd_reasons reasons;
	struct wd_ksyms ksyms;
	struct wd_ifnames ifnames;
	struct wd_who who;		/* names for records and groups: netns, socket owner */
	struct wd_cgroup_events *cgev;	/* cgroups made and gone (cgroup_events.c), or NULL */
	/* filters: -r is parsed by each source (reason_bits.c), the rest here */
	struct wd_cbpf_insn *filter;	/* compiled pcap filter, NULL if none */
	size_t filter_len;
	/*
	 * --netns: the namespace (netns.inode 0: none), held open by netns_fd
	 * for the session: its inode cannot go to another namespace meanwhile.
	 */
	struct wd_netns_id netns;
	int netns_fd;
	uint32_t ifindex;		/* -i */
	char netns_path[300];
	struct wd_netns_name netns_name;	/* --netns: is it still named so? */
	double netns_check_at;		/* wd_now() of the next look */
	/* records */
	wd_event_fn on_event;
	void *event_ctx;
	wd_tcp_event_fn on_tcp;		/* --tcp records, to event_ctx; NULL: none */
	bool details;			/* records asked for (watch, record) */
	char ev_ifname[WD_IFNAME_BYTES + 1];	/* of the last wd_session_view */
	struct wd_stack ev_stack;		/* of the last wd_session_view */
	/* timing */
	uint64_t mono_to_real_ns;	/* add to bpf_ktime_get_ns() for wall time */
	double attach_ms;
	double t_attached;		/* wd_now() when counting started */
	char kernel[65];
	bool verbose;			/* -v */
};

/* Returns 0, or an exit status after printing one clear message. */
int wd_session_open(struct wd_session *s, const struct wd_opts *o, bool details,
		    wd_event_fn fn, void *ctx);
void wd_session_close(struct wd_session *s);
/* Stop tracing but keep the counts readable, then deliver pending records. */
void wd_session_detach(struct wd_session *s);
/* The drop source: its attach mode, what it can tell (WD_SRC_*). */
static inline const struct wd_source *wd_session_source(const struct wd_session *s)
{
	return s->src[0];
}

/*
 * Once attached and set up: no capability in effect from here on (CAP_BPF
 * where the kernel demands it to read maps); what -p and the sources need
 * now and then stays permitted, raised only around it. 0, or 1 after
 * saying why.
 */
int wd_session_drop_privileges(struct wd_session *s);
/*
 * What the sources keep once attached: capabilities (permitted, raised
 * around use), a map to probe for CAP_BPF (-1: none) and why, as serve
 * says it (NULL: nothing to say).
 */
void wd_session_keep_caps(const struct wd_session *s, uint64_t *caps, int *map_fd,
			  const char **why);
/* Sleep up to ms, delivering records; false once asked to stop. */
bool wd_session_poll(struct wd_session *s, int ms);
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
/* The frames of a stack id (or a pseudo-frame for an error); 0 or -errno. */
int wd_session_stack(struct wd_session *s, int32_t stack_id, struct wd_stack *st);

#endif /* WD_SESSION_H */
