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

#include "groups.h"
#include "prom.h"
#include "session.h"

struct serve_opts {
	const char *listen;
	uint32_t max_series;
	bool per_if, per_netns;
	const char *user;
	bool netns_names, per_cgroup;
};

struct serve {
	struct serve_opts so;
	struct wd_session s;
	pthread_mutex_t lock;
	struct wd_prom_cap cap_drops, cap_if, cap_ns, cap_cg;
	struct wd_groups groups;	/* --per-cgroup: counts by the socket's cgroup */
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

/* The whole /metrics page in b (the HTTP layer's render callback); 0 or -errno. */
int wd_serve_render(void *ctx, struct wd_prom_buf *b);

#endif /* WD_SERVE_H */
