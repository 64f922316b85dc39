// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why drop_monitor cannot serve (source_dropmon.c), said once and plainly:
 * options it cannot honour, a kernel without it, a module not loaded, a
 * network namespace where its family is hidden, a request refused (no
 * privilege, another listener).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core.h"
#include "dropmon.h"

#define DM_NET_INIT_INO	0xEFFFFFF9u	/* NET_NS_INIT_INO, <linux/nsfs.h> of 6.18 */

enum netns_answer { NETNS_UNKNOWN, NETNS_INITIAL, NETNS_OTHER };

static bool kernel_before(int major, int minor)
{
	struct utsname u;
	int ma, mi;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}

/*
 * Whether this process is in the initial network namespace, the only one
 * where drop_monitor's genetlink family exists (it is registered without
 * netnsok, so the lookup answers ENOENT elsewhere, as where there is none).
 * Comparing with /proc/1/ns/net is wrong in a container with its own PID
 * namespace: PID 1 is the container's init, in the container's network
 * namespace. NS_GET_PARENT does not apply (network namespaces are not
 * nested) and NS_GET_USERNS cannot tell (a namespace that root made belongs
 * to the initial user namespace too). What does tell, whatever the PID
 * namespace or the /proc mount:
 * - Since 6.18 the initial namespace has the fixed inode NET_NS_INIT_INO;
 *   every namespace made later has one from 0xF0000000 on, on any kernel.
 * - /proc/sys/net shows the sysctls of the network namespace of the thread
 *   that looks (net_ctl_header_lookup()), and some exist in the initial
 *   namespace alone (net_core_table, registered for init_net only):
 *   fb_tunnels_only_for_init_net since 4.19, netdev_max_backlog before.
 * Without /proc/sys it cannot be told; the caller then says both.
 */
static enum netns_answer initial_netns(void)
{
	struct stat st;

	if (!stat("/proc/self/ns/net", &st) && st.st_ino == DM_NET_INIT_INO)
		return NETNS_INITIAL;
	if (stat("/proc/sys/net/core", &st))
		return NETNS_UNKNOWN;
	if (!access("/proc/sys/net/core/fb_tunnels_only_for_init_net", F_OK))
		return NETNS_INITIAL;
	if (kernel_before(4, 19))
		return access("/proc/sys/net/core/netdev_max_backlog", F_OK) ? NETNS_OTHER
									   : NETNS_INITIAL;
	return NETNS_OTHER;
}

/* drop_monitor.ko in this kernel's module tree (not loaded, or it would answer). */
static bool module_available(void)
{
	static const char *const ext[] = { "", ".xz", ".zst", ".gz" };
	struct utsname u;
	char path[512];
	struct stat st;

	if (uname(&u))
		return false;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(path, sizeof(path), "/lib/modules/%s/kernel/net/core/drop_monitor.ko%s",
			 u.release, ext[i]);
		if (!stat(path, &st))
			return true;
	}
	return false;
}

/* Options drop_monitor cannot honour: --netns, -i; in summary mode, what needs packets. */
int wd_dm_refuse_options(const struct wd_opts *o, bool details, bool summary)
{
	const char *what = o->netns ? "--netns" : o->ifname ? "-i" : NULL;

	if (what) {
		fprintf(stderr, "whydrop: drop_monitor does not say in which network namespace a "
				"drop happened (its interface index names none), so %s cannot "
				"apply: leave it out, or use --source bpf\n", what);
		return WD_EXIT_USAGE;
	}
	if (!summary)
		return 0;
	what = details ? "per-packet records" : o->reasons ? "-r" : o->filter ? "a filter expression" : NULL;
	if (what) {
		fprintf(stderr, "whydrop: drop_monitor's summary mode counts drops by location only, "
				"so %s cannot apply: use --dropmon-mode packet\n", what);
		return WD_EXIT_USAGE;
	}
	return 0;
}

int wd_dm_say_open_error(int err, bool quiet)
{
	enum netns_answer ns;

	if (quiet)
		return -1;
	ns = err == -ENOENT ? initial_netns() : NETNS_UNKNOWN;
	/* the module is loaded, so the family exists: it is hidden from here */
	if (err == -ENOENT && ns == NETNS_UNKNOWN && !access("/sys/module/drop_monitor", F_OK))
		ns = NETNS_OTHER;
	if (err == -ENOENT && ns == NETNS_OTHER)
		fprintf(stderr, "whydrop: drop_monitor does not answer here: whydrop is not in the "
				"initial network namespace, the only one where drop_monitor's "
				"netlink family exists: run it in the host's namespace, or use "
				"--source bpf\n");
	else if (err == -ENOENT && module_available())
		fprintf(stderr, "whydrop: drop_monitor is not loaded: `modprobe drop_monitor`, "
				"then try again\n");
	else if (err == -ENOENT)
		fprintf(stderr, "whydrop: this kernel has no drop_monitor "
				"(CONFIG_NET_DROP_MONITOR)%s: use --source bpf\n",
			ns == NETNS_UNKNOWN ? ", or whydrop is not in the initial network "
			"namespace (where it would be hidden; /proc/sys cannot tell)" : "");
	else
		fprintf(stderr, "whydrop: cannot talk to drop_monitor over generic netlink: %s\n",
			strerror(-err));
	return 1;
}

int wd_dm_say_request_error(const struct wd_dm *dm, const char *what, int err)
{
	if (err == -EPERM)
		fprintf(stderr, "whydrop: drop_monitor's %s needs CAP_NET_ADMIN "
				"(and CAP_SYS_ADMIN to receive its alerts): try sudo whydrop ...\n", what);
	else if (err == -EBUSY || err == -EAGAIN || err == -EEXIST)
		fprintf(stderr, "whydrop: drop_monitor is already in use by another listener "
				"(dropwatch, perf, or a whydrop killed by SIGKILL%s%s%s): it serves "
				"one at a time; stop that one, or use --source bpf\n",
			dm->ext_msg[0] ? ": \"" : "", dm->ext_msg, dm->ext_msg[0] ? "\"" : "");
	else
		fprintf(stderr, "whydrop: drop_monitor's %s failed: %s%s%s\n", what,
			strerror(-err), dm->ext_msg[0] ? ": " : "", dm->ext_msg);
	return 1;
}
