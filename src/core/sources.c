// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --source: which drop source a session opens. bpf: the BPF program on
 * skb:kfree_skb (source_bpf.c); dropmon: the kernel's drop_monitor
 * (source_dropmon.c); auto: BPF, else drop_monitor where BPF cannot load
 * or may not, said once. The only place that names them: the session
 * only knows the ops table (source.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "privileges.h"

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
int wd_sources_check_privileges(enum wd_source_choice source)
{
	bool net_admin;

	bpf_refused = false;
	if (source == WD_SOURCE_DROPMON || wd_privileges_bpf(&net_admin))
		return 0;
	if (source == WD_SOURCE_AUTO && net_admin) {
		bpf_refused = true;
		return 0;
	}
	say_needs_root(NULL);
	return 1;
}

/* Open one source into the session; *lacks: what a quiet failure lacked. */
static int open_source(struct wd_session *s, const struct wd_source_ops *ops,
		       const struct wd_opts *o, bool quiet, const char **lacks)
{
	struct wd_source *src = calloc(1, sizeof(*src));
	int status;

	if (!src) {
		fprintf(stderr, "whydrop: out of memory\n");
		return 1;
	}
	*src = (struct wd_source){ .ops = ops, .s = s, .map_fd = -1 };
	status = ops->open(src, o, quiet);
	if (lacks)
		*lacks = src->lacks;
	if (status) {
		ops->close(src);
		free(src);
		return status;
	}
	s->src[s->n_src++] = src;
	return 0;
}

/*
 * --source auto: where BPF cannot load (or may not: bpf_refused),
 * drop_monitor if this kernel has it and lets this process use it, said
 * once on stderr; else why neither can be.
 */
static int fall_back(struct wd_session *s, const struct wd_opts *o, int err)
{
	const char *lacks = NULL;
	int status = open_source(s, &wd_source_dropmon_ops, o, true, &lacks);

	if (status >= 0)
		lacks = NULL;
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

int wd_sources_open(struct wd_session *s, const struct wd_opts *o)
{
	int status;

	/* WHYDROP_ATTACH=raw_tp|nobtf|fail forces a fallback, for tests. */
	if (o->source == WD_SOURCE_DROPMON)
		status = open_source(s, &wd_source_dropmon_ops, o, false, NULL);
	else
		status = open_source(s, &wd_source_bpf_ops, o, false, NULL);
	if (status < 0 && o->source == WD_SOURCE_AUTO)
		status = fall_back(s, o, status);
	if (status < 0)
		fprintf(stderr, "whydrop: cannot load the BPF program on skb:kfree_skb: %s\n%s",
			strerror(-status), wd_libbpf_log());
	/* --rules: nftables traces beside the drops, once those are counted */
	if (!status && o->rules && s->src[0]->ops != &wd_source_bpf_ops) {
		fprintf(stderr, "whydrop: --rules needs the BPF program (it splits NETFILTER_DROP "
				"by the skb's nf_trace bit); drop_monitor cannot tell\n");
		return WD_EXIT_USAGE;
	}
	if (!status && o->rules)
		status = open_source(s, &wd_source_nftrace_ops, o, false, NULL);
	if (status)
		return status < 0 ? 1 : status;
	/* --tcp: its own programs, beside the drops (after them: src[0] names drops) */
	if (o->tcp)
		status = open_source(s, &wd_source_tcp_ops, o, false, NULL);
	if (status < 0)
		fprintf(stderr, "whydrop: --tcp: %s\n", strerror(-status));
	return status < 0 ? 1 : status;
}
