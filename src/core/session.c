// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A session's life: the checks before it, its drop source opened
 * (sources.c), records delivered as the sources have them, privileges
 * given up, names for what it counted, and the end. Every source is
 * reached through its ops table (source.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "privileges.h"
#include "session.h"

static uint64_t mono_to_real(void)
{
	struct timespec m, r;

	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &r);
	return (uint64_t)(r.tv_sec - m.tv_sec) * 1000000000ULL + (uint64_t)r.tv_nsec -
	       (uint64_t)m.tv_nsec;
}

static int load_names(struct wd_session *s)
{
	char err[512];

	if (wd_reasons_load(&s->reasons, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return 1;
	}
	if (!s->reasons.has_reason)
		fprintf(stderr, "whydrop: this kernel's skb:kfree_skb has no drop reason (before 5.17): "
				"counting by drop location only\n");
	return 0;
}

/* After attaching: symbols are only needed to print, not to count. */
static int load_symbols(struct wd_session *s)
{
	int e = wd_ksyms_load(&s->ksyms, NULL);

	if (e) {
		fprintf(stderr, "whydrop: cannot read /proc/kallsyms: %s\n", strerror(-e));
		return 1;
	}
	if (!s->ksyms.n)
		fprintf(stderr, "whydrop: /proc/kallsyms hides kernel addresses from this process "
				"(needs CAP_SYSLOG, or kernel.kptr_restrict=0 with "
				"kernel.perf_event_paranoid<=1): locations are shown as addresses\n");
	return 0;
}

/* Names and sockets opened while still privileged, as the options ask. */
static void open_names(struct wd_session *s, const struct wd_opts *o, bool details)
{
	unsigned int caps = s->src[0]->caps;

	/* Before privileges go: /proc/PID/fd of every user is readable now, */
	/* (--tcp: resets are counted per socket cgroup) */
	if (details || o->group_by || o->netns_names || o->tcp) {
		wd_who_init(&s->who, o->processes, o->host_root, o->docker_root);
		/* --netns: that namespace is called as the user gave it */
		wd_who_netns_given(&s->who, &s->netns, o->netns);
	}
	/* and namespaces can be entered to name their interfaces later. */
	if ((caps & WD_SRC_NETNS) && (details || o->group_by == WD_GROUP_INTERFACE))
		wd_ifnames_open(&s->ifnames, o->netns ? s->netns_path : NULL);
	/* cgroups named at first sight, in the kernel, before they can vanish */
	if (((caps & WD_SRC_SOCKETS) && o->group_by != WD_GROUP_PROCESS &&
	     wd_group_by_socket(o->group_by)) || o->tcp)
		wd_session_cgroups_open(s);
}

int wd_session_open(struct wd_session *s, const struct wd_opts *o, bool details,
		    wd_event_fn fn, void *ctx)
{
	struct utsname u;
	double t0 = wd_now();
	int status;

	memset(s, 0, sizeof(*s));
	s->netns_fd = -1;
	s->verbose = o->verbose;
	wd_libbpf_log_init(o->verbose);
	s->on_event = fn;
	s->event_ctx = ctx;
	s->details = details;
	if (!uname(&u))
		snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	status = wd_sources_check_privileges(o->source);
	if (!status)
		status = load_names(s);
	if (!status)
		status = wd_filters_resolve(s, o);
	if (!status)
		status = wd_sources_open(s, o);
	if (status)
		goto fail;
	s->mono_to_real_ns = mono_to_real();
	s->t_attached = wd_now();
	s->attach_ms = (s->t_attached - t0) * 1000;
	fprintf(stderr, "whydrop: attached to %s (%s) in %.1f ms\n", s->src[0]->what,
		s->src[0]->attach_mode, s->attach_ms);
	status = load_symbols(s);
	if (status)
		goto fail;
	open_names(s, o, details);
	return 0;
fail:
	wd_session_close(s);
	return status;
}

void wd_session_close(struct wd_session *s)
{
	wd_session_cgroups_close(s);
	for (size_t i = s->n_src; i-- > 0;) {
		s->src[i]->ops->close(s->src[i]);
		free(s->src[i]);
		s->src[i] = NULL;
	}
	s->n_src = 0;
	wd_reasons_free(&s->reasons);
	wd_ksyms_free(&s->ksyms);
	wd_ifnames_free(&s->ifnames);
	wd_stack_free(&s->ev_stack);
	wd_who_free(&s->who);
	wd_filters_free(s);
}

/*
 * Last source first: a source beside the drop source (--rules: nftables
 * marking) stops before the drops it explains stop being counted.
 */
void wd_session_detach(struct wd_session *s)
{
	for (size_t i = s->n_src; i-- > 0;)
		s->src[i]->ops->detach(s->src[i]);
}

void wd_session_keep_caps(const struct wd_session *s, uint64_t *caps, int *map_fd,
			  const char **why)
{
	*caps = 0;
	*map_fd = -1;
	*why = NULL;
	for (size_t i = 0; i < s->n_src; i++) {
		const struct wd_source *src = s->src[i];

		*caps |= src->keep_caps;
		if (*map_fd < 0)
			*map_fd = src->map_fd;
		if (!*why)
			*why = src->keep_why;
	}
}

#define PROC_SCAN_CAPS	(WD_CAP(WD_CAP_DAC_READ_SEARCH) | WD_CAP(WD_CAP_SYS_PTRACE))

/* -p: like ss -p, read every process's socket links in /proc, now and then */
static void around_proc_scan(bool begin)
{
	if (!begin)
		wd_privileges_lower();
	else if (wd_privileges_raise(PROC_SCAN_CAPS))
		perror("whydrop: cannot raise CAP_DAC_READ_SEARCH to name processes");
}

int wd_session_drop_privileges(struct wd_session *s)
{
	uint64_t keep;
	const char *why;
	char caps[64];
	bool kept_bpf;
	int map_fd;

	/* Kept permitted, not in effect: raised only around their work. */
	wd_session_keep_caps(s, &keep, &map_fd, &why);
	if (s->who.processes)
		keep |= PROC_SCAN_CAPS;
	if (wd_privileges_reduce("whydrop", keep, map_fd, &kept_bpf))
		return 1;
	if (s->who.processes)
		s->who.owners.around_scan = around_proc_scan;
	if (s->verbose || kept_bpf)
		fprintf(stderr, "whydrop: attached; going on with %s%s\n",
			wd_privileges_describe(caps, sizeof(caps)),
			kept_bpf ? " (this kernel needs CAP_BPF to read BPF maps)" : "");
	return 0;
}

/* Wait up to ms for any source's descriptor (none: sleep), then take what waits. */
bool wd_session_poll(struct wd_session *s, int ms)
{
	struct pollfd fds[WD_SOURCES_MAX];
	nfds_t n = 0;

	if (wd_stop)
		return false;
	for (size_t i = 0; i < s->n_src; i++) {
		int fd = s->src[i]->ops->fd ? s->src[i]->ops->fd(s->src[i]) : -1;

		if (fd >= 0)
			fds[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	if (n)
		poll(fds, n, ms);
	else
		nanosleep(&(struct timespec){ ms / 1000, (long)(ms % 1000) * 1000000L }, NULL);
	/* Records do not wake us one by one: take what waits after the wait. */
	for (size_t i = 0; i < s->n_src && !wd_stop; i++)
		if (s->src[i]->ops->poll(s->src[i]))
			wd_stop = 1;	/* said by the source */
	wd_filters_check_netns(s);
	return !wd_stop;
}

int wd_session_sock_forget(struct wd_session *s, const uint64_t *ids, size_t n)
{
	int err = 0;

	for (size_t i = 0; !err && i < s->n_src; i++)
		if (s->src[i]->ops->forget_cgroups)
			err = s->src[i]->ops->forget_cgroups(s->src[i], ids, n);
	return err;
}

/* ------------------------------------------------------------ names */

/* A code only the drop source has: its subsystem ("hardware"), else NULL. */
static const char *source_subsys(struct wd_session *s, uint32_t code)
{
	struct wd_source *src = s->src[0];

	return src->ops->subsys ? src->ops->subsys(src, code) : NULL;
}

/* The names of a (reason, location); "0xffff..." for a location kallsyms lacks. */
static void names(struct wd_session *s, uint32_t code, uint64_t location,
		  char *reason, char *function, char *loc, size_t len)
{
	struct wd_source *src = s->src[0];
	const struct wd_ksym *k;

	if (src->ops->names && src->ops->names(src, code, location, reason, function, loc, len))
		return;
	if (code == WD_REASON_NO_SLOT && !location)
		snprintf(reason, len, "(reasons beyond the overflow bucket's slots)");
	else if (!source_subsys(s, code))
		wd_reason_name(&s->reasons, code, reason, len);
	if (!location) {
		snprintf(function, len, "(overflow)");
		snprintf(loc, len, "(overflow: counting map full)");
		return;
	}
	k = wd_ksym_format(&s->ksyms, location, false, loc, len);
	snprintf(function, len, "%s", k ? k->name : loc);
}

void wd_session_view(struct wd_session *s, const struct wd_event *ev, struct wd_drop_view *v,
		     char *reason, char *function, char *location, size_t len)
{
	const struct wd_netns_id ns = { .cookie = ev->netns_cookie, .inode = ev->netns };
	struct wd_source *src = s->src[0];

	/* caplen bytes from hdr[] on: the sources see to it */
	wd_event_view(ev, s->mono_to_real_ns, v);
	names(s, ev->reason, ev->location, reason, function, location, len);
	v->reason = s->reasons.has_reason ? reason : NULL;
	v->function = function;
	v->location = location;
	/* The record's own name is the one at the drop; else look it up now. */
	snprintf(s->ev_ifname, sizeof(s->ev_ifname), "%.*s", WD_IFNAME_BYTES, ev->ifname);
	v->ifname = s->ev_ifname[0] || !(src->caps & WD_SRC_NETNS) ? s->ev_ifname :
		    wd_ifname(&s->ifnames, &ns, ev->ifindex);
	if (src->ops->view)
		src->ops->view(src, ev, v);
	/* sources beside it may add what they know of the drop (--rules: its rule) */
	for (size_t i = 1; i < s->n_src; i++)
		if (s->src[i]->ops->view)
			s->src[i]->ops->view(s->src[i], ev, v);
	wd_stack_free(&s->ev_stack);
	if ((src->caps & WD_SRC_STACKS) && ev->stack_id != WD_STACK_NONE &&
	    !wd_session_stack(s, ev->stack_id, &s->ev_stack)) {
		v->stack = (const char *const *)s->ev_stack.frames;
		v->n_stack = s->ev_stack.n;
	}
	wd_who_view(&s->who, &ns, &ev->sock, v);
}

void wd_session_row(struct wd_session *s, const struct wd_total *t, struct wd_count_row *row,
		    char *reason, char *subsys, char *function, char *location, size_t len)
{
	const char *own;

	memset(row, 0, sizeof(*row));
	names(s, t->reason, t->location, reason, function, location, len);
	row->code = t->reason;
	row->reason = s->reasons.has_reason ? reason : NULL;
	row->subsystem = wd_reason_subsys(&s->reasons, t->reason, subsys, len);
	row->function = function;
	row->location = location;
	row->count = t->count;
	own = source_subsys(s, t->reason);
	if (own) {
		row->subsystem = own;
		row->no_code = true;
	}
}

int wd_session_stack(struct wd_session *s, int32_t stack_id, struct wd_stack *st)
{
	struct wd_source *src = s->src[0];

	if (!src->ops->stack)
		return -EOPNOTSUPP;
	return src->ops->stack(src, stack_id, st);
}
