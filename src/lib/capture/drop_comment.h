/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The packet comment of a drop in a recording: written by `whydrop
 * record`, parsed back by `whydrop read`. Space-separated key=value words;
 * values that may hold spaces or other bytes are %XX-encoded.
 */
#ifndef WD_DROP_COMMENT_H
#define WD_DROP_COMMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"

/*
 * "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=lo netns=4026531840 code=3",
 * the namespace's cookie "netns_cookie=1" (where known: inodes are reused),
 * then what is known of who: "netns_name=blue sock=42569 lport=9999 rport=0
 * state=CLOSE pid=20898 comm=wd-rcvr cgroup=/who.slice
 * workload=docker:0123456789ab container=web" (or "sock=unknown"; pod= and
 * k8s_namespace= for a Kubernetes pod's container); spaces, '%' and
 * non-ASCII bytes in values are %XX.
 */
void wd_pcapng_drop_comment(const struct wd_drop_view *v, char *buf, size_t len);

/*
 * Append who a socket is, as a drop comment says it, to the string in buf,
 * without state= (a TCP event's comment says it first): " sock=42569
 * lport=9999 rport=0 pid=20898 comm=wd-rcvr cgroup=/who.slice ...".
 */
void wd_pcapng_sock_words(const struct wd_sock_view *k, char *buf, size_t len);

/* A frame of a comment's stack= word as watch prints it: a pseudo-frame
 * ("[stack_lost:_stack_map_full]") gets its spaces back, in place. */
void wd_pcapng_stack_frame(char *frame);

/* What a whydrop packet comment says; has_* false = field absent. */
struct wd_pcapng_meta {
	bool has_reason, has_location, has_code, has_netns, has_ifname;
	char reason[128];
	char location[160];
	char function[160];	/* location up to the '+' */
	char ifname[32];
	uint32_t code;
	uint32_t netns;
	bool has_netns_cookie;
	uint64_t netns_cookie;
	/* who: the namespace's name and the socket's owner */
	bool has_netns_name, has_sock, sock_unknown, has_lport, has_pid, has_comm;
	bool has_cgroup, has_workload, has_rport, has_state;
	char netns_name[64];
	uint64_t sock;
	uint16_t lport, rport;	/* rport 0: no peer */
	char state[16];		/* "ESTABLISHED", "SYN_SENT", ... as sk_state */
	uint32_t pid;
	char comm[32];
	char cgroup[512];
	char workload[200];
	/* the runtime's names (containers.h: WD_CTR_NAME_LEN, WD_CTR_NS_LEN) */
	bool has_container, has_pod, has_k8s_namespace;
	char container[254];
	char pod[254];
	char k8s_namespace[64];
};

/*
 * Parse space-separated key=value words. Values must be printable ASCII;
 * others are ignored. Returns true if it is a whydrop comment (has location=).
 */
bool wd_pcapng_parse_comment(const char *s, struct wd_pcapng_meta *m);

#endif /* WD_DROP_COMMENT_H */
