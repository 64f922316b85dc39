/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where drops come from: a source is an ops table, one instance per
 * implementation, as the kernel's struct proto_ops: the BPF program on
 * skb:kfree_skb (source_bpf.c) and the kernel's drop_monitor
 * (source_dropmon.c). The session (session.c) holds the sources of a run
 * and asks them, never by name, to deliver their records, to fill their
 * sections of a snapshot (snapshot.h), to keep their tables bounded, to
 * detach and to close; only the choice of --source (sources.c) names them.
 * How a further source (nftables traces, TCP events) plugs in:
 * docs/design.md, "Drop sources".
 */
#ifndef WD_SOURCE_H
#define WD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "whydrop_types.h"

struct wd_session;
struct wd_snapshot;
struct wd_opts;
struct wd_drop_view;
struct wd_stack;
struct wd_sock_total;

/* What a source can tell: sessions and outputs ask this, never its name. */
#define WD_SRC_NETNS	(1u << 0)	/* a drop's network namespace (its interface names) */
#define WD_SRC_SOCKETS	(1u << 1)	/* counts by socket (--group-by cgroup|process) */
#define WD_SRC_STACKS	(1u << 2)	/* kernel stacks (--stacks) */

/* Takes a swapped-out socket's count under a name of its own (true), or leaves it (false). */
typedef bool (*wd_sock_fold_fn)(void *ctx, const struct wd_sock_total *t);

struct wd_netns_id;

/*
 * What no longer exists, as the command judges it (wd_session_age()): a
 * namespace, a cgroup (by id), an interface of a namespace that lives.
 * NULL: never judged gone.
 */
struct wd_age {
	bool (*netns_gone)(void *ctx, const struct wd_netns_id *ns);
	bool (*cgroup_gone)(void *ctx, uint64_t id);
	bool (*iface_gone)(void *ctx, const struct wd_netns_id *ns, uint32_t ifindex);
	void *ctx;
};

struct wd_source;

struct wd_source_ops {
	const char *name;	/* --source NAME */
	/*
	 * Check the options against what it can do, then start: 0; <0
	 * (-errno) when it cannot work here, nothing said if quiet (--source
	 * auto then tries the next; src->lacks may name the capability it
	 * was refused); >0 an exit status after one message.
	 */
	int (*open)(struct wd_source *src, const struct wd_opts *o, bool quiet);
	/* A descriptor that becomes readable when records wait; -1 if none. */
	int (*fd)(struct wd_source *src);
	/* Deliver what waits through the session's callback, without blocking. 0 or -errno. */
	int (*poll)(struct wd_source *src);
	/* Fill its sections of snap. Reads only: nothing counted changes. 0 or -errno. */
	int (*snapshot)(struct wd_source *src, struct wd_snapshot *snap);
	/*
	 * After a snapshot: keep its tables bounded (generation swaps), the
	 * swapped-out counts by socket given to fold first (NULL: none).
	 * Optional. 0 or -errno.
	 */
	int (*maintain)(struct wd_source *src, wd_sock_fold_fn fold, void *ctx);
	/*
	 * Optional, after maintain: the kept counts of what a says is gone
	 * folded into its "(gone)" rows, every total the same. 0 or -errno.
	 */
	int (*age)(struct wd_source *src, const struct wd_age *a);
	/* Stop counting; the counts stay readable, pending records are delivered. */
	void (*detach)(struct wd_source *src);
	/* Free everything, src->priv included; safe after a failed open. */
	void (*close)(struct wd_source *src);

	/* Optional hooks: names of the codes only this source has, and what they lack. */
	/* Name code (and location); false: an ordinary code, the session names it. */
	bool (*names)(struct wd_source *src, uint32_t code, uint64_t location, char *reason,
		      char *function, char *loc, size_t len);
	/* The subsystem of such a code ("hardware"), NULL for an ordinary one. */
	const char *(*subsys)(struct wd_source *src, uint32_t code);
	/* What the view of a record being delivered gains or loses. */
	void (*view)(struct wd_source *src, const struct wd_event *ev, struct wd_drop_view *v);
	/* The frames of a stack id (WD_SRC_STACKS); 0 or -errno. */
	int (*stack)(struct wd_source *src, int32_t stack_id, struct wd_stack *st);
	/* Forget the counts by socket of these cgroups (sorted ids). 0 or -errno. */
	int (*forget_cgroups)(struct wd_source *src, const uint64_t *ids, size_t n);
};

struct wd_source {
	const struct wd_source_ops *ops;
	struct wd_session *s;		/* names, filters, the record callback */
	void *priv;			/* the implementation's own state */
	/* Set by open: */
	const char *what;		/* what it attached to: "skb:kfree_skb", "drop_monitor" */
	const char *attach_mode;	/* how: "tp_btf", "NET_DM packet mode, ..." */
	unsigned int caps;		/* WD_SRC_* */
	uint64_t keep_caps;		/* capabilities it needs now and then once attached */
	const char *keep_why;		/* why, as serve says it: "CAP_NET_ADMIN only, to ..." */
	int map_fd;			/* a map to probe for CAP_BPF (privileges.h); -1: none */
	const char *lacks;		/* a quiet open refused: the capability it lacked */
};

extern const struct wd_source_ops wd_source_bpf_ops;
extern const struct wd_source_ops wd_source_dropmon_ops;
extern const struct wd_source_ops wd_source_nftrace_ops;	/* --rules, beside bpf */
extern const struct wd_source_ops wd_source_tcp_ops;	/* --tcp, beside src[0] */

#endif /* WD_SOURCE_H */
