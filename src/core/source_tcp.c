// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --tcp: the TCP events program (tcp_events.c) as a source of its own,
 * beside the drop source: opened after it, the --netns cookie from the
 * session; its counts read into the snapshot's tcp section (source_tcp.h);
 * its records, which are not drops, to the session's on_tcp callback.
 * Nothing of it is loaded without --tcp.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "session.h"
#include "snapshot.h"
#include "source_tcp.h"

struct tcp_src {
	struct wd_tcp *t;
	struct wd_tcp_names names;
	bool names_loaded;
};

static struct tcp_src *tcp_of(struct wd_source *src)
{
	return src->priv;
}

static int on_record(const struct wd_tcp_event *ev, void *arg)
{
	struct wd_session *s = arg;

	if (s->on_tcp)
		s->on_tcp(s->event_ctx, ev);
	return 0;
}

static int tcp_fd(struct wd_source *src)
{
	return wd_tcp_fd(tcp_of(src)->t);
}

static int tcp_poll(struct wd_source *src)
{
	int err = wd_tcp_poll(tcp_of(src)->t, 0, on_record, src->s);

	if (err >= 0)
		return 0;
	fprintf(stderr, "whydrop: reading TCP records failed: %s\n", strerror(-err));
	return err;
}

static int tcp_open(struct wd_source *src, const struct wd_opts *o, bool quiet)
{
	struct wd_session *s = src->s;
	struct wd_tcp_opts to = { .netns_cookie = s->netns.cookie };
	struct tcp_src *p = calloc(1, sizeof(*p));
	char err[512];

	(void)quiet;
	if (!p)
		return -ENOMEM;
	src->priv = p;
	if (o->netns && !s->netns.cookie) {
		fprintf(stderr, "whydrop: --tcp with --netns needs the namespace's cookie "
				"(SO_NETNS_COOKIE, Linux 5.14): run without --netns, or without --tcp\n");
		return WD_EXIT_USAGE;
	}
	if (wd_tcp_names_load(&p->names, err, sizeof(err))) {
		fprintf(stderr, "whydrop: --tcp: %s\n", err);
		return 1;
	}
	p->names_loaded = true;
	/* records only where they are shown, at the drops' --rate */
	if (s->details)
		to.rate = o->rate ? o->rate : WD_TCP_NO_LIMIT;
	p->t = wd_tcp_open(&to, err, sizeof(err));
	if (!p->t) {
		fprintf(stderr, "whydrop: --tcp: %s (this kernel needs the tracepoints "
				"tcp:tcp_send_reset, tcp:tcp_receive_reset and tcp:tcp_retransmit_skb): "
				"run without --tcp\n%s", err, wd_libbpf_log());
		return WD_EXIT_USAGE;
	}
	src->what = "tcp:tcp_send_reset, tcp_receive_reset, tcp_retransmit_skb";
	src->attach_mode = wd_tcp_caps(p->t)->attach;
	fprintf(stderr, "whydrop: --tcp: attached to tcp:tcp_send_reset, tcp_receive_reset, "
			"tcp_retransmit_skb, tcp_retransmit_synack (%s)%s\n", src->attach_mode,
		wd_tcp_caps(p->t)->rst_reason ? "" :
		"; this kernel gives no reset reasons (before 6.10): shown as unknown");
	return 0;
}

static void tcp_detach(struct wd_source *src)
{
	struct tcp_src *p = tcp_of(src);

	wd_tcp_detach(p->t);
	/* runs already inside the programs finish before the final read */
	nanosleep(&(struct timespec){ 0, 20 * 1000000L }, NULL);
	wd_tcp_poll(p->t, 0, on_record, src->s);
}

static void tcp_close(struct wd_source *src)
{
	struct tcp_src *p = tcp_of(src);

	if (!p)
		return;
	wd_tcp_close(p->t);
	if (p->names_loaded)
		wd_tcp_names_free(&p->names);
	free(p);
	src->priv = NULL;
}

const struct wd_tcp_names *wd_source_tcp_names(struct wd_session *s)
{
	for (size_t i = 0; i < s->n_src; i++)
		if (s->src[i]->ops == &wd_source_tcp_ops && s->src[i]->priv)
			return &tcp_of(s->src[i])->names;
	return NULL;
}

void wd_tcp_snap_free(struct wd_tcp_snap *t)
{
	if (!t)
		return;
	free(t->resets);
	free(t->flows);
	free(t->drops);
	free(t);
}

static int tcp_snapshot(struct wd_source *src, struct wd_snapshot *snap)
{
	struct tcp_src *p = tcp_of(src);
	struct wd_tcp_snap *t = wd_tcp_snap_of(snap);
	int err;

	if (!t)
		return -ENOMEM;
	t->caps = wd_tcp_caps(p->t);
	t->names = &p->names;
	/* stats first: the counts read after them are at least as high */
	err = wd_tcp_read_stats(p->t, &t->stats);
	if (!err)
		err = wd_tcp_read_resets(p->t, &t->resets, &t->n_resets);
	if (!err)
		err = wd_tcp_read_flows(p->t, &t->flows, &t->n_flows, &t->flows_overflow);
	return err;	/* on error the caller frees snap, the section with it */
}

const struct wd_source_ops wd_source_tcp_ops = {
	.name = "tcp",
	.open = tcp_open,
	.fd = tcp_fd,
	.poll = tcp_poll,
	.snapshot = tcp_snapshot,
	.detach = tcp_detach,
	.close = tcp_close,
};
