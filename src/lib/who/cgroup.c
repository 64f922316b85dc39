// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The path shapes are the ones container managers and systemd write:
 *   /system.slice/docker-<id>.scope                       docker, systemd driver
 *   /docker/<id>                                          docker, cgroupfs driver
 *   /machine.slice/libpod-<id>.scope                      podman (libpod-conmon-: its monitor)
 *   /libpod_parent/libpod-<id>                            podman, cgroupfs manager
 *   /kubepods.slice/kubepods-burstable.slice/
 *     kubepods-burstable-pod<uid_with_underscores>.slice/cri-containerd-<id>.scope
 *   /system.slice/containerd.service/kubepods-...-pod<uid>.slice:cri-containerd:<id>
 *   /kubepods/besteffort/pod<uid>/<id>                    kubelet, cgroupfs driver
 *   /kubepods.slice/.../crio-<id>.scope                   CRI-O
 *   /lxc.payload.<name>/...                               LXC
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "grow.h"
#include "sorted.h"

#define SHORT_ID	12	/* docker ps shows this many */
#define MAX_DEPTH	32

static bool is_hex_id(const char *s, size_t n)
{
	if (n < SHORT_ID || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

static void copy(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "<prefix><id>.scope", e.g. docker-<id>.scope; not the conmon monitors. */
static bool scope_id(const char *c, size_t n, const char *prefix, struct wd_cgroup_info *ci,
		     const char *runtime)
{
	size_t p = strlen(prefix), idlen;

	if (n <= p || memcmp(c, prefix, p) || !ends_with(c, n, ".scope"))
		return false;
	idlen = n - p - strlen(".scope");
	if (!is_hex_id(c + p, idlen))
		return false;
	copy(ci->container, sizeof(ci->container), c + p, idlen);
	copy(ci->runtime, sizeof(ci->runtime), runtime, strlen(runtime));
	return true;
}

/* "...:cri-containerd:<id>" (kubelet's systemd driver, no .scope). */
static bool colon_id(const char *c, size_t n, struct wd_cgroup_info *ci)
{
	static const char tag[] = ":cri-containerd:";
	const char *t = memmem(c, n, tag, sizeof(tag) - 1);
	size_t off;

	if (!t)
		return false;
	off = (size_t)(t - c) + sizeof(tag) - 1;
	if (!is_hex_id(c + off, n - off))
		return false;
	copy(ci->container, sizeof(ci->container), c + off, n - off);
	copy(ci->runtime, sizeof(ci->runtime), "containerd", strlen("containerd"));
	return true;
}

/* The QoS class named in "kubepods-burstable..." or "/kubepods/besteffort". */
static void pod_qos(const char *c, size_t n, struct wd_cgroup_info *ci)
{
	static const char *const classes[] = { "burstable", "besteffort" };

	for (size_t i = 0; i < 2; i++)
		if (memmem(c, n, classes[i], strlen(classes[i])))
			copy(ci->qos, sizeof(ci->qos), classes[i], strlen(classes[i]));
}

/* Where the UID starts in "pod<uid>" or "kubepods-...-pod<uid>.slice", or NULL. */
static const char *pod_uid_start(const char *c, size_t n)
{
	const char *p;

	if (n > 3 && !memcmp(c, "pod", 3))
		return c + 3;
	if (n <= 9 || memcmp(c, "kubepods-", 9))
		return NULL;
	p = memmem(c, n, "-pod", 4);	/* not the "pod" of "kubepods" */
	return p ? p + 4 : NULL;
}

static void pod_uid(const char *c, size_t n, struct wd_cgroup_info *ci)
{
	const char *p = pod_uid_start(c, n);
	size_t len;

	if (!p)
		return;
	len = (size_t)(c + n - p);
	if (ends_with(p, len, ".slice"))
		len -= strlen(".slice");
	if (len != WD_CGROUP_UID_LEN - 1)
		return;
	copy(ci->pod_uid, sizeof(ci->pod_uid), p, len);
	for (char *u = ci->pod_uid; *u; u++)
		if (*u == '_')
			*u = '-';
	if (!ci->qos[0])
		copy(ci->qos, sizeof(ci->qos), "guaranteed", strlen("guaranteed"));
}

static bool container_component(const char *c, size_t n, const char *parent, size_t pn,
				struct wd_cgroup_info *ci)
{
	if (scope_id(c, n, "docker-", ci, "docker") ||
	    scope_id(c, n, "libpod-", ci, "podman") ||
	    scope_id(c, n, "cri-containerd-", ci, "containerd") ||
	    scope_id(c, n, "crio-", ci, "cri-o"))
		return true;
	if (n > 12 && !memcmp(c, "lxc.payload.", 12)) {
		copy(ci->container, sizeof(ci->container), c + 12, n - 12);
		copy(ci->runtime, sizeof(ci->runtime), "lxc", 3);
		return true;
	}
	/* podman's cgroupfs manager: no .scope (its conmon is "conmon" beside it) */
	if (pn == 13 && !memcmp(parent, "libpod_parent", 13) && n > 7 &&
	    !memcmp(c, "libpod-", 7) && is_hex_id(c + 7, n - 7)) {
		copy(ci->container, sizeof(ci->container), c + 7, n - 7);
		copy(ci->runtime, sizeof(ci->runtime), "podman", 6);
		return true;
	}
	if (pn == 6 && !memcmp(parent, "docker", 6) && is_hex_id(c, n)) {
		copy(ci->container, sizeof(ci->container), c, n);
		copy(ci->runtime, sizeof(ci->runtime), "docker", 6);
		return true;
	}
	return false;
}

static void component(const char *c, size_t n, const char *parent, size_t pn,
		      bool in_kubepods, struct wd_cgroup_info *ci)
{
	const char *colon;

	if (container_component(c, n, parent, pn, ci))
		return;
	if (ends_with(c, n, ".service") || ends_with(c, n, ".scope"))
		copy(ci->unit, sizeof(ci->unit), c, n);
	if (!in_kubepods)
		return;
	/* "<pod slice>:cri-containerd:<id>" names the pod and the container. */
	colon = memchr(c, ':', n);
	if (colon && colon_id(c, n, ci))
		n = (size_t)(colon - c);
	pod_qos(c, n, ci);
	pod_uid(c, n, ci);
	/* cgroupfs driver: the container is the plain id under pod<uid>. */
	if (ci->pod_uid[0] && !ci->container[0] && is_hex_id(c, n))
		copy(ci->container, sizeof(ci->container), c, n);
}

void wd_cgroup_parse(const char *path, struct wd_cgroup_info *ci)
{
	const char *c = path, *parent = "";
	size_t pn = 0;
	bool kube = false;

	memset(ci, 0, sizeof(*ci));
	while (*c) {
		size_t n;

		while (*c == '/')
			c++;
		n = strcspn(c, "/");
		if (!n)
			break;
		if (n >= 8 && !memcmp(c, "kubepods", 8))
			kube = true;
		component(c, n, parent, pn, kube, ci);
		parent = c;
		pn = n;
		c += n;
	}
}

const char *wd_cgroup_label(const char *path, char *buf, size_t len)
{
	struct wd_cgroup_info ci;
	char ctr[WD_CGROUP_ID_LEN + 20] = "";

	wd_cgroup_parse(path, &ci);
	if (ci.container[0]) {
		bool lxc = !strcmp(ci.runtime, "lxc");

		snprintf(ctr, sizeof(ctr), "%s%s%.*s", ci.runtime, ci.runtime[0] ? ":" : "",
			 lxc ? (int)sizeof(ci.container) : SHORT_ID, ci.container);
	}
	if (ci.pod_uid[0])
		snprintf(buf, len, "pod %s%s%s", ci.pod_uid, ctr[0] ? "/" : "", ctr);
	else if (ctr[0])
		snprintf(buf, len, "%s", ctr);
	else if (ci.unit[0])
		snprintf(buf, len, "%s", ci.unit);
	else
		snprintf(buf, len, "%s", path);
	return buf;
}

const char *wd_cgroup_workload(const char *path, char *buf, size_t len)
{
	struct wd_cgroup_info ci;

	wd_cgroup_parse(path, &ci);
	if (ci.pod_uid[0]) {
		snprintf(buf, len, "pod %s", ci.pod_uid);
		return buf;
	}
	if (ci.container[0])
		return wd_cgroup_label(path, buf, len);
	if (len)
		buf[0] = '\0';
	return NULL;
}

/* ------------------------------------------------------------ id -> path */

/* mountinfo: "36 25 0:31 / /sys/fs/cgroup/unified rw,... - cgroup2 cgroup2 rw" */
int wd_cgroups_init(struct wd_cgroups *c, const char *mountinfo)
{
	char line[1024], mnt[256], mroot[256];
	FILE *f;

	memset(c, 0, sizeof(*c));
	f = fopen(mountinfo ? mountinfo : "/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - cgroup2 ");

		if (!sep || sscanf(line, "%*s %*s %*s %255s %255s", mroot, mnt) != 2)
			continue;
		snprintf(c->root, sizeof(c->root), "%s", mnt);
		snprintf(c->mnt_root, sizeof(c->mnt_root), "%s", mroot);
		break;
	}
	fclose(f);
	return c->root[0] ? 0 : -ENOENT;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Index of the first entry with an id >= id, among the sorted ones. */
static size_t lower_bound(const struct wd_cgroups *c, uint64_t id)
{
	return WD_LOWER_BOUND(c->v, c->n_sorted, id, id);
}

static struct wd_cgroup_entry *find(const struct wd_cgroups *c, uint64_t id)
{
	size_t i = lower_bound(c, id);

	return i < c->n_sorted && c->v[i].id == id ? &c->v[i] : NULL;
}

static int cmp_id(const void *a, const void *b)
{
	const struct wd_cgroup_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The entries a walk appended, sorted in with the rest: one sort, not a move each. */
static void sort_in(struct wd_cgroups *c)
{
	if (c->n_sorted == c->n)
		return;
	qsort(c->v, c->n, sizeof(*c->v), cmp_id);
	c->n_sorted = c->n;
}

/* The entry of id with this path (made, or the path replaced); NULL without memory. */
static struct wd_cgroup_entry *remember(struct wd_cgroups *c, uint64_t id, const char *rel)
{
	struct wd_cgroup_entry *e = find(c, id);
	char *p = strdup(rel[0] ? rel : "/");
	size_t at;

	if (!p)
		return e;
	if (e) {
		free(e->path);
		e->path = p;
		return e;
	}
	if (wd_grow(&c->v, &c->cap, c->n, sizeof(*c->v), 64)) {
		free(p);
		return NULL;
	}
	/* a walk appends (each directory once), sort_in() after it; an event inserts */
	at = c->walking ? c->n : lower_bound(c, id);
	memmove(&c->v[at + 1], &c->v[at], (c->n - at) * sizeof(*c->v));
	c->v[at] = (struct wd_cgroup_entry){ .id = id, .path = p };
	c->n++;
	if (!c->walking)
		c->n_sorted = c->n;
	return &c->v[at];
}

/* The cgroup v2 id is the inode number of the cgroup's directory. false: not all read. */
static bool walk(struct wd_cgroups *c, char *abs, size_t rootlen, size_t len, int depth)
{
	struct wd_cgroup_entry *e;
	struct dirent *de;
	struct stat st;
	bool whole = true;
	DIR *d;

	if (depth > MAX_DEPTH || stat(abs, &st))
		return false;
	e = remember(c, st.st_ino, abs + rootlen);
	if (e) {
		e->walk = c->walks;
		e->gone = 0;
	}
	d = opendir(abs);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		size_t n = strlen(abs);

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (n + 1 + strlen(de->d_name) >= len) {
			whole = false;
			continue;
		}
		snprintf(abs + n, len - n, "/%s", de->d_name);
		whole &= walk(c, abs, rootlen, len, depth + 1);
		abs[n] = '\0';
	}
	closedir(d);
	return whole;
}

void wd_cgroups_walk(struct wd_cgroups *c, double min_age)
{
	char abs[4096];
	double t = now_s();
	bool whole;

	if (!c->root[0] || (c->walks && t - c->last_walk < min_age))
		return;
	c->last_walk = t;
	c->walks++;
	snprintf(abs, sizeof(abs), "%s", c->root);
	c->walking = true;
	whole = walk(c, abs, strlen(c->root), sizeof(abs), 0);
	c->walking = false;
	sort_in(c);
	if (!whole)
		return;
	/* a whole walk that did not find a cgroup: it is gone */
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].walk != c->walks && !c->v[i].gone)
			c->v[i].gone = t;
}

const char *wd_cgroup_path(struct wd_cgroups *c, uint64_t id)
{
	const struct wd_cgroup_entry *e = find(c, id);

	if (e || !id || !c->root[0])
		return e ? e->path : NULL;
	wd_cgroups_walk(c, 1.0);
	e = find(c, id);
	return e ? e->path : NULL;
}

/* A path from the hierarchy's root as seen through our mount; NULL: outside it. */
static const char *below_mount(const struct wd_cgroups *c, const char *path)
{
	size_t n = strlen(c->mnt_root);

	if (!strcmp(c->mnt_root, "/") || !c->mnt_root[0])
		return path;
	if (strncmp(path, c->mnt_root, n) || (path[n] && path[n] != '/'))
		return NULL;
	return path + n;
}

void wd_cgroups_event(struct wd_cgroups *c, enum wd_cgroup_event ev, uint64_t id,
		      const char *path, double t)
{
	struct wd_cgroup_entry *e;

	if (ev == WD_CGROUP_MKDIR || ev == WD_CGROUP_RENAME) {
		const char *rel = path ? below_mount(c, path) : NULL;

		if (rel)
			remember(c, id, rel);
		return;
	}
	e = find(c, id);
	if (!e)
		return;
	if (!e->gone)
		e->gone = t;
	if (ev == WD_CGROUP_RELEASE)
		e->released = t;
}

double wd_cgroup_gone(const struct wd_cgroups *c, uint64_t id, bool *known)
{
	const struct wd_cgroup_entry *e = find(c, id);

	*known = e != NULL;
	return e ? e->gone : 0;
}

void wd_cgroups_prune(struct wd_cgroups *c, double now)
{
	wd_cgroups_prune_unused(c, now, c->keep, NULL, NULL);
}

void wd_cgroups_prune_unused(struct wd_cgroups *c, double now, double keep,
			     bool (*in_use)(void *ctx, uint64_t id), void *ctx)
{
	size_t out = 0;

	if (keep <= 0)
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct wd_cgroup_entry *e = &c->v[i];
		double since = c->events ? e->released : e->gone;

		if (since && now - since >= keep && !(in_use && in_use(ctx, e->id))) {
			free(e->path);
			continue;
		}
		c->v[out++] = *e;
	}
	c->n = c->n_sorted = out;
}

void wd_cgroups_free(struct wd_cgroups *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].path);
	free(c->v);
	c->v = NULL;
	c->n = c->cap = c->n_sorted = 0;
}
