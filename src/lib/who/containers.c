// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The cache of container and pod names: a hash by container id (or pod
 * UID) with the most recently used entry first. A name once found is kept
 * for as long as it is looked up (never read again: the container may be
 * gone); an entry that lacks a name is tried again on a later lookup only
 * once the refresh interval has passed and the runtimes' files have
 * changed (their stat data, read at most once per interval). Bounded: the least recently
 * used entry makes room, and entries idle for max_idle_s go.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "container_cache.h"
#include "container_formats.h"

void wd_ctr_config_default(struct wd_ctr_config *cfg)
{
	*cfg = (struct wd_ctr_config){
		.root = "",
		.podman_roots = "/var/lib/containers/storage",
		.docker_root = "/var/lib/docker",
		.pods_dir = "/var/log/pods",
		.containers_dir = "/var/log/containers",
		.max_entries = 1024,
		.refresh_s = 1.0,
		.max_idle_s = 600.0,
	};
}

static double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *dup_or(const char *s, const char *dflt)
{
	return strdup(s ? s : dflt);
}

/* "/host/" -> "/host", "/" -> "": paths below are absolute. */
static void trim_root(char *root)
{
	size_t n = strlen(root);

	while (n && root[n - 1] == '/')
		root[--n] = '\0';
}

struct wd_ctr_names *wd_ctr_names_new(const struct wd_ctr_config *cfg)
{
	struct wd_ctr_config d;
	struct wd_ctr_names *n;
	size_t b = 16;

	wd_ctr_config_default(&d);
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->root = dup_or(cfg->root, "");
	n->podman_roots = dup_or(cfg->podman_roots, d.podman_roots);
	n->docker_root = dup_or(cfg->docker_root, d.docker_root);
	n->pods_dir = dup_or(cfg->pods_dir, d.pods_dir);
	n->containers_dir = dup_or(cfg->containers_dir, d.containers_dir);
	n->max_entries = cfg->max_entries ? cfg->max_entries : d.max_entries;
	n->refresh_s = cfg->refresh_s > 0 ? cfg->refresh_s : d.refresh_s;
	n->max_idle_s = cfg->max_idle_s > 0 ? cfg->max_idle_s : d.max_idle_s;
	n->clock = cfg->clock ? cfg->clock : monotonic_s;
	n->warn = cfg->warn;
	n->warn_ctx = cfg->warn_ctx;
	while (b < 2 * (size_t)n->max_entries && b < (1u << 20))
		b *= 2;
	n->nbuckets = b;
	n->buckets = calloc(b, sizeof(*n->buckets));
	if (!n->root || !n->podman_roots || !n->docker_root || !n->pods_dir ||
	    !n->containers_dir || !n->buckets) {
		wd_ctr_names_free(n);
		return NULL;
	}
	trim_root(n->root);
	return n;
}

void wd_ctr_names_free(struct wd_ctr_names *n)
{
	struct wd_ctr_entry *e, *next;

	if (!n)
		return;
	for (e = n->head; e; e = next) {
		next = e->next;
		free(e);
	}
	for (size_t i = 0; i < n->nwarned; i++)
		free(n->warned[i]);
	free(n->buckets);
	free(n->root);
	free(n->podman_roots);
	free(n->docker_root);
	free(n->pods_dir);
	free(n->containers_dir);
	free(n);
}

/* ------------------------------------------------------------ files */

bool wd_ctr_path(const struct wd_ctr_names *n, char *buf, size_t len, const char *fmt, ...)
{
	size_t r = strlen(n->root);
	va_list ap;
	int w;

	if (r >= len)
		return false;
	memcpy(buf, n->root, r + 1);
	va_start(ap, fmt);
	w = vsnprintf(buf + r, len - r, fmt, ap);
	va_end(ap);
	return w >= 0 && (size_t)w < len - r;
}

static char *read_fd(int fd, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1), *tmp;
	ssize_t r;

	while (buf) {
		if (n == cap) {
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			tmp = realloc(buf, cap + 1);
			if (!tmp)
				break;
			buf = tmp;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (r == 0) {
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		n += (size_t)r;
		if (n > max) {
			errno = EFBIG;
			break;
		}
	}
	free(buf);
	return NULL;
}

char *wd_ctr_read(struct wd_ctr_names *n, const char *path, size_t max, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	int fd, err;

	/* O_NONBLOCK: a FIFO in its place must not hang the caller */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st))
		goto out;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		goto out;
	}
	n->st.files_read++;
	buf = read_fd(fd, max, len);
out:
	err = errno;
	close(fd);
	errno = err;
	return buf;
}

void wd_ctr_warn(struct wd_ctr_names *n, const char *path, const char *what)
{
	char msg[4200];

	for (size_t i = 0; i < n->nwarned; i++)
		if (!strcmp(n->warned[i], path))
			return;
	if (n->nwarned == WD_CTR_MAX_WARNED)
		return;
	n->warned[n->nwarned] = strdup(path);
	if (!n->warned[n->nwarned])
		return;
	n->nwarned++;
	n->st.warnings++;
	if (n->nwarned == WD_CTR_MAX_WARNED)
		snprintf(msg, sizeof(msg), "%s: %s (containers shown by id; further such files "
			 "are not reported)", path, what);
	else
		snprintf(msg, sizeof(msg), "%s: %s (containers shown by id)", path, what);
	if (n->warn)
		n->warn(n->warn_ctx, msg);
	else
		fprintf(stderr, "whydrop: %s\n", msg);
}

/* ------------------------------------------------------------ the cache */

static const char *key_of(const struct wd_ctr_name *c)
{
	return c->id[0] ? c->id : c->pod_uid;
}

static size_t bucket(const struct wd_ctr_names *n, const char *key)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 1099511628211ULL;
	return (size_t)(h & (n->nbuckets - 1));
}

/* The same id under another runtime or pod is another entry: never its name. */
static bool same_key(const struct wd_ctr_name *a, const struct wd_ctr_name *b)
{
	return !strcmp(a->id, b->id) && !strcmp(a->pod_uid, b->pod_uid) &&
	       !strcmp(a->runtime, b->runtime);
}

static struct wd_ctr_entry *find(struct wd_ctr_names *n, const struct wd_ctr_name *k)
{
	struct wd_ctr_entry *e = n->buckets[bucket(n, key_of(k))];

	while (e && !same_key(&e->c, k))
		e = e->hnext;
	return e;
}

void wd_ctr_each_id(struct wd_ctr_names *n, const char *id,
		    void (*fn)(struct wd_ctr_entry *e, void *ctx), void *ctx)
{
	struct wd_ctr_entry *e = n->buckets[bucket(n, id)];

	for (; e; e = e->hnext)
		if (!strcmp(e->c.id, id))
			fn(e, ctx);
}

static void unlink_lru(struct wd_ctr_names *n, struct wd_ctr_entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		n->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		n->tail = e->prev;
	e->prev = e->next = NULL;
}

static void push_front(struct wd_ctr_names *n, struct wd_ctr_entry *e)
{
	e->next = n->head;
	if (n->head)
		n->head->prev = e;
	n->head = e;
	if (!n->tail)
		n->tail = e;
}

static void drop(struct wd_ctr_names *n, struct wd_ctr_entry *e)
{
	struct wd_ctr_entry **p = &n->buckets[bucket(n, key_of(&e->c))];

	while (*p != e)
		p = &(*p)->hnext;
	*p = e->hnext;
	unlink_lru(n, e);
	free(e);
	n->n--;
}

/* Entries idle for max_idle_s go; looked at once per refresh interval. */
static void sweep(struct wd_ctr_names *n, double now)
{
	if (n->last_sweep && now - n->last_sweep < n->refresh_s)
		return;
	n->last_sweep = now;
	while (n->tail && now - n->tail->last_used >= n->max_idle_s) {
		drop(n, n->tail);
		n->st.aged++;
	}
}

static struct wd_ctr_entry *insert(struct wd_ctr_names *n, const struct wd_ctr_name *k)
{
	struct wd_ctr_entry *e;
	size_t b;

	if (n->n >= n->max_entries && n->tail) {
		drop(n, n->tail);
		n->st.evicted++;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->c = *k;
	b = bucket(n, key_of(k));
	e->hnext = n->buckets[b];
	n->buckets[b] = e;
	push_front(n, e);
	n->n++;
	return e;
}

/* The files' generation, their stat data read at most once per interval. */
static unsigned long generation(struct wd_ctr_names *n, double now)
{
	uint64_t d;

	if (n->last_digest && now - n->last_digest < n->refresh_s)
		return n->gen;
	n->last_digest = now;
	d = wd_ctr_digest(n);
	if (d != n->digest) {
		n->digest = d;
		n->gen++;
	}
	return n->gen;
}

/* An unnamed entry: worth reading the files again? */
static bool retry_due(struct wd_ctr_names *n, struct wd_ctr_entry *e, double now)
{
	if (now - e->last_try < n->refresh_s)
		return false;
	if (generation(n, now) != e->gen)
		return true;
	e->last_try = now;
	return false;
}

/*
 * Complete: the container's name, and its pod's (a sandbox has no container
 * name: it is tried again whenever the files change, as a new one is).
 */
void wd_ctr_settle(struct wd_ctr_entry *e)
{
	const struct wd_ctr_name *c = &e->c;

	e->found = c->name[0] || c->pod[0] ? WD_CTR_NAMED : WD_CTR_BARE;
	if (c->pod_uid[0])
		e->complete = c->pod[0] && (!c->id[0] || c->name[0]);
	else
		e->complete = c->name[0];
}

static void resolve(struct wd_ctr_names *n, struct wd_ctr_entry *e, double now)
{
	e->last_try = now;
	e->gen = generation(n, now);
	n->st.resolves++;
	wd_ctr_resolve(n, e);
	wd_ctr_settle(e);
}

enum wd_ctr_found wd_ctr_lookup(struct wd_ctr_names *n, const char *cgroup_path,
				struct wd_ctr_name *out)
{
	struct wd_ctr_name k;
	struct wd_ctr_entry *e;
	double now;

	if (!wd_ctr_key(cgroup_path, &k)) {
		*out = k;
		return WD_CTR_NONE;
	}
	now = n->clock();
	n->st.lookups++;
	sweep(n, now);
	e = find(n, &k);
	if (e) {
		e->last_used = now;
		unlink_lru(n, e);
		push_front(n, e);
		if (e->complete || !retry_due(n, e, now)) {
			n->st.hits++;
			*out = e->c;
			return e->found;
		}
	} else {
		e = insert(n, &k);
		if (!e) {
			*out = k;
			return WD_CTR_BARE;
		}
		e->last_used = now;
	}
	resolve(n, e, now);
	*out = e->c;
	return e->found;
}

/* A bare id is shown as cgroup.c labels it: 12 hex digits, as docker ps does. */
const char *wd_ctr_label(const struct wd_ctr_name *c, char *buf, size_t len)
{
	const char *rt = c->runtime, *colon = rt[0] ? ":" : "";

	if (c->pod[0])
		snprintf(buf, len, "pod %s/%s%s%s", c->k8s_namespace, c->pod,
			 c->name[0] ? "/" : "", c->name);
	else if (c->name[0])
		snprintf(buf, len, "%s%s%s", rt, colon, c->name);
	else if (c->pod_uid[0] && c->id[0])
		snprintf(buf, len, "pod %s/%s%s%.12s", c->pod_uid, rt, colon, c->id);
	else if (c->pod_uid[0])
		snprintf(buf, len, "pod %s", c->pod_uid);
	else
		snprintf(buf, len, "%s%s%.12s", rt, colon, c->id);
	return buf;
}

void wd_ctr_get_stats(const struct wd_ctr_names *n, struct wd_ctr_stats *st)
{
	*st = n->st;
	st->entries = n->n;
}
