// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Where each runtime keeps its names, and the order they are asked in:
 *   podman     <graph root>/<driver>-containers/containers.json (overlay, vfs, ...)
 *   docker     <data root>/containers/<id>/config.v2.json
 *   Kubernetes <containers_dir>/<pod>_<ns>_<container>-<id>.log, a link into
 *              <pods_dir>/<ns>_<pod>_<uid>/<container>/<N>.log; the pod's own
 *              directory when no link names the container (the sandbox)
 * CRI-O keeps its containers in containers/storage too, named
 * k8s_<container>_<pod>_<ns>_<uid>_<attempt>; dockershim's carry the pod in
 * io.kubernetes.* labels. A pod's name is only taken from a file that names
 * the same pod UID as the cgroup path.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container_cache.h"
#include "container_formats.h"

#define PODMAN_MAX	(64u << 20)	/* containers.json: ~1 KiB per container */
#define DOCKER_MAX	(8u << 20)

static void set(char *dst, size_t cap, const char *s)
{
	snprintf(dst, cap, "%s", s);
}

static bool is(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* ------------------------------------------------------------ what changed */

static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 1099511628211ULL;
	return h;
}

static uint64_t mix_stat(uint64_t h, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return mix(h, (uint64_t)errno);
	h = mix(h, st.st_dev);
	h = mix(h, st.st_ino);
	h = mix(h, (uint64_t)st.st_mtim.tv_sec);
	h = mix(h, (uint64_t)st.st_mtim.tv_nsec);
	return mix(h, (uint64_t)st.st_size);
}

typedef void (*each_file_fn)(struct wd_ctr_names *n, const char *path, void *ctx);

/* Every <root>/<driver>-containers/containers.json of every podman root. */
static void each_podman_file(struct wd_ctr_names *n, each_file_fn fn, void *ctx)
{
	char roots[PATH_MAX], dir[PATH_MAX], path[PATH_MAX], *save = NULL;
	struct dirent *de;
	DIR *d;

	set(roots, sizeof(roots), n->podman_roots);
	for (char *r = strtok_r(roots, ":", &save); r; r = strtok_r(NULL, ":", &save)) {
		if (!wd_ctr_path(n, dir, sizeof(dir), "%s", r) || !(d = opendir(dir)))
			continue;
		n->st.dirs_read++;
		while ((de = readdir(d))) {
			size_t len = strlen(de->d_name);

			if (len <= 11 || strcmp(de->d_name + len - 11, "-containers") ||
			    !wd_ctr_path(n, path, sizeof(path), "%s/%s/containers.json", r,
					 de->d_name))
				continue;
			fn(n, path, ctx);
		}
		closedir(d);
	}
}

static void digest_file(struct wd_ctr_names *n, const char *path, void *ctx)
{
	uint64_t *h = ctx;

	(void)n;
	*h = mix_stat(*h, path);
}

uint64_t wd_ctr_digest(struct wd_ctr_names *n)
{
	uint64_t h = 1469598103934665603ULL;
	char path[PATH_MAX];

	each_podman_file(n, digest_file, &h);
	if (wd_ctr_path(n, path, sizeof(path), "%s/containers", n->docker_root))
		h = mix_stat(h, path);
	if (wd_ctr_path(n, path, sizeof(path), "%s", n->containers_dir))
		h = mix_stat(h, path);
	if (wd_ctr_path(n, path, sizeof(path), "%s", n->pods_dir))
		h = mix_stat(h, path);
	return h;
}

/* A file or directory that exists but cannot be used: one warning. */
static void warn_errno(struct wd_ctr_names *n, const char *path)
{
	char what[128];

	if (errno == ENOENT || errno == ENOTDIR)
		return;
	if (errno == EFBIG)
		set(what, sizeof(what), "too large to be a runtime's file");
	else if (errno == EINVAL)
		set(what, sizeof(what), "not a regular file");
	else
		snprintf(what, sizeof(what), "cannot be read: %s", strerror(errno));
	wd_ctr_warn(n, path, what);
}

/* ------------------------------------------------------------ podman, CRI-O */

/* A storage name for entry e: podman's own, or CRI-O's k8s_ name of e's pod. */
static void storage_name(struct wd_ctr_entry *e, const char *name)
{
	struct wd_ctr_name k = { 0 };

	if (e->c.name[0])
		return;
	if (!e->c.pod_uid[0]) {
		if (is(e->c.runtime, "podman"))
			set(e->c.name, sizeof(e->c.name), name);
		return;
	}
	if (!wd_k8s_runtime_name(name, &k) || !is(k.pod_uid, e->c.pod_uid))
		return;
	memcpy(e->c.name, k.name, sizeof(k.name));
	memcpy(e->c.pod, k.pod, sizeof(k.pod));
	memcpy(e->c.k8s_namespace, k.k8s_namespace, sizeof(k.k8s_namespace));
}

struct podman_ctx {
	struct wd_ctr_names *n;
	struct wd_ctr_entry *want;
	const char *name;
};

static void podman_name(struct wd_ctr_entry *e, void *ctx)
{
	struct podman_ctx *p = ctx;

	if (e->complete)
		return;
	storage_name(e, p->name);
	if (e != p->want)
		wd_ctr_settle(e);
}

/* Every container of the file: the one asked for, and others waiting for a name. */
static void podman_each(void *ctx, const char *id, const char *name)
{
	struct podman_ctx *p = ctx;

	p->name = name;
	wd_ctr_each_id(p->n, id, podman_name, p);
}

static void podman_file(struct wd_ctr_names *n, const char *path, void *ctx)
{
	char what[96];
	size_t len = 0;
	char *text = wd_ctr_read(n, path, PODMAN_MAX, &len);
	int bad;

	if (!text) {
		warn_errno(n, path);
		return;
	}
	bad = wd_podman_parse(text, len, podman_each, ctx);
	free(text);
	if (bad < 0)
		wd_ctr_warn(n, path, "not a JSON array of containers");
	if (bad > 0) {
		snprintf(what, sizeof(what), "%d entr%s without a valid id and name skipped",
			 bad, bad == 1 ? "y" : "ies");
		wd_ctr_warn(n, path, what);
	}
}

/* ------------------------------------------------------------ docker */

static void docker(struct wd_ctr_names *n, struct wd_ctr_entry *e)
{
	struct wd_ctr_name d = { 0 }, k = { 0 };
	char path[PATH_MAX];
	size_t len = 0;
	char *text;
	int rc;

	if (!wd_ctr_path(n, path, sizeof(path), "%s/containers/%s/config.v2.json",
			 n->docker_root, e->c.id))
		return;
	text = wd_ctr_read(n, path, DOCKER_MAX, &len);
	if (!text) {
		warn_errno(n, path);
		return;
	}
	rc = wd_docker_parse(text, len, e->c.id, &d, &k);
	free(text);
	if (rc) {
		wd_ctr_warn(n, path, "not a docker container's configuration of this id");
		return;
	}
	if (!e->c.pod_uid[0]) {
		set(e->c.name, sizeof(e->c.name), d.name);
		return;
	}
	/* a kubepods path: the labels' pod, when it is the path's */
	if (!k.pod[0] || !is(k.pod_uid, e->c.pod_uid))
		return;
	memcpy(e->c.name, k.name, sizeof(k.name));
	memcpy(e->c.pod, k.pod, sizeof(k.pod));
	memcpy(e->c.k8s_namespace, k.k8s_namespace, sizeof(k.k8s_namespace));
}

/* ------------------------------------------------------------ kubelet's files */

static DIR *open_dir(struct wd_ctr_names *n, const char *dir, char *path, size_t len)
{
	DIR *d;

	if (!wd_ctr_path(n, path, len, "%s", dir))
		return NULL;
	d = opendir(path);
	if (!d)
		warn_errno(n, path);
	else
		n->st.dirs_read++;
	return d;
}

/* The link of e's container, checked against where it points. */
static bool log_link(struct wd_ctr_names *n, struct wd_ctr_entry *e, const char *dir,
		     const char *fname)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct wd_ctr_name k = { 0 };
	ssize_t t;

	if (snprintf(path, sizeof(path), "%s/%s", dir, fname) >= (int)sizeof(path))
		return false;
	if (!wd_k8s_log_name(fname, &k) || !is(k.id, e->c.id)) {
		wd_ctr_warn(n, path, "not named <pod>_<namespace>_<container>-<id>.log");
		return false;
	}
	snprintf(k.pod_uid, sizeof(k.pod_uid), "%s", e->c.pod_uid);
	t = readlink(path, target, sizeof(target) - 1);
	if (t < 0) {
		wd_ctr_warn(n, path, "not a link to the container's log");
		return false;
	}
	target[t] = '\0';
	if (!wd_k8s_log_target_ok(target, &k)) {
		wd_ctr_warn(n, path, "its target names another pod or container");
		return false;
	}
	memcpy(e->c.name, k.name, sizeof(k.name));
	memcpy(e->c.pod, k.pod, sizeof(k.pod));
	memcpy(e->c.k8s_namespace, k.k8s_namespace, sizeof(k.k8s_namespace));
	return true;
}

static void k8s_container(struct wd_ctr_names *n, struct wd_ctr_entry *e)
{
	char dir[PATH_MAX], suffix[80];
	size_t sl = (size_t)snprintf(suffix, sizeof(suffix), "-%s.log", e->c.id);
	DIR *d = open_dir(n, n->containers_dir, dir, sizeof(dir));
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > sl && !strcmp(de->d_name + len - sl, suffix) &&
		    log_link(n, e, dir, de->d_name))
			break;
	}
	closedir(d);
}

/* The pod's directory: its name and namespace, even without a container's. */
static void k8s_pod(struct wd_ctr_names *n, struct wd_ctr_entry *e)
{
	char dir[PATH_MAX];
	size_t ul = strlen(e->c.pod_uid);
	DIR *d = open_dir(n, n->pods_dir, dir, sizeof(dir));
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct wd_ctr_name k = { 0 };
		size_t len = strlen(de->d_name);

		if (len <= ul || strcmp(de->d_name + len - ul, e->c.pod_uid) ||
		    !wd_k8s_pod_dir(de->d_name, len, &k) || !is(k.pod_uid, e->c.pod_uid))
			continue;
		memcpy(e->c.pod, k.pod, sizeof(k.pod));
		memcpy(e->c.k8s_namespace, k.k8s_namespace, sizeof(k.k8s_namespace));
		break;
	}
	closedir(d);
}

/* ------------------------------------------------------------ in order */

void wd_ctr_resolve(struct wd_ctr_names *n, struct wd_ctr_entry *e)
{
	const char *rt = e->c.runtime;
	struct podman_ctx p = { .n = n, .want = e };
	bool id = e->c.id[0], pod = e->c.pod_uid[0];

	if (id && !e->c.name[0] && (is(rt, "docker") || (!rt[0] && pod)))
		docker(n, e);
	if (id && pod && !e->c.name[0])
		k8s_container(n, e);
	if (id && !e->c.name[0] && (is(rt, "podman") || is(rt, "cri-o") || !rt[0]))
		each_podman_file(n, podman_file, &p);
	if (pod && !e->c.pod[0])
		k8s_pod(n, e);
}
