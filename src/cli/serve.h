/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop serve, between its files: cmd_serve.c (options, the main loop),
 * serve_listen.c (the listening socket, least privilege) and
 * serve_metrics.c (the exposition of each scrape).
 */
#ifndef WD_SERVE_H
#define WD_SERVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "aging.h"
#include "noise.h"
#include "prom.h"
#include "session.h"

struct serve_opts {
	const char *listen;
	uint32_t max_series;
	bool per_if, per_netns;
	const char *user;
	bool netns_names, per_cgroup;
	bool per_container;	/* --per-container: implies per_cgroup */
	double series_grace;
};

/*
 * An object series belong to and may outlive (serve_series.c): a cgroup
 * (its id) or a network namespace (serve_ns_id()).
 */
struct wd_obj {
	uint64_t id;		/* 0: none (no socket, no namespace known): never retires */
	char *name;		/* cgroup: its label, learned while it exists; netns: its
				 * name when it last dropped (what tells it from a reuse) */
	struct wd_ctr_name *ctr;	/* cgroup, --per-container: its names once known */
	double changed;		/* when its drops last grew (first seen) */
	double gone;		/* since when it is gone; 0: it exists */
	uint64_t total, sum;	/* drops at the last scrape; this scrape's, being summed */
	bool seen;		/* named by this scrape's counts */
	bool retired;		/* its series are off the page */
	bool retiring;		/* retired at this scrape */
};

struct wd_objs {
	struct wd_obj *v;	/* sorted by id */
	size_t n, cap;
	double grace;		/* --series-grace */
	uint64_t retired;	/* objects retired so far */
};

/* Since when ob is gone at now (0: it exists); the caller's knowledge, and its name. */
typedef double (*wd_obj_gone_fn)(void *ctx, struct wd_obj *ob, double now);

/* A scrape: begin, count every object its counts name, settle. */
void wd_objs_begin(struct wd_objs *o);
int wd_objs_count(struct wd_objs *o, uint64_t id, uint64_t count, double now);
/* Who is gone, who retires (gone and silent for the grace), who is back; the unnamed forgotten. */
void wd_objs_settle(struct wd_objs *o, double now, wd_obj_gone_fn gone, void *ctx);
struct wd_obj *wd_objs_find(struct wd_objs *o, uint64_t id);
bool wd_objs_retired(struct wd_objs *o, uint64_t id);
void wd_objs_free(struct wd_objs *o);

struct serve {
	struct serve_opts so;
	struct wd_session s;
	pthread_mutex_t lock;
	struct wd_prom_cap cap_drops, cap_hidden, cap_if, cap_ns, cap_cg;
	struct wd_prom_cap cap_rules;	/* --rules: whydrop_netfilter_drops_total */
	struct wd_prom_cap cap_tcp;	/* --tcp --per-cgroup: whydrop_tcp_resets_total */
	struct wd_noise *noise;		/* expected drops, as top and count hide them */
	struct wd_objs cgroups;		/* --per-cgroup: the cgroups counted */
	struct wd_objs netns;		/* --per-netns, --per-interface: the namespaces */
	struct wd_aging aging;		/* gone namespaces, without --per-netns/-interface */
	uint64_t own_netns;		/* the namespace serve runs in (wd_serve_ns_id's kind) */
	bool keep_cap_bpf;
	bool verbose;
	uint64_t scrapes;
};

/*
 * A bound and listening socket for --listen arg; *v6 when IPv6. -2 for an
 * arg that is no ADDRESS:PORT (nothing said), -1 after one message.
 */
int wd_serve_listen(const char *arg, bool *v6);
/* After the bind and the attach: another user, and no capability at all. 0 or -1. */
int wd_serve_drop_privileges(struct serve *sv, uid_t uid, gid_t gid);
/* "listening on http://ADDR/metrics" with the uid and what it kept, on stderr. */
void wd_serve_announce(const struct serve *sv, int fd);

/* serve_who.c: a namespace's identity (0: none); its objects judged from the counts. */
uint64_t wd_serve_ns_id(const struct wd_key *k);
uint64_t wd_serve_ns_id_of(const struct wd_netns_id *ns);
int wd_serve_judge_netns(struct serve *sv, const struct wd_key_total *keys, size_t n);
/* After maintain: the counts of retired (or gone) namespaces folded. 0 or -errno. */
int wd_serve_age(struct serve *sv);
/* --per-cgroup: the family by cgroup from snap, capped; retired cgroups' counts forgotten. */
int wd_serve_fill_cgroups(struct serve *sv, const struct wd_snapshot *snap,
			  struct wd_prom_family *f);

/* The whole /metrics page in b (the HTTP layer's render callback); 0 or -errno. */
int wd_serve_render(void *ctx, struct wd_prom_buf *b);

#endif /* WD_SERVE_H */
