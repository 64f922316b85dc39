/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Inside the container-name cache: shared by containers.c and container_sources.c. */
#ifndef WD_CONTAINER_CACHE_H
#define WD_CONTAINER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "containers.h"

#define WD_CTR_MAX_WARNED	64

struct wd_ctr_entry {
	struct wd_ctr_entry *hnext;		/* hash chain */
	struct wd_ctr_entry *prev, *next;	/* most recently used first */
	struct wd_ctr_name c;
	enum wd_ctr_found found;
	bool complete;		/* nothing left to learn: never read again */
	double last_used, last_try;
	unsigned long gen;	/* the files' generation at the last try */
};

struct wd_ctr_names {
	char *root, *podman_roots, *docker_root, *pods_dir, *containers_dir;
	unsigned int max_entries;
	double refresh_s, max_idle_s;
	double (*clock)(void);
	wd_ctr_warn_fn warn;
	void *warn_ctx;

	struct wd_ctr_entry **buckets, *head, *tail;
	size_t nbuckets, n;

	uint64_t digest;	/* of the files' stat data: a change is a new generation */
	unsigned long gen;
	double last_digest, last_sweep;

	char *warned[WD_CTR_MAX_WARNED];
	size_t nwarned;
	struct wd_ctr_stats st;
};

/* ROOT + path into buf; false when it does not fit. */
bool wd_ctr_path(const struct wd_ctr_names *n, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A whole regular file (NUL-terminated, at most max bytes), or NULL with errno. */
char *wd_ctr_read(struct wd_ctr_names *n, const char *path, size_t max, size_t *len);
/* One warning per file: "PATH: WHAT". */
void wd_ctr_warn(struct wd_ctr_names *n, const char *path, const char *what);
/* fn(e, ctx) for every entry of a container id (one per runtime and pod). */
void wd_ctr_each_id(struct wd_ctr_names *n, const char *id,
		    void (*fn)(struct wd_ctr_entry *e, void *ctx), void *ctx);

/* found and complete from what e->c holds now. */
void wd_ctr_settle(struct wd_ctr_entry *e);

/* container_sources.c: fill what e->c lacks from the runtimes' files; never
 * replaces a name already learned. */
void wd_ctr_resolve(struct wd_ctr_names *n, struct wd_ctr_entry *e);
/* The stat data of every file and directory the sources read. */
uint64_t wd_ctr_digest(struct wd_ctr_names *n);

#endif /* WD_CONTAINER_CACHE_H */
