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

/* Find a path for a namespace inode: ours, or one of `ip netns`. */
static int netns_path_of(uint32_t inode, char *path, size_t len)
{
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (inode == wd_netns_self()) {
		snprintf(path, len, "/proc/self/ns/net");
		return 0;
	}
	d = opendir(WD_NETNS_RUN_DIR);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, len, "%s/%s", WD_NETNS_RUN_DIR, de->d_name);
		if (!stat(path, &st) && (uint32_t)st.st_ino == inode) {
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -1;
}

static void lookup_name(struct wd_ifname_entry *e)
{
	char path[300], name[IF_NAMESIZE] = "";
	int saved = -1;
	bool own = e->netns == wd_netns_self();

	if (netns_path_of(e->netns, path, sizeof(path)))
		return;
	if (!own && wd_netns_enter(path, &saved))
		return;
	if (if_indextoname(e->ifindex, name))
		snprintf(e->name, sizeof(e->name), "%s", name);
	if (!own && wd_netns_leave(saved))
		perror("whydrop: cannot return to the original network namespace");
}

const char *wd_ifname(struct wd_ifnames *c, uint32_t netns, uint32_t ifindex)
{
	struct wd_ifname_entry *tmp, *e;

	if (!ifindex)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].netns == netns && c->v[i].ifindex == ifindex)
			return c->v[i].name[0] ? c->v[i].name : NULL;
	tmp = realloc(c->v, (c->n + 1) * sizeof(*tmp));
	if (!tmp)
		return NULL;
	c->v = tmp;
	e = &tmp[c->n++];
	memset(e, 0, sizeof(*e));
	e->netns = netns;
	e->ifindex = ifindex;
	lookup_name(e);
	return e->name[0] ? e->name : NULL;
}

void wd_ifnames_free(struct wd_ifnames *c)
{
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
