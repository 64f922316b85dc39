/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Network namespaces by name or path, and interface names inside them. */
#ifndef WD_NETNS_H
#define WD_NETNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WD_NETNS_RUN_DIR "/run/netns"

/*
 * A network namespace as the kernel knows it. Its identity is the cookie
 * (net->net_cookie, 5.14+: unique for the boot, what the BPF program keys
 * counts by); the nsfs inode is what `ip netns identify` and `ls -l
 * /proc/PID/ns/net` show, and the kernel gives it to a later namespace once
 * this one is gone. cookie 0: unknown, or a kernel without cookies, where
 * the inode is all there is. Both 0: the namespace is unknown.
 */
struct wd_netns_id {
	uint64_t cookie;
	uint32_t inode;
};
/*
 * The cookie of the namespaces that are gone, their counts folded into one
 * (inode 0): "(netns gone)". The kernel counts cookies up from 1.
 */
#define WD_NETNS_COOKIE_GONE	UINT64_MAX

static inline bool wd_netns_is_gone(const struct wd_netns_id *ns)
{
	return ns->cookie == WD_NETNS_COOKIE_GONE;
}

/*
 * The same namespace? By cookie; by inode only where neither has a cookie
 * (a kernel without them). An id whose cookie could not be learnt is never
 * the same as one with a cookie: an inode may have been reused.
 */
bool wd_netns_same(const struct wd_netns_id *a, const struct wd_netns_id *b);
/* An order for tables: by cookie, then inode. */
int wd_netns_cmp(const struct wd_netns_id *a, const struct wd_netns_id *b);
/* A namespace without a name: "netns 4026532238 (cookie 183)", "netns 4026532238". */
void wd_netns_label(const struct wd_netns_id *id, char *buf, size_t len);
/* The cookie of a socket's namespace (SO_NETNS_COOKIE, 5.14+); 0 if the kernel has none. */
uint64_t wd_netns_sock_cookie(int sock);
/*
 * The namespace an nsfs file descriptor refers to: its inode, and its
 * cookie where it can be learnt: NS_GET_ID where that is the cookie (6.18+,
 * checked once against our own namespace), else from a socket made inside
 * it (needs CAP_SYS_ADMIN). 0, or -1 with errno set if fd is no namespace.
 */
int wd_netns_id_of_fd(int fd, struct wd_netns_id *id);
/* The same for a path (/run/netns/blue, /proc/PID/ns/net). */
int wd_netns_id_of_path(const char *path, struct wd_netns_id *id);

/*
 * "blue" (an `ip netns` name) or a path such as /proc/1234/ns/net to the
 * namespace's nsfs path in path_out and its inode in *inode.
 */
int wd_netns_resolve(const char *arg, char *path_out, size_t len, uint32_t *inode,
		     char *err, size_t errlen);
/*
 * Move this thread into the namespace at ns_path; *saved keeps the way
 * back for wd_netns_leave. Both return -1 with errno set on failure.
 */
int wd_netns_enter(const char *ns_path, int *saved);
/*
 * The same with the namespace opened earlier: opening /proc/PID/ns/net is
 * a ptrace access check that fails once whydrop has dropped its capabilities.
 */
int wd_netns_enter_fd(int ns_fd, int *saved);
int wd_netns_leave(int saved);
/*
 * The same, said: enter the namespace of @ns_fd (-1: stay, *saved -1),
 * and leave it where entered (@saved >= 0). 0, or -1 with a message in @err.
 */
int wd_netns_enter_said(int ns_fd, int *saved, char *err, size_t errlen);
int wd_netns_leave_said(int saved, char *err, size_t errlen);
/*
 * Whether the path --netns named still names the namespace opened at start:
 * `ip netns del` takes /run/netns/NAME away while whydrop, holding the
 * namespace, goes on. Only stat(2): no capability needed after attach.
 */
struct wd_netns_name {
	char path[300];
	dev_t dev;
	ino_t ino;
	bool gone;		/* said once */
};

enum wd_netns_change {
	WD_NETNS_SAME,		/* still there, or it cannot be told (EACCES...) */
	WD_NETNS_GONE,		/* the path is no more */
	WD_NETNS_OTHER,		/* it names another namespace now */
};

/* Remember what path names now; 0, or -1 with errno set. */
int wd_netns_name_init(struct wd_netns_name *n, const char *path);
/* A change since init, reported once; WD_NETNS_SAME after that. */
enum wd_netns_change wd_netns_name_check(struct wd_netns_name *n);

/* The caller's own network namespace. */
struct wd_netns_id wd_netns_self(void);
/* ifindex of ifname inside the namespace at ns_path (NULL: our own). */
int wd_ifindex_in(const char *ns_path, const char *ifname, uint32_t *ifindex);

/*
 * Interface names by (netns, ifindex) without privileges: a socket
 * opened inside each namespace while whydrop could still enter it, then
 * SIOCGIFNAME on it, which needs no capability and no setns(). Names are
 * looked up when asked, so a renamed interface shows its name of now.
 */
#define WD_IFNAMES_MAX_NS	256	/* namespaces given a socket at start */

struct wd_ns_sock {
	struct wd_netns_id ns;
	int fd;
};

struct wd_ifnames {
	struct wd_ns_sock *socks;
	size_t n;
	char name[16];		/* of the last wd_ifname() */
};

/*
 * While privileged: sockets in our own namespace, in the one at @ns_path
 * (NULL: none) and in every `ip netns` one (up to WD_IFNAMES_MAX_NS).
 * Namespaces it cannot enter are left out; returns how many it has.
 */
size_t wd_ifnames_open(struct wd_ifnames *c, const char *ns_path);
/* Name of ifindex in netns (valid until the next call), NULL when unknown. */
const char *wd_ifname(struct wd_ifnames *c, const struct wd_netns_id *ns, uint32_t ifindex);
/*
 * The namespace has no interface ifindex any more (its socket says so); false
 * where it cannot tell. A namespace gives an index again only once its
 * counter wrapped.
 */
bool wd_ifindex_gone(struct wd_ifnames *c, const struct wd_netns_id *ns, uint32_t ifindex);
void wd_ifnames_free(struct wd_ifnames *c);

#endif /* WD_NETNS_H */
