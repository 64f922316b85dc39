// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "containers.h"
#include "grow.h"
#include "owners.h"

#define RESCAN_S	1.0

void wd_owners_init(struct wd_owners *o, const char *proc, const char *run_netns)
{
	memset(o, 0, sizeof(*o));
	o->proc = proc ? proc : "/proc";
	o->run_netns = run_netns ? run_netns : "/run/netns";
	o->netns_id = wd_netns_id_of_path;
	o->keep_unseen = WD_OWNERS_KEEP_UNSEEN;
}

void wd_owners_free(struct wd_owners *o)
{
	free(o->v);
	o->v = NULL;
	o->n = o->cap = 0;
	free(o->found);
	free(o->found_before);
	o->found = o->found_before = NULL;
	o->n_found = o->cap_found = o->n_found_before = o->cap_found_before = 0;
}

/*
 * By kind and inode; the best owner first: the best rank, then the lowest
 * pid, then the name in byte order (two `ip netns` names for one namespace:
 * always the same one, whatever order the directory lists them in).
 */
static int cmp_entry(const void *a, const void *b)
{
	const struct wd_owner_entry *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->by_inode != y->by_inode)
		return x->by_inode ? 1 : -1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->name, y->name);
}

static struct wd_owner_entry *find(struct wd_owners *o, enum wd_owner_kind kind, bool by_inode,
				    uint64_t ino)
{
	struct wd_owner_entry key = { .ino = ino, .kind = kind, .by_inode = by_inode }, *lo = o->v;
	size_t n = o->n;

	/* lower bound: the entries are unique after the scan's sort */
	while (n) {
		size_t half = n / 2;

		if (cmp_entry(&lo[half], &key) < 0) {
			lo += half + 1;
			n -= half + 1;
		} else {
			n = half;
		}
	}
	if (lo < o->v + o->n && lo->kind == kind && lo->by_inode == by_inode && lo->ino == ino)
		return lo;
	return NULL;
}

static void offer(struct wd_owners *o, enum wd_owner_kind kind, bool by_inode, uint64_t ino,
		  enum wd_netns_rank rank, pid_t pid, const char *name)
{
	struct wd_owner_entry *tmp;

	if (wd_grow(&o->v, &o->cap, o->n, sizeof(*o->v), 256))
		return;
	tmp = o->v;
	tmp[o->n] = (struct wd_owner_entry){ .ino = ino, .kind = kind, .by_inode = by_inode,
					     .rank = rank, .pid = pid, .seen = o->scans };
	snprintf(tmp[o->n].name, sizeof(tmp[o->n].name), "%s", name);
	o->n++;
}

/* Sort entries, then keep the best owner of each inode. */
static size_t settle_entries(struct wd_owner_entry *v, size_t n)
{
	size_t w = 0;

	if (!n)
		return 0;	/* nothing found: v may be NULL, no qsort of it */
	qsort(v, n, sizeof(*v), cmp_entry);
	for (size_t r = 0; r < n; r++) {
		if (w && v[w - 1].kind == v[r].kind && v[w - 1].by_inode == v[r].by_inode &&
		    v[w - 1].ino == v[r].ino) {
			/* the best name stays, found as lately as any of its names */
			if (v[r].seen > v[w - 1].seen)
				v[w - 1].seen = v[r].seen;
			continue;
		}
		v[w++] = v[r];
	}
	return w;
}

static int cmp_seen_desc(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x > y ? -1 : x < y;
}

static bool unseen(const struct wd_owners *o, const struct wd_owner_entry *e)
{
	/* a name the user gave stays (sockets have rank 0 too) */
	return e->seen != o->scans && (e->kind != WD_OWNER_NETNS || e->rank != WD_NETNS_GIVEN);
}

/*
 * The last scan found, and the keep_unseen most recently found of the rest:
 * the scan before which they were last found, at least (cut), a few more
 * of that scan in table order while there is room.
 */
static void age(struct wd_owners *o)
{
	unsigned int *seen, cut;
	size_t n = 0, w = 0, room;

	for (size_t i = 0; i < o->n; i++)
		n += unseen(o, &o->v[i]);
	if (n <= o->keep_unseen)
		return;
	seen = malloc(n * sizeof(*seen));
	if (!seen)
		return;		/* kept for now: the next scan tries again */
	n = 0;
	for (size_t i = 0; i < o->n; i++)
		if (unseen(o, &o->v[i]))
			seen[n++] = o->v[i].seen;
	qsort(seen, n, sizeof(*seen), cmp_seen_desc);
	cut = o->keep_unseen ? seen[o->keep_unseen - 1] : o->scans;
	room = o->keep_unseen;
	for (size_t i = 0; i < n; i++)
		room -= seen[i] > cut;	/* what is kept above the cut */
	for (size_t i = 0; i < o->n; i++) {
		const struct wd_owner_entry *e = &o->v[i];

		if (unseen(o, e) && (e->seen < cut || (e->seen == cut && !room)))
			continue;
		if (unseen(o, e) && e->seen == cut)
			room--;
		o->v[w++] = *e;
	}
	o->n = w;
	free(seen);
}

static void settle(struct wd_owners *o)
{
	o->n = settle_entries(o->v, o->n);
}

/* The namespaces this scan offered (entries from first on), apart: what is there now. */
static bool keep_found(struct wd_owners *o, size_t first)
{
	struct wd_owner_entry *tmp = o->found_before;
	size_t n = 0, cap = o->cap_found_before;

	/* the last scan's become the one before */
	o->found_before = o->found;
	o->n_found_before = o->n_found;
	o->cap_found_before = o->cap_found;
	o->found = tmp;
	o->cap_found = cap;
	for (size_t i = first; i < o->n; i++)
		n += o->v[i].kind == WD_OWNER_NETNS;
	o->n_found = 0;
	if (n > o->cap_found) {
		struct wd_owner_entry *tmp = realloc(o->found, n * sizeof(*tmp));

		if (!tmp)
			return false;
		o->found = tmp;
		o->cap_found = n;
	}
	for (size_t i = first; i < o->n; i++)
		if (o->v[i].kind == WD_OWNER_NETNS)
			o->found[o->n_found++] = o->v[i];
	o->n_found = settle_entries(o->found, o->n_found);
	return true;
}

/* A namespace's name, under its cookie if known, else under its inode. */
static void offer_netns(struct wd_owners *o, const struct wd_netns_id *ns,
			enum wd_netns_rank rank, pid_t pid, const char *name)
{
	if (ns->cookie)
		offer(o, WD_OWNER_NETNS, false, ns->cookie, rank, pid, name);
	else if (ns->inode)
		offer(o, WD_OWNER_NETNS, true, ns->inode, rank, pid, name);
}

static void scan_run_netns(struct wd_owners *o)
{
	struct wd_netns_id ns;
	char path[512];
	struct dirent *de;
	DIR *d = opendir(o->run_netns);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", o->run_netns, de->d_name);
		if (!o->netns_id(path, &ns))
			offer_netns(o, &ns, WD_NETNS_IP_NETNS, 0, de->d_name);
	}
	closedir(d);
}

static void read_comm(const char *proc, pid_t pid, char *comm, size_t len)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(comm, len, "?");
	snprintf(path, sizeof(path), "%s/%d/comm", proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, len - 1);
	close(fd);
	if (n <= 0)
		return;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
}

/* "socket:[12345]" -> 12345 */
static bool socket_link(const char *link, uint64_t *ino)
{
	char *end;

	if (strncmp(link, "socket:[", 8))
		return false;
	*ino = strtoull(link + 8, &end, 10);
	return *end == ']';
}

static void scan_fds(struct wd_owners *o, pid_t pid, const char *comm)
{
	char dir[512], path[800], link[64];
	struct dirent *de;
	uint64_t ino;
	ssize_t n;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%d/fd", o->proc, (int)pid);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (socket_link(link, &ino))
			offer(o, WD_OWNER_SOCKET, false, ino, 0, pid, comm);
	}
	closedir(d);
}

/*
 * A namespace's name from the container or pod of a cgroup path: as its
 * runtime calls it ("podman:web", "pod shop/web-0": a pod's containers share
 * one) where its files say, else as the path does ("podman:0123456789ab").
 */
static const char *workload_name(struct wd_owners *o, const char *cg, char *buf, size_t len)
{
	struct wd_ctr_name c;
	int n;

	if (!o->ctr || wd_ctr_lookup(o->ctr, cg, &c) != WD_CTR_NAMED)
		return wd_cgroup_workload(cg, buf, len);
	if (c.pod[0])
		n = snprintf(buf, len, "pod %s/%s", c.k8s_namespace, c.pod);
	else
		n = snprintf(buf, len, "%s%s%s", c.runtime, c.runtime[0] ? ":" : "", c.name);
	/* a name cut short would be a wrong name: the path's then */
	return n >= 0 && (size_t)n < len ? buf : wd_cgroup_workload(cg, buf, len);
}

/*
 * The container or pod a process's cgroup names (/proc/PID/cgroup): the v2
 * line ("0::/path") first, else a v1 hierarchy's (hybrid systems, docker's
 * cgroupfs driver). False if none names one.
 */
static bool read_workload(struct wd_owners *o, pid_t pid, char *name, size_t len)
{
	char path[512], line[4096], label[200];
	bool found = false, cut = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/cgroup", o->proc, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		bool rest = cut, v2 = !strncmp(line, "0::", 3);
		char *cg = strchr(line, ':');

		/* the tail of a line longer than the buffer is no line of its own */
		cut = !strchr(line, '\n') && !feof(f);
		cg = cg ? strchr(cg + 1, ':') : NULL;
		if (rest || cut || !cg || (found && !v2))
			continue;
		cg++;
		cg[strcspn(cg, "\n")] = '\0';
		/* a long LXC name cut short would be a wrong name */
		if (!workload_name(o, cg, label, sizeof(label)) || strlen(label) >= len)
			continue;
		memcpy(name, label, strlen(label) + 1);
		found = true;
		if (v2)
			break;
	}
	fclose(f);
	return found;
}

static void scan_process(struct wd_owners *o, pid_t pid, const struct wd_netns_id *host_ns)
{
	char path[512], comm[WD_COMM_LEN + 1], name[64];
	enum wd_netns_rank rank = WD_NETNS_PROCESS;
	struct wd_netns_id ns;

	read_comm(o->proc, pid, comm, sizeof(comm));
	snprintf(path, sizeof(path), "%s/%d/ns/net", o->proc, (int)pid);
	if (!o->netns_id(path, &ns)) {
		if (!ns.cookie)
			o->denied = true;	/* known by inode only: cannot be matched */
		if (wd_netns_same(&ns, host_ns)) {
			rank = WD_NETNS_HOST;
			snprintf(name, sizeof(name), "host");
		} else if (read_workload(o, pid, name, sizeof(name))) {
			rank = WD_NETNS_WORKLOAD;
		} else {
			snprintf(name, sizeof(name), "%s[%d]", comm, (int)pid);
		}
		/* "host" gets pid 0: it never changes, whichever process was seen. */
		offer_netns(o, &ns, rank, rank == WD_NETNS_HOST ? 0 : pid, name);
	}
	scan_fds(o, pid, comm);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void wd_owners_scan(struct wd_owners *o)
{
	struct wd_netns_id host_ns = { 0 }, self_ns = { 0 };
	bool complete;
	char path[512];
	struct dirent *de;
	size_t first = o->n;
	DIR *d;

	o->last_scan = now_s();
	o->scans++;
	if (o->around_scan)
		o->around_scan(true);
	/*
	 * Merge with what earlier scans found: once unprivileged, a scan sees
	 * less, and a name must not change under a running exporter.
	 */
	scan_run_netns(o);
	snprintf(path, sizeof(path), "%s/1/ns/net", o->proc);
	o->netns_id(path, &host_ns);
	/* complete: the namespaces read had cookies, as the counts do */
	snprintf(path, sizeof(path), "%s/self/ns/net", o->proc);
	complete = !o->netns_id(path, &self_ns) && self_ns.cookie;
	o->denied = false;
	d = opendir(o->proc);
	while (d && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		scan_process(o, (pid_t)atoi(de->d_name), &host_ns);
	}
	if (d)
		closedir(d);
	if (o->around_scan)
		o->around_scan(false);
	o->complete = keep_found(o, first) && complete && d && !o->denied;
	settle(o);
	age(o);
}

static struct wd_owner_entry *lookup(struct wd_owners *o, enum wd_owner_kind kind,
				     bool by_inode, uint64_t ino)
{
	struct wd_owner_entry *e = find(o, kind, by_inode, ino);

	if (e || !ino)
		return e;
	if (o->scans && now_s() - o->last_scan < RESCAN_S)
		return NULL;
	wd_owners_scan(o);
	return find(o, kind, by_inode, ino);
}

void wd_owners_name_netns(struct wd_owners *o, const struct wd_netns_id *ns, const char *name)
{
	/* a name cut short would be a wrong name: the others are right */
	if (!name || !name[0] || strlen(name) >= sizeof(o->v->name))
		return;
	offer_netns(o, ns, WD_NETNS_GIVEN, 0, name);
	settle(o);
}

/* By cookie; by inode only for an id without one (a kernel without cookies). */
const char *wd_netns_name(struct wd_owners *o, const struct wd_netns_id *ns)
{
	struct wd_owner_entry *e;

	if (wd_netns_is_gone(ns))	/* no scan finds it: none is needed */
		return NULL;
	e = ns->cookie ? lookup(o, WD_OWNER_NETNS, false, ns->cookie) :
			 lookup(o, WD_OWNER_NETNS, true, ns->inode);
	return e ? e->name : NULL;
}

const struct wd_owner_entry *wd_socket_owner(struct wd_owners *o, uint64_t ino)
{
	return lookup(o, WD_OWNER_SOCKET, false, ino);
}

void wd_owners_refresh(struct wd_owners *o, double max_age)
{
	if (!o->scans || now_s() - o->last_scan >= max_age)
		wd_owners_scan(o);
}

/* Sorted as cmp_entry sorts namespaces: those with a cookie first, then by inode. */
static const char *found_in(const struct wd_owner_entry *v, size_t n,
			    const struct wd_netns_id *ns)
{
	bool by_inode = !ns->cookie;
	uint64_t id = by_inode ? ns->inode : ns->cookie;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct wd_owner_entry *e = &v[mid];

		if (e->by_inode == by_inode && e->ino == id)
			return e->name;
		if (e->by_inode < by_inode || (e->by_inode == by_inode && e->ino < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *wd_netns_found(const struct wd_owners *o, const struct wd_netns_id *ns)
{
	return found_in(o->found, o->n_found, ns);
}

const char *wd_netns_found_before(const struct wd_owners *o, const struct wd_netns_id *ns)
{
	return found_in(o->found_before, o->n_found_before, ns);
}
