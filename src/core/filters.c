// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The filters every source of a session shares, resolved before any
 * starts: the pcap expression compiled to classic BPF, --netns opened and
 * identified, -i found in it; and, while the session runs, whether --netns
 * NAME still names the namespace it held. (-r is each source's: it
 * applies in the kernel or in user space, reason_bits.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "pcapfilter.h"

/*
 * --netns: the namespace by its cookie (learnt from a socket made in it:
 * we are still privileged), and its inode. The file stays open for the
 * session, so that even where the kernel has no cookies the inode names
 * this namespace and no other until the end.
 */
static int open_netns(struct wd_session *s, const char *arg, char *err, size_t errlen)
{
	uint32_t inode;

	if (wd_netns_resolve(arg, s->netns_path, sizeof(s->netns_path), &inode, err, errlen))
		return -1;
	s->netns_fd = open(s->netns_path, O_RDONLY | O_CLOEXEC);
	if (s->netns_fd < 0 || wd_netns_id_of_fd(s->netns_fd, &s->netns)) {
		snprintf(err, errlen, "cannot open network namespace %s: %s", s->netns_path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int wd_filters_resolve(struct wd_session *s, const struct wd_opts *o)
{
	char err[1024];

	if (o->filter && wd_filter_compile(o->filter, &s->filter, &s->filter_len, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return WD_EXIT_USAGE;
	}

	if (o->netns && open_netns(s, o->netns, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return WD_EXIT_USAGE;
	}
	if (o->netns)
		wd_netns_name_init(&s->netns_name, s->netns_path);
	if (o->ifname && wd_ifindex_in(o->netns ? s->netns_path : NULL, o->ifname, &s->ifindex)) {
		fprintf(stderr, "whydrop: no interface '%s' in %s%s; `ip%s%s link` lists them\n",
			o->ifname, o->netns ? "network namespace " : "this network namespace",
			o->netns ? o->netns : "", o->netns ? " -n " : "", o->netns ? o->netns : "");
		return WD_EXIT_USAGE;
	}
	return 0;
}

void wd_filters_free(struct wd_session *s)
{
	if (s->netns_fd >= 0)
		close(s->netns_fd);
	s->netns_fd = -1;
	free(s->filter);
	s->filter = NULL;
	s->filter_len = 0;
}

/*
 * --netns NAME: `ip netns del NAME` while whydrop runs takes the name away,
 * not the namespace, which whydrop's own sockets in it keep alive. Said
 * once, looked at once a second; watching goes on.
 */
void wd_filters_check_netns(struct wd_session *s)
{
	const char *run = WD_NETNS_RUN_DIR "/", *path = s->netns_name.path;
	size_t n = strlen(run);
	double now = wd_now();

	if (!path[0] || now < s->netns_check_at)
		return;
	s->netns_check_at = now + 1;
	switch (wd_netns_name_check(&s->netns_name)) {
	case WD_NETNS_GONE:
		if (!strncmp(path, run, n))
			fprintf(stderr, "whydrop: network namespace '%s' is gone from %s (ip netns "
				"del?): only whydrop, and any process still inside, keeps it alive; "
				"still watching it (Ctrl-C to stop)\n", path + n, WD_NETNS_RUN_DIR);
		else
			fprintf(stderr, "whydrop: %s is gone (its process ended?): only whydrop, "
				"and any process still inside, keeps that network namespace alive; "
				"still watching it (Ctrl-C to stop)\n", path);
		break;
	case WD_NETNS_OTHER:
		fprintf(stderr, "whydrop: %s now names another network namespace (deleted and "
			"made again?); still watching the one it named at start\n", path);
		break;
	case WD_NETNS_SAME:
		break;
	}
}
