// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Namespace names and socket owners from a /proc-shaped tree made here:
 * hard links stand in for two paths to one namespace, symlinks for fds.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "owners.h"
#include "unit.h"

static char root[] = "/tmp/wd-owners-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror(path);
		close(fd);
	}
}

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0755);
}

static void sym(const char *target, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path))
		perror(path);
}

static void hard(const char *from, const char *to)
{
	char a[512], b[512];

	snprintf(a, sizeof(a), "%s/%s", root, from);
	snprintf(b, sizeof(b), "%s/%s", root, to);
	if (link(a, b))
		perror(b);
}

static uint32_t ino(const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return stat(path, &st) ? 0 : (uint32_t)st.st_ino;
}

/* A namespace known by its inode alone: fixture files have no cookie. */
#define BY_INO(i)	(&(struct wd_netns_id){ .inode = (i) })
#define ID(rel)		BY_INO(ino(rel))

static void process(const char *pid, const char *comm)
{
	char rel[64];

	dir(pid);
	snprintf(rel, sizeof(rel), "%s/ns", pid);
	dir(rel);
	snprintf(rel, sizeof(rel), "%s/fd", pid);
	dir(rel);
	snprintf(rel, sizeof(rel), "%s/comm", pid);
	put(rel, comm);
}

static void make_tree(void)
{
	CHECK(mkdtemp(root) != NULL);
	dir("proc");
	dir("netns");
	process("proc/1", "systemd\n");
	put("proc/1/ns/net", "");
	sym("socket:[111]", "proc/1/fd/3");
	process("proc/200", "nginx\n");
	put("proc/200/ns/net", "");
	sym("socket:[222]", "proc/200/fd/4");
	sym("/dev/null", "proc/200/fd/5");
	sym("socket:[12x]", "proc/200/fd/6");
	/* a lower pid holding the same socket and namespace (after fork) */
	process("proc/150", "nginx-master\n");
	hard("proc/200/ns/net", "proc/150/ns/net");
	sym("socket:[222]", "proc/150/fd/9");
	/* an ip netns name wins over the process living there */
	process("proc/300", "dnsmasq\n");
	put("proc/300/ns/net", "");
	hard("proc/300/ns/net", "netns/blue");
	put("netns/red", "");
}

static void test_owners(void)
{
	char proc[512], run[512];
	const struct wd_owner_entry *e;
	struct wd_owners o;

	make_tree();
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(run, sizeof(run), "%s/netns", root);
	wd_owners_init(&o, proc, run);
	CHECK_STR(wd_netns_name(&o, ID("proc/1/ns/net")), "host");
	CHECK_STR(wd_netns_name(&o, ID("proc/200/ns/net")), "nginx-master[150]");
	CHECK_STR(wd_netns_name(&o, ID("proc/300/ns/net")), "blue");
	CHECK_STR(wd_netns_name(&o, ID("netns/red")), "red");
	CHECK_INT(o.scans, 1);
	e = wd_socket_owner(&o, 222);
	CHECK(e && e->pid == 150);
	CHECK_STR(e ? e->name : NULL, "nginx-master");
	e = wd_socket_owner(&o, 111);
	CHECK(e && e->pid == 1);
	/* a miss rescans, but not twice within a second */
	CHECK(wd_socket_owner(&o, 333) == NULL);
	CHECK_INT(o.scans, 1);
	sym("socket:[333]", "proc/300/fd/7");
	o.last_scan -= 2;
	e = wd_socket_owner(&o, 333);
	CHECK(e && e->pid == 300);
	CHECK_STR(e ? e->name : NULL, "dnsmasq");
	CHECK_INT(o.scans, 2);
	CHECK(wd_socket_owner(&o, 0) == NULL);
	CHECK(wd_netns_name(&o, BY_INO(12345678)) == NULL);
	/* found by the last scan, under which name; a name stays when it is gone */
	CHECK_STR(wd_netns_found(&o, ID("netns/red")), "red");
	CHECK_STR(wd_netns_found(&o, ID("proc/300/ns/net")), "blue");
	CHECK(wd_netns_found(&o, BY_INO(12345678)) == NULL);
	{
		uint32_t red = ino("netns/red"), blue = ino("proc/300/ns/net");
		char path[512];

		snprintf(path, sizeof(path), "%s/netns/red", root);
		unlink(path);
		wd_owners_refresh(&o, 60);	/* scanned less than 60 s ago: not again */
		CHECK(wd_netns_found(&o, BY_INO(red)) != NULL);
		wd_owners_refresh(&o, 0);
		CHECK(wd_netns_found(&o, BY_INO(red)) == NULL);
		CHECK_STR(wd_netns_found_before(&o, BY_INO(red)), "red");
		CHECK_STR(wd_netns_name(&o, BY_INO(red)), "red");
		/* its ip netns name gone, blue is found where pid 300 lives */
		snprintf(path, sizeof(path), "%s/netns/blue", root);
		unlink(path);
		wd_owners_refresh(&o, 0);
		CHECK_STR(wd_netns_found(&o, BY_INO(blue)), "dnsmasq[300]");
		CHECK_STR(wd_netns_name(&o, BY_INO(blue)), "blue");
		/* a name given on the command line says nothing of what is there */
		wd_owners_name_netns(&o, BY_INO(777), "given");
		CHECK(wd_netns_found(&o, BY_INO(777)) == NULL);
	}
	wd_owners_free(&o);
}

#define CID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define PUID "8a3c2b1e-5f4d-4e6a-9b8c-7d6e5f4a3b2c"

/*
 * The order of a namespace's names: the --netns argument, an `ip netns` name
 * (the first in byte order of several), "host", the container or pod of a
 * process in it (the lowest such pid), else COMM[PID] of its lowest pid.
 */
static void test_netns_names(void)
{
	char proc[512], run[512];
	struct wd_owners o;
	uint32_t two, rev, ctr, pod, v1, plain, host;

	dir("p2");
	dir("n2");
	process("p2/1", "systemd\n");
	put("p2/1/ns/net", "");
	put("p2/1/cgroup", "0::/init.scope\n");
	/* two ip netns names, made in both orders: byte order decides, not readdir */
	process("p2/10", "sleep\n");
	put("p2/10/ns/net", "");
	hard("p2/10/ns/net", "n2/azure");
	hard("p2/10/ns/net", "n2/zulu");
	process("p2/11", "sleep\n");
	put("p2/11/ns/net", "");
	hard("p2/11/ns/net", "n2/yellow");
	hard("p2/11/ns/net", "n2/black");
	/* a docker container's process beats a lower pid outside any container */
	process("p2/20", "sh\n");
	put("p2/20/ns/net", "");
	put("p2/20/cgroup", "0::/user.slice/session-4.scope\n");
	process("p2/21", "nginx\n");
	hard("p2/20/ns/net", "p2/21/ns/net");
	put("p2/21/cgroup", "0::/system.slice/docker-" CID ".scope\n");
	/* a pod: named by the pod, whose containers share the namespace */
	process("p2/30", "pause\n");
	put("p2/30/ns/net", "");
	put("p2/30/cgroup", "0::/kubepods.slice/kubepods-besteffort.slice/"
			    "kubepods-besteffort-pod8a3c2b1e_5f4d_4e6a_9b8c_7d6e5f4a3b2c.slice/"
			    "cri-containerd-" CID ".scope\n");
	/* hybrid cgroups, docker's cgroupfs driver: the v1 line names it */
	process("p2/40", "redis\n");
	put("p2/40/ns/net", "");
	put("p2/40/cgroup", "12:cpu,cpuacct:/docker/" CID "\n1:name=systemd:/docker/" CID
			    "\n0::/\n");
	/* no container: the lowest pid; a conmon monitor is no container */
	process("p2/50", "conmon\n");
	put("p2/50/ns/net", "");
	put("p2/50/cgroup", "0::/machine.slice/libpod-conmon-" CID ".scope\n");
	snprintf(proc, sizeof(proc), "%s/p2", root);
	snprintf(run, sizeof(run), "%s/n2", root);
	two = ino("p2/10/ns/net");
	rev = ino("p2/11/ns/net");
	ctr = ino("p2/21/ns/net");
	pod = ino("p2/30/ns/net");
	v1 = ino("p2/40/ns/net");
	plain = ino("p2/50/ns/net");
	host = ino("p2/1/ns/net");

	wd_owners_init(&o, proc, run);
	CHECK_STR(wd_netns_name(&o, BY_INO(host)), "host");
	CHECK_STR(wd_netns_name(&o, BY_INO(two)), "azure");
	CHECK_STR(wd_netns_name(&o, BY_INO(rev)), "black");
	CHECK_STR(wd_netns_name(&o, BY_INO(ctr)), "docker:0123456789ab");
	CHECK_STR(wd_netns_name(&o, BY_INO(pod)), "pod " PUID);
	CHECK_STR(wd_netns_name(&o, BY_INO(v1)), "docker:0123456789ab");
	CHECK_STR(wd_netns_name(&o, BY_INO(plain)), "conmon[50]");

	/* --netns, as given, wins over every other name, and a rescan keeps it */
	wd_owners_name_netns(&o, BY_INO(two), "zulu");
	wd_owners_name_netns(&o, BY_INO(plain), "/proc/50/ns/net");
	wd_owners_name_netns(&o, BY_INO(ctr), "/run/docker/netns/0b1c");
	CHECK_STR(wd_netns_name(&o, BY_INO(two)), "zulu");
	CHECK_STR(wd_netns_name(&o, BY_INO(plain)), "/proc/50/ns/net");
	CHECK_STR(wd_netns_name(&o, BY_INO(ctr)), "/run/docker/netns/0b1c");
	wd_owners_scan(&o);
	CHECK_STR(wd_netns_name(&o, BY_INO(two)), "zulu");
	CHECK_STR(wd_netns_name(&o, BY_INO(plain)), "/proc/50/ns/net");
	CHECK_STR(wd_netns_name(&o, BY_INO(rev)), "black");
	/* given for a namespace no scan saw: named all the same, without a scan */
	wd_owners_name_netns(&o, BY_INO(987654321), "blue");
	CHECK_INT(o.scans, 2);
	CHECK_STR(wd_netns_name(&o, BY_INO(987654321)), "blue");
	CHECK_INT(o.scans, 2);
	/* a name that does not fit is not cut: the other names stand */
	wd_owners_name_netns(&o, BY_INO(rev), "/run/netns/a-name-longer-than-sixty-three-bytes-is-not-cut-"
				      "short");
	CHECK_STR(wd_netns_name(&o, BY_INO(rev)), "black");
	wd_owners_free(&o);
}

/* Namespaces of the next test: a path's end and the id the kernel would give. */
static struct {
	const char *suffix;
	struct wd_netns_id id;
} fake[4];
static size_t n_fake;

static int fake_id(const char *path, struct wd_netns_id *id)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < n_fake; i++) {
		size_t m = strlen(fake[i].suffix);

		if (n >= m && !strcmp(path + n - m, fake[i].suffix)) {
			*id = fake[i].id;
			return 0;
		}
	}
	return -1;
}

/*
 * The kernel gives a gone namespace's inode to the next one: names go by
 * cookie, each namespace keeps the name it had, and a name found by inode
 * alone (its cookie could not be learnt) is never given to an id with one.
 */
static void test_reused_inode(void)
{
	const struct wd_netns_id old = { 5, 4026532238u }, new = { 6, 4026532238u };
	char proc[512], run[512], path[600];
	struct wd_owners o;

	dir("p3");
	dir("n3");
	process("p3/1", "systemd\n");
	put("p3/1/ns/net", "");
	put("n3/old", "");
	fake[n_fake++] = (typeof(fake[0])){ "p3/1/ns/net", { 3, 4026531840u } };
	fake[n_fake++] = (typeof(fake[0])){ "n3/old", old };
	snprintf(proc, sizeof(proc), "%s/p3", root);
	snprintf(run, sizeof(run), "%s/n3", root);
	wd_owners_init(&o, proc, run);
	o.netns_id = fake_id;
	CHECK_STR(wd_netns_name(&o, &old), "old");
	CHECK(wd_netns_name(&o, &new) == NULL);
	/* ip netns del old; ip netns add new: the same inode, another cookie */
	snprintf(path, sizeof(path), "%s/n3/old", root);
	unlink(path);
	put("n3/new", "");
	fake[n_fake++] = (typeof(fake[0])){ "n3/new", new };
	o.last_scan -= 2;
	CHECK_STR(wd_netns_name(&o, &new), "new");
	CHECK_STR(wd_netns_name(&o, &old), "old");
	CHECK(wd_netns_name(&o, BY_INO(4026532238u)) == NULL);
	/* no cookie learnt (unprivileged, before 6.18): by inode only */
	put("n3/plain", "");
	fake[n_fake++] = (typeof(fake[0])){ "n3/plain", { 0, 4026532300u } };
	wd_owners_scan(&o);
	CHECK(wd_netns_name(&o, &(struct wd_netns_id){ 9, 4026532300u }) == NULL);
	CHECK_STR(wd_netns_name(&o, BY_INO(4026532300u)), "plain");
	wd_owners_free(&o);
}

/* Sockets 1000 * round + 0..9 held by pid 400 of the aging tree, the last round's gone. */
static void hold_sockets(int round)
{
	char target[64], rel[64];

	for (int i = 0; i < 10; i++) {
		snprintf(rel, sizeof(rel), "aging/proc/400/fd/%d", 10 + i);
		if (round > 1) {
			char path[600];

			snprintf(path, sizeof(path), "%s/%s", root, rel);
			unlink(path);
		}
		snprintf(target, sizeof(target), "socket:[%d]", 1000 * round + i);
		sym(target, rel);
	}
}

static size_t count_unseen(const struct wd_owners *o, uint64_t *min_ino, uint64_t *max_ino)
{
	size_t n = 0;

	*min_ino = UINT64_MAX;
	*max_ino = 0;
	for (size_t i = 0; i < o->n; i++) {
		if (o->v[i].seen == o->scans ||
		    (o->v[i].kind == WD_OWNER_NETNS && o->v[i].rank == WD_NETNS_GIVEN))
			continue;
		n++;
		*min_ino = o->v[i].ino < *min_ino ? o->v[i].ino : *min_ino;
		*max_ino = o->v[i].ino > *max_ino ? o->v[i].ino : *max_ino;
	}
	return n;
}

/*
 * Closed sockets and freed namespaces do not pile up: what the last scan
 * did not find is kept up to keep_unseen entries, the latest found first;
 * a name given on the command line stays.
 */
static void test_aging(void)
{
	char proc[512], run[512];
	uint64_t lo, hi;
	struct wd_owners o;

	dir("aging");
	dir("aging/proc");
	dir("aging/netns");
	process("aging/proc/1", "init\n");
	put("aging/proc/1/ns/net", "");
	process("aging/proc/400", "churn\n");
	put("aging/proc/400/ns/net", "");
	hold_sockets(1);
	snprintf(proc, sizeof(proc), "%s/aging/proc", root);
	snprintf(run, sizeof(run), "%s/aging/netns", root);
	wd_owners_init(&o, proc, run);
	o.keep_unseen = 4;
	wd_owners_name_netns(&o, BY_INO(777), "given");
	wd_owners_scan(&o);
	CHECK_INT(o.n, 13);	/* 10 sockets, "host", pid 400's namespace, the given name */
	for (int round = 2; round <= 4; round++) {
		hold_sockets(round);
		wd_owners_scan(&o);
		/* the given name is never unseen; the 4 kept are of the round before */
		CHECK_INT(o.n, 13 + 4);
		CHECK_INT(count_unseen(&o, &lo, &hi), 4);
		CHECK_INT(lo, 1000 * (round - 1));
		CHECK_INT(hi, 1000 * (round - 1) + 3);
		CHECK(wd_socket_owner(&o, 1000 * round + 9) != NULL);
		CHECK(wd_socket_owner(&o, 1000 * (round - 1)) != NULL);
	}
	CHECK(wd_socket_owner(&o, 1000) == NULL);	/* round 1: aged out */
	CHECK_STR(wd_netns_name(&o, BY_INO(777)), "given");
	o.keep_unseen = 0;
	o.last_scan -= 2;
	wd_owners_scan(&o);
	CHECK_INT(o.n, 13);
	wd_owners_free(&o);
}

/* Nothing to scan (no /proc, no /run/netns): nothing named, no crash. */
static void test_empty(void)
{
	struct wd_owners o;

	wd_owners_init(&o, "/nonexistent/proc", "/nonexistent/netns");
	CHECK(wd_netns_name(&o, BY_INO(4026531840u)) == NULL);
	CHECK(wd_socket_owner(&o, 42) == NULL);
	CHECK_INT(o.scans, 1);
	wd_owners_free(&o);
}

static void cleanup(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
}

UNIT_MAIN(test_owners, test_netns_names, test_reused_inode, test_empty, test_aging, cleanup)
