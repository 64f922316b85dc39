// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A session's life: the checks before it, the BPF program attached
 * (src/core/loader.c) or drop_monitor instead (source_dropmon.c), records
 * delivered from the ring buffer, privileges given up, names for what it
 * counted, and the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "core.h"
#include "pcapfilter.h"
#include "privileges.h"
#include "session.h"
#include "source_dropmon.h"
#include "whydrop.skel.h"

/* No CAP_BPF with CAP_PERFMON, nor CAP_SYS_ADMIN: --source auto tries drop_monitor. */
static bool bpf_refused;

/* dm_lacks: what drop_monitor, tried instead, refused to work without. */
static void say_needs_root(const char *dm_lacks)
{
	fprintf(stderr,
		"whydrop: tracing drops needs root, or the capabilities CAP_BPF and CAP_PERFMON\n");
	if (dm_lacks)
		fprintf(stderr, "         (drop_monitor, which this kernel has, needs no BPF but "
				"CAP_NET_ADMIN%s; this process lacks %s)\n",
			strcmp(dm_lacks, "CAP_SYS_ADMIN") ? "" :
			", and CAP_SYS_ADMIN to join its \"events\" group on this kernel", dm_lacks);
	fprintf(stderr, "         (try: sudo whydrop ...; `whydrop reasons` and `whydrop explain` "
			"work without)\n");
}

/*
 * CAP_BPF + CAP_PERFMON (5.8+), or CAP_SYS_ADMIN on any kernel. Without
 * them --source auto goes on where drop_monitor may do, with CAP_NET_ADMIN
 * (its configuration needs it): fall_back() then tries it and says why BPF
 * is not used, or that neither can be. Joining drop_monitor's group needs
 * CAP_SYS_ADMIN since 6.6 (and in stable updates: Debian's 6.1.192), which
 * allows BPF too: there, that comes to pass only where a policy forbids BPF.
 */
static int check_privileges(enum wd_source source)
{
	bool net_admin;

	bpf_refused = false;
	if (wd_privileges_bpf(&net_admin))
		return 0;
	if (source == WD_SOURCE_AUTO && net_admin) {
		bpf_refused = true;
		return 0;
	}
	say_needs_root(NULL);
	return 1;
}

static uint64_t mono_to_real(void)
{
	struct timespec m, r;

	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &r);
	return (uint64_t)(r.tv_sec - m.tv_sec) * 1000000000ULL + (uint64_t)r.tv_nsec -
	       (uint64_t)m.tv_nsec;
}

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

static int resolve_filters(struct wd_session *s, const struct wd_opts *o)
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

static int on_ring(void *ctx, void *data, size_t len)
{
	struct wd_session *s = ctx;
	const struct wd_event *ev = data;
	struct wd_event cut;

	if (len < sizeof(*ev) || !s->on_event)
		return 0;
	/* Packet bytes past hdr[] are read only as far as the record holds them. */
	if (WD_EVENT_BYTES(ev->caplen) > len) {
		memcpy(&cut, ev, sizeof(cut));
		cut.caplen = WD_HDR_BYTES;
		ev = &cut;
	}
	s->on_event(s->event_ctx, ev);
	return 0;
}

static void explain_load_failure(int err)
{
	fprintf(stderr, "whydrop: cannot load the BPF program on skb:kfree_skb: %s\n%s",
		strerror(-err), wd_libbpf_log());
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

/* No subsystem reason among the -r bits (their slots follow the core's). */
static bool subsys_bits_clear(const __u64 *bits)
{
	for (size_t w = WD_CORE_SLOTS / 64; w < WD_REASON_BITMAP_WORDS; w++)
		if (bits[w])
			return false;
	return true;
}

/* drop_monitor instead of BPF; -r is checked before anything starts. */
static int open_dropmon(struct wd_session *s, const struct wd_opts *o, bool details, bool quiet)
{
	__u64 bits[WD_REASON_BITMAP_WORDS] = { 0 };
	bool enabled = false;
	int status = 0;

	if (o->reasons && !o->dropmon_summary)
		status = wd_reason_bits(s, o->reasons, bits, &enabled);
	if (!status && !subsys_bits_clear(bits)) {
		fprintf(stderr, "whydrop: drop_monitor names a subsystem's reasons (openvswitch, "
				"mac80211) without their numbers: -r cannot select them with "
				"--source dropmon; leave them out or use BPF (--source bpf)\n");
		status = WD_EXIT_USAGE;
	}
	if (!status)
		status = wd_dm_source_open(s, o, details, quiet);
	if (status)
		return status;
	memcpy(s->dm->ev.reason_bits, bits, sizeof(bits));
	s->dm->ev.filter_reasons = enabled;
	return 0;
}

/*
 * --source auto: where BPF cannot load (or may not: bpf_refused),
 * drop_monitor if this kernel has it and lets this process use it, said
 * once on stderr; else why neither can be.
 */
static int fall_back(struct wd_session *s, const struct wd_opts *o, bool details, int err)
{
	int status = open_dropmon(s, o, details, true);
	const char *lacks = status < 0 ? wd_dm_source_lacks() : NULL;

	if (!status && bpf_refused)
		fprintf(stderr, "whydrop: BPF is not allowed to this process (no CAP_BPF with "
				"CAP_PERFMON, nor CAP_SYS_ADMIN): reading drop_monitor instead "
				"(--source dropmon)\n");
	else if (!status)
		fprintf(stderr, "whydrop: cannot load the BPF program on skb:kfree_skb (%s): "
				"reading drop_monitor instead (--source dropmon)\n", strerror(-err));
	if (!status)
		return 0;
	if (bpf_refused) {
		say_needs_root(lacks);
		return status > 0 ? status : 1;
	}
	if (lacks)
		fprintf(stderr, "whydrop: drop_monitor could count drops without BPF, but needs "
				"%s too\n", lacks);
	return err;
}

int wd_session_open(struct wd_session *s, const struct wd_opts *o, bool details,
		    wd_event_fn fn, void *ctx)
{
	struct utsname u;
	double t0 = wd_now();
	int status;

	memset(s, 0, sizeof(*s));
	s->counts = s->socks = (struct wd_gen){ -1, -1, -1 };
	s->filter_fd = -1;
	s->filter_ctx_fd = -1;
	s->netns_fd = -1;
	s->verbose = o->verbose;
	wd_libbpf_log_init(o->verbose);
	s->on_event = fn;
	s->event_ctx = ctx;
	s->details = details;
	if (!uname(&u))
		snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	status = o->source == WD_SOURCE_DROPMON ? 0 : check_privileges(o->source);
	if (!status)
		status = load_names(s);
	if (!status)
		status = resolve_filters(s, o);
	if (status)
		goto fail;
	/* WHYDROP_ATTACH=raw_tp|nobtf|fail forces a fallback, for tests. */
	if (o->source == WD_SOURCE_DROPMON)
		status = open_dropmon(s, o, details, false);
	else
		status = wd_loader_attach(s, o, details);
	if (status < 0 && o->source == WD_SOURCE_AUTO)
		status = fall_back(s, o, details, status);
	if (status) {
		if (status < 0)
			explain_load_failure(status);
		status = status < 0 ? 1 : status;
		goto fail;
	}
	if (details && s->skel) {
		s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.events), on_ring, s, NULL);
		if (!s->rb) {
			fprintf(stderr, "whydrop: cannot open the ring buffer: %s\n", strerror(errno));
			status = 1;
			goto fail;
		}
	}
	s->mono_to_real_ns = mono_to_real();
	s->t_attached = wd_now();
	s->attach_ms = (s->t_attached - t0) * 1000;
	fprintf(stderr, "whydrop: attached to %s (%s) in %.1f ms\n",
		s->dm ? "drop_monitor" : "skb:kfree_skb", s->attach_mode, s->attach_ms);
	status = load_symbols(s);
	if (status)
		goto fail;
	/* Before privileges go: /proc/PID/fd of every user is readable now, */
	if (details || o->group_by || o->netns_names) {
		wd_who_init(&s->who, o->processes);
		/* --netns: that namespace is called as the user gave it */
		wd_who_netns_given(&s->who, &s->netns, o->netns);
	}
	/* and namespaces can be entered to name their interfaces later. */
	if (s->skel && (details || o->group_by == WD_GROUP_INTERFACE))
		wd_ifnames_open(&s->ifnames, o->netns ? s->netns_path : NULL);
	/* cgroups named at first sight, in the kernel, before they can vanish */
	if (s->skel && o->group_by == WD_GROUP_CGROUP)
		wd_session_cgroups_open(s);
	return 0;
fail:
	wd_session_close(s);
	return status;
}

void wd_session_close(struct wd_session *s)
{
	wd_dm_source_close(s);
	wd_session_cgroups_close(s);
	ring_buffer__free(s->rb);
	s->rb = NULL;
	wd_loader_free(s);
	wd_counts_free(s);
	wd_socks_free(s);
	wd_reasons_free(&s->reasons);
	wd_ksyms_free(&s->ksyms);
	wd_ifnames_free(&s->ifnames);
	wd_stack_free(&s->ev_stack);
	wd_who_free(&s->who);
	if (s->netns_fd >= 0)
		close(s->netns_fd);
	s->netns_fd = -1;
	free(s->filter);
	s->filter = NULL;
}

/* On stderr, once: what drop_monitor could not deliver or say. */
static void say_dropmon_losses(struct wd_session *s)
{
	struct wd_dm_losses l;

	wd_dm_source_losses(s, &l);
	fprintf(stderr, "whydrop: drop_monitor: %" PRIu64 " %s lost in its per-CPU queue, "
			"socket overflowed %" PRIu64 " %s%s; network namespaces unknown%s\n",
		l.queue_dropped + l.hw_queue_dropped,
		wd_plural(l.queue_dropped + l.hw_queue_dropped, "drop", "drops"), l.overruns,
		wd_plural(l.overruns, "time", "times"),
		l.summary_full ? ", summaries full (locations lost)" : "",
		l.queue_dropped || l.hw_queue_dropped || l.overruns || l.summary_full ?
		": counts are lower bounds" : "");
}

void wd_session_detach(struct wd_session *s)
{
	if (s->dm) {
		wd_dm_source_detach(s);
		say_dropmon_losses(s);
		return;
	}
	bpf_link__destroy(s->link);
	s->link = NULL;
	/* Let runs already inside the program finish before the final read. */
	nanosleep(&(struct timespec){ 0, 20 * 1000000L }, NULL);
	if (s->rb)
		ring_buffer__consume(s->rb);
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
	uint64_t keep = 0;
	char caps[64];
	bool kept_bpf;

	/* Kept permitted, not in effect: raised only around their work. */
	if (s->dm)
		keep |= WD_CAP(WD_CAP_NET_ADMIN);	/* drop_monitor's STOP on exit */
	if (s->who.processes)
		keep |= PROC_SCAN_CAPS;
	if (wd_privileges_reduce("whydrop", keep, s->dm ? -1 : s->stats_fd, &kept_bpf))
		return 1;
	if (s->who.processes)
		s->who.owners.around_scan = around_proc_scan;
	if (s->verbose || kept_bpf)
		fprintf(stderr, "whydrop: attached; going on with %s%s\n",
			wd_privileges_describe(caps, sizeof(caps)),
			kept_bpf ? " (this kernel needs CAP_BPF to read BPF maps)" : "");
	return 0;
}

/*
 * --netns NAME: `ip netns del NAME` while whydrop runs takes the name away,
 * not the namespace, which whydrop's own sockets in it keep alive. Said
 * once, looked at once a second; watching goes on.
 */
static void check_netns_name(struct wd_session *s)
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

bool wd_session_poll(struct wd_session *s, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	if (s->dm)
		return wd_dm_source_poll(s, ms);
	if (wd_stop)
		return false;
	if (s->rb) {
		/* Records do not wake us one by one: take what waits after the poll. */
		int err = ring_buffer__poll(s->rb, ms);

		if (err >= 0 || err == -EINTR)
			err = ring_buffer__consume(s->rb);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "whydrop: reading records failed: %s\n", strerror(-err));
			wd_stop = 1;
		}
	} else {
		nanosleep(&ts, NULL);
	}
	check_netns_name(s);
	return !wd_stop;
}

/* The names of a (reason, location); "0xffff..." for a location kallsyms lacks. */
static void names(struct wd_session *s, uint32_t code, uint64_t location,
		  char *reason, char *function, char *loc, size_t len)
{
	const struct wd_ksym *k;

	if (s->dm && wd_dm_source_names(s, code, location, reason, function, loc, len))
		return;
	if (code == WD_REASON_NO_SLOT && !location)
		snprintf(reason, len, "(reasons beyond the overflow bucket's slots)");
	else if (!s->dm || !wd_dm_source_subsys(s, code))
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

	/* caplen bytes from hdr[] on: on_ring() and drop_monitor's records see to it */
	wd_event_view(ev, s->mono_to_real_ns, v);
	names(s, ev->reason, ev->location, reason, function, location, len);
	v->reason = s->reasons.has_reason ? reason : NULL;
	v->function = function;
	v->location = location;
	/* The record's own name is the one at the drop; else look it up now. */
	snprintf(s->ev_ifname, sizeof(s->ev_ifname), "%.*s", WD_IFNAME_BYTES, ev->ifname);
	v->ifname = s->ev_ifname[0] || s->dm ? s->ev_ifname :
		    wd_ifname(&s->ifnames, &ns, ev->ifindex);
	if (s->dm) {
		v->no_code = wd_dm_source_subsys(s, ev->reason) != NULL;
		wd_dm_source_view(s, v);
	}
	wd_stack_free(&s->ev_stack);
	if (s->stacks && ev->stack_id != WD_STACK_NONE &&
	    !wd_session_stack(s, ev->stack_id, &s->ev_stack)) {
		v->stack = (const char *const *)s->ev_stack.frames;
		v->n_stack = s->ev_stack.n;
	}
	wd_who_view(&s->who, &ns, &ev->sock, v);
}

void wd_session_row(struct wd_session *s, const struct wd_total *t, struct wd_count_row *row,
		    char *reason, char *subsys, char *function, char *location, size_t len)
{
	memset(row, 0, sizeof(*row));
	names(s, t->reason, t->location, reason, function, location, len);
	row->code = t->reason;
	row->reason = s->reasons.has_reason ? reason : NULL;
	row->subsystem = wd_reason_subsys(&s->reasons, t->reason, subsys, len);
	row->function = function;
	row->location = location;
	row->count = t->count;
	if (s->dm && wd_dm_source_subsys(s, t->reason)) {
		row->subsystem = wd_dm_source_subsys(s, t->reason);
		row->no_code = true;
	}
}
