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
	CHECK_STR(wd_netns_name(&o, ino("proc/1/ns/net")), "host");
	CHECK_STR(wd_netns_name(&o, ino("proc/200/ns/net")), "nginx-master[150]");
	CHECK_STR(wd_netns_name(&o, ino("proc/300/ns/net")), "blue");
	CHECK_STR(wd_netns_name(&o, ino("netns/red")), "red");
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
	CHECK(wd_netns_name(&o, 12345678) == NULL);
	wd_owners_free(&o);
}

static void cleanup(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
}

UNIT_MAIN(test_owners, cleanup)
