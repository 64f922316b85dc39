// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <linux/nsfs.h>
#include <unistd.h>

#include "netns.h"

/*
 * Any file can be stat()ed: only an nsfs file of a network namespace is one.
 * NS_GET_NSTYPE (4.11) says which kind; before it, nsfs is all there is.
 */
static int check_netns(const char *path, char *err, size_t errlen)
{
	struct statfs sf;
	int fd = open(path, O_RDONLY | O_CLOEXEC), type, e;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open network namespace %s: %s", path,
			 strerror(errno));
		return -1;
	}
	type = ioctl(fd, NS_GET_NSTYPE);
	e = errno;
	if (type < 0 && e == ENOTTY && !fstatfs(fd, &sf) && sf.f_type == NSFS_MAGIC)
		type = CLONE_NEWNET;
	close(fd);
	if (type == CLONE_NEWNET)
		return 0;
	snprintf(err, errlen, "%s is %s, not a network namespace: give an `ip netns` name "
		 "or a path such as /proc/PID/ns/net", path,
		 type >= 0 ? "another kind of namespace" : "not a namespace file");
	return -1;
}

int wd_netns_resolve(const char *arg, char *path_out, size_t len, uint32_t *inode,
		     char *err, size_t errlen)
{
	struct stat st;

	if (strchr(arg, '/'))
		snprintf(path_out, len, "%s", arg);
	else
		snprintf(path_out, len, "%s/%s", WD_NETNS_RUN_DIR, arg);
	if (stat(path_out, &st)) {
		snprintf(err, errlen,
			 "no network namespace '%s' (%s: %s); `ip netns list` shows the named ones",
			 arg, path_out, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a network namespace file", path_out);
		return -1;
	}
	if (check_netns(path_out, err, errlen))
		return -1;
	*inode = (uint32_t)st.st_ino;
	return 0;
}

int wd_netns_name_init(struct wd_netns_name *n, const char *path)
{
	struct stat st;

	memset(n, 0, sizeof(*n));
	if (stat(path, &st))
		return -1;
	snprintf(n->path, sizeof(n->path), "%s", path);
	n->dev = st.st_dev;
	n->ino = st.st_ino;
	return 0;
}

enum wd_netns_change wd_netns_name_check(struct wd_netns_name *n)
{
	struct stat st;

	if (n->gone || !n->path[0])
		return WD_NETNS_SAME;
	if (stat(n->path, &st)) {
		/* a path that cannot be looked at now (EACCES) is not one that went away */
		if (errno != ENOENT && errno != ENOTDIR)
			return WD_NETNS_SAME;
		n->gone = true;
		return WD_NETNS_GONE;
	}
	if (st.st_dev == n->dev && st.st_ino == n->ino)
		return WD_NETNS_SAME;
	n->gone = true;
	return WD_NETNS_OTHER;
}

uint32_t wd_netns_self(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) ? 0 : (uint32_t)st.st_ino;
}

int wd_netns_enter_fd(int ns_fd, int *saved)
{
	int e;

	*saved = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -1;
	if (setns(ns_fd, CLONE_NEWNET)) {
		e = errno;
		close(*saved);
		errno = e;
		return -1;
	}
	return 0;
}

int wd_netns_enter(const char *ns_path, int *saved)
{
	int fd = open(ns_path, O_RDONLY | O_CLOEXEC), ret, e;

	if (fd < 0)
		return -1;
	ret = wd_netns_enter_fd(fd, saved);
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

int wd_netns_leave(int saved)
{
	int ret = setns(saved, CLONE_NEWNET), e = errno;

	close(saved);
	errno = e;
	return ret;
}

int wd_ifindex_in(const char *ns_path, const char *ifname, uint32_t *ifindex)
{
	int saved;

	if (ns_path && wd_netns_enter(ns_path, &saved))
		return -1;
	*ifindex = if_nametoindex(ifname);
	if (ns_path && wd_netns_leave(saved))
		perror("whydrop: cannot return to the original network namespace");
	return *ifindex ? 0 : -1;
}

static bool have_sock(const struct wd_ifnames *c, uint32_t netns)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->socks[i].netns == netns)
			return true;
	return false;
}

/* A datagram socket made inside the namespace at @path (NULL: ours). */
static void add_sock(struct wd_ifnames *c, const char *path)
{
	struct wd_ns_sock *tmp;
	struct stat st;
	int saved = -1, fd;

	if (c->n >= WD_IFNAMES_MAX_NS || stat(path ? path : "/proc/self/ns/net", &st) ||
	    have_sock(c, (uint32_t)st.st_ino))
		return;
	if (path && wd_netns_enter(path, &saved))
		return;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (path && wd_netns_leave(saved)) {
		perror("whydrop: cannot return to the original network namespace");
		exit(1);
	}
	if (fd < 0)
		return;
	tmp = realloc(c->socks, (c->n + 1) * sizeof(*tmp));
	if (!tmp) {
		close(fd);
		return;
	}
	c->socks = tmp;
	c->socks[c->n++] = (struct wd_ns_sock){ .netns = (uint32_t)st.st_ino, .fd = fd };
}

size_t wd_ifnames_open(struct wd_ifnames *c, const char *ns_path)
{
	char path[300];
	struct dirent *de;
	DIR *d;

	add_sock(c, NULL);
	if (ns_path)
		add_sock(c, ns_path);
	d = opendir(WD_NETNS_RUN_DIR);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", WD_NETNS_RUN_DIR, de->d_name);
		add_sock(c, path);
	}
	if (d)
		closedir(d);
	return c->n;
}

const char *wd_ifname(struct wd_ifnames *c, uint32_t netns, uint32_t ifindex)
{
	struct ifreq ifr = { .ifr_ifindex = (int)ifindex };

	if (!ifindex)
		return NULL;
	for (size_t i = 0; i < c->n; i++) {
		if (c->socks[i].netns != netns || ioctl(c->socks[i].fd, SIOCGIFNAME, &ifr))
			continue;
		snprintf(c->name, sizeof(c->name), "%.*s", IFNAMSIZ, ifr.ifr_name);
		return c->name;
	}
	return NULL;
}

void wd_ifnames_free(struct wd_ifnames *c)
{
	for (size_t i = 0; i < c->n; i++)
		close(c->socks[i].fd);
	free(c->socks);
	c->socks = NULL;
	c->n = 0;
}
