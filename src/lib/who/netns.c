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

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE	71
#endif
#ifndef NS_GET_ID
#define NS_GET_ID	_IOR(NSIO, 0xd, uint64_t)	/* 6.18: the namespace's id */
#endif

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

/* close(fd), then ret with errno as it was: the caller says why ret failed. */
static int close_keeping_errno(int fd, int ret)
{
	int e = errno;

	close(fd);
	errno = e;
	return ret;
}

int wd_netns_enter_fd(int ns_fd, int *saved)
{
	*saved = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -1;
	if (setns(ns_fd, CLONE_NEWNET))
		return close_keeping_errno(*saved, -1);
	return 0;
}

int wd_netns_enter(const char *ns_path, int *saved)
{
	int fd = open(ns_path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	return close_keeping_errno(fd, wd_netns_enter_fd(fd, saved));
}

int wd_netns_leave(int saved)
{
	return close_keeping_errno(saved, setns(saved, CLONE_NEWNET));
}

int wd_netns_enter_said(int ns_fd, int *saved, char *err, size_t errlen)
{
	*saved = -1;
	if (ns_fd < 0 || !wd_netns_enter_fd(ns_fd, saved))
		return 0;
	snprintf(err, errlen, "cannot enter the network namespace: %s%s", strerror(errno),
		 errno == EPERM ? " (it needs CAP_SYS_ADMIN)" : "");
	return -1;
}

int wd_netns_leave_said(int saved, char *err, size_t errlen)
{
	if (saved < 0 || !wd_netns_leave(saved))
		return 0;
	snprintf(err, errlen, "cannot return to the original network namespace: %s",
		 strerror(errno));
	return -1;
}

bool wd_netns_same(const struct wd_netns_id *a, const struct wd_netns_id *b)
{
	if (a->cookie || b->cookie)
		return a->cookie == b->cookie;
	return a->inode && a->inode == b->inode;
}

int wd_netns_cmp(const struct wd_netns_id *a, const struct wd_netns_id *b)
{
	if (a->cookie != b->cookie)
		return a->cookie < b->cookie ? -1 : 1;
	if (a->inode != b->inode)
		return a->inode < b->inode ? -1 : 1;
	return 0;
}

void wd_netns_label(const struct wd_netns_id *id, char *buf, size_t len)
{
	if (!id->inode && !id->cookie)
		snprintf(buf, len, "(netns unknown)");
	else if (wd_netns_is_gone(id))
		snprintf(buf, len, "(netns gone)");
	else if (id->cookie)
		snprintf(buf, len, "netns %u (cookie %llu)", id->inode,
			 (unsigned long long)id->cookie);
	else
		snprintf(buf, len, "netns %u", id->inode);
}

uint64_t wd_netns_sock_cookie(int sock)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);

	if (getsockopt(sock, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) || len != sizeof(cookie))
		return 0;
	return cookie;
}

/* A socket made in our own namespace: its cookie (0 if the kernel has none). */
static uint64_t self_cookie(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	uint64_t cookie;

	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	cookie = wd_netns_sock_cookie(fd);
	close(fd);
	return cookie;
}

struct wd_netns_id wd_netns_self(void)
{
	struct wd_netns_id id = { 0 };
	struct stat st;

	if (!stat("/proc/self/ns/net", &st))
		id.inode = (uint32_t)st.st_ino;
	id.cookie = self_cookie();
	return id;
}

/* Does this kernel give namespaces cookies (5.14+)? Asked once. */
static bool have_cookies(void)
{
	static int answer = -1;

	if (answer < 0)
		answer = self_cookie() != 0;
	return answer;
}

/*
 * Is NS_GET_ID the network namespace cookie? So on 6.18, where namespaces
 * share one id space: asked once, of our own namespace, against a socket's.
 */
static bool ns_get_id_is_cookie(void)
{
	static int answer = -1;
	uint64_t id = 0, cookie;
	int fd;

	if (answer >= 0)
		return answer;
	answer = 0;
	cookie = have_cookies() ? self_cookie() : 0;
	fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && cookie && !ioctl(fd, NS_GET_ID, &id) && id == cookie)
		answer = 1;
	if (fd >= 0)
		close(fd);
	return answer;
}

/* A socket made inside the namespace open at ns_fd; -1 if it cannot enter. */
static int sock_in(int ns_fd)
{
	int saved, fd;

	if (wd_netns_enter_fd(ns_fd, &saved))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (wd_netns_leave(saved)) {
		perror("whydrop: cannot return to the original network namespace");
		exit(1);
	}
	return fd;
}

/* A socket made inside the namespace of fd: its cookie; 0 if it cannot enter. */
static uint64_t cookie_by_entering(int fd)
{
	int sock = sock_in(fd);
	uint64_t cookie = 0;

	if (sock >= 0) {
		cookie = wd_netns_sock_cookie(sock);
		close(sock);
	}
	return cookie;
}

/*
 * Our own namespace, learnt once. Two live namespaces never share an inode:
 * a file of the namespace we are in now with its inode is this one.
 */
static bool is_self(const struct stat *st, uint64_t *cookie)
{
	static struct wd_netns_id self;
	struct stat now;

	if (!self.inode)
		self = wd_netns_self();
	if (stat("/proc/self/ns/net", &now) || (uint32_t)now.st_ino != self.inode ||
	    now.st_ino != st->st_ino || now.st_dev != st->st_dev)
		return false;
	*cookie = self.cookie;
	return true;
}

int wd_netns_id_of_fd(int fd, struct wd_netns_id *id)
{
	struct stat st;
	uint64_t v = 0;

	memset(id, 0, sizeof(*id));
	if (fstat(fd, &st))
		return -1;
	id->inode = (uint32_t)st.st_ino;
	if (!have_cookies())
		return 0;
	if (ns_get_id_is_cookie() && !ioctl(fd, NS_GET_ID, &v))
		id->cookie = v;
	else if (is_self(&st, &v))
		id->cookie = v;		/* most processes: no setns() for them */
	else
		id->cookie = cookie_by_entering(fd);
	return 0;
}

int wd_netns_id_of_path(const char *path, struct wd_netns_id *id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		memset(id, 0, sizeof(*id));
		return -1;
	}
	return close_keeping_errno(fd, wd_netns_id_of_fd(fd, id));
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

/* Every namespace with a socket here is alive (the socket holds it): inodes are unique. */
static bool have_sock(const struct wd_ifnames *c, uint32_t inode)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->socks[i].ns.inode == inode)
			return true;
	return false;
}

/*
 * A datagram socket made inside the namespace at @path (NULL: ours). Its
 * inode from the file opened to enter it, its cookie from the socket: both
 * of the one namespace, whatever the path names by now.
 */
static void add_sock(struct wd_ifnames *c, const char *path)
{
	struct wd_ns_sock *tmp;
	struct stat st;
	int ns_fd, fd;

	if (c->n >= WD_IFNAMES_MAX_NS)
		return;
	ns_fd = open(path ? path : "/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns_fd < 0)
		return;
	if (fstat(ns_fd, &st) || have_sock(c, (uint32_t)st.st_ino))
		fd = -1;
	else
		fd = path ? sock_in(ns_fd) : socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	close(ns_fd);
	if (fd < 0)
		return;
	tmp = realloc(c->socks, (c->n + 1) * sizeof(*tmp));
	if (!tmp) {
		close(fd);
		return;
	}
	c->socks = tmp;
	c->socks[c->n++] = (struct wd_ns_sock){
		.ns = { .cookie = wd_netns_sock_cookie(fd), .inode = (uint32_t)st.st_ino },
		.fd = fd,
	};
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

const char *wd_ifname(struct wd_ifnames *c, const struct wd_netns_id *ns, uint32_t ifindex)
{
	struct ifreq ifr = { .ifr_ifindex = (int)ifindex };

	if (!ifindex)
		return NULL;
	for (size_t i = 0; i < c->n; i++) {
		if (!wd_netns_same(&c->socks[i].ns, ns) ||
		    ioctl(c->socks[i].fd, SIOCGIFNAME, &ifr))
			continue;
		snprintf(c->name, sizeof(c->name), "%.*s", IFNAMSIZ, ifr.ifr_name);
		return c->name;
	}
	return NULL;
}

bool wd_ifindex_gone(struct wd_ifnames *c, const struct wd_netns_id *ns, uint32_t ifindex)
{
	struct ifreq ifr = { .ifr_ifindex = (int)ifindex };

	for (size_t i = 0; ifindex && i < c->n; i++)
		if (wd_netns_same(&c->socks[i].ns, ns))
			return ioctl(c->socks[i].fd, SIOCGIFNAME, &ifr) && errno == ENODEV;
	return false;
}

void wd_ifnames_free(struct wd_ifnames *c)
{
	for (size_t i = 0; i < c->n; i++)
		close(c->socks[i].fd);
	free(c->socks);
	c->socks = NULL;
	c->n = 0;
}
