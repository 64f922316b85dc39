/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Network namespaces by name or path, and interface names inside them. */
#ifndef WD_NETNS_H
#define WD_NETNS_H

#include <stddef.h>
#include <stdint.h>

#define WD_NETNS_RUN_DIR "/run/netns"

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
/* Inode of the caller's own network namespace. */
uint32_t wd_netns_self(void);
/* ifindex of ifname inside the namespace at ns_path (NULL: our own). */
int wd_ifindex_in(const char *ns_path, const char *ifname, uint32_t *ifindex);

/* Cache of (netns inode, ifindex) -> interface name for output. */
struct wd_ifname_entry {
	uint32_t netns, ifindex;
	char name[16];		/* "" when it could not be resolved */
};

struct wd_ifnames {
	struct wd_ifname_entry *v;
	size_t n;
};

/* Name of ifindex in netns, NULL when unknown (namespace not reachable). */
const char *wd_ifname(struct wd_ifnames *c, uint32_t netns, uint32_t ifindex);
void wd_ifnames_free(struct wd_ifnames *c);

#endif /* WD_NETNS_H */
