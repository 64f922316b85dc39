/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * watch --tcp: a line per reset and per retransmission, the retransmission
 * with the last drop of its connection watch printed before it (docs/tcp.md).
 */
#ifndef WD_TCP_WATCH_H
#define WD_TCP_WATCH_H

#include <stdio.h>

#include "session.h"

#define WD_TCP_WATCH_CONNS	512	/* connections whose last drops are remembered */
#define WD_TCP_WATCH_DROPS	16	/* drops remembered per connection */

struct wd_tcp_watch_last;

struct wd_tcp_watch {
	struct wd_tcp_watch_last *last;	/* a slot per hash of the connection */
	uint64_t shown;
};

int wd_tcp_watch_init(struct wd_tcp_watch *w);
void wd_tcp_watch_free(struct wd_tcp_watch *w);
/* A drop record watch printed: remembered when it is a TCP packet. */
void wd_tcp_watch_drop(struct wd_tcp_watch *w, const struct wd_drop_view *v);
/* A record of the TCP source, as a line of text or of JSON. */
void wd_tcp_watch_print(struct wd_tcp_watch *w, struct wd_session *s,
			const struct wd_tcp_event *ev, bool json, FILE *f);

/*
 * Who a reset's socket is, named as a drop's is (wd_who_view): the task that
 * held the socket when it reset, where there was one (its comm kept in
 * comm[len]). Kind WD_SOCK_NONE for retransmissions.
 */
void wd_tcp_event_who(struct wd_session *s, const struct wd_tcp_event *ev,
		      struct wd_sock_view *sock, char *comm, size_t len);

#endif /* WD_TCP_WATCH_H */
