// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test driver for tests/system/nftrace.sh: the library half of `--rules`
 * (src/lib/nftables/nftrace*.c, nftables_setup.c, nftrules.c, conntrack_stats.c)
 * used the way a whydrop session will, from outside the namespace.
 *
 *   nftrace_drive hold NETNS [--ifname IF] [--no-owner] [--rcvbuf N]
 *                 [--drop-caps] [--pause] [--bpf] [--signal-safe]
 *       clean up stale tables, install whydrop's table, read traces until
 *       SIGINT/SIGTERM (with --pause: only after SIGUSR1), then print a
 *       report (per-rule drops with rule text, trace statistics, conntrack,
 *       legacy tables, the BPF split of NETFILTER_DROP by nf_trace) and
 *       remove the table (--signal-safe: the way a signal handler would).
 *       SIGUSR2 prints the report between "snapshot" and "end" and goes on.
 *       Prints "ready TABLE" once tracing.
 *   nftrace_drive cleanup NETNS     remove stale whydrop tables, say how many
 *   nftrace_drive flood ADDR PORT COUNT   UDP datagrams; prints sent, errors, and
 *                                   the time and CPU time (of this process) per packet
 *   nftrace_drive sink PORT [v6]    receive UDP until SIGTERM; prints the count
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "conntrack_stats.h"
#include "nftables_setup.h"
#include "nftrace.h"
#include "nftrace_claims.h"
#include "nftrules.h"
#include "reasons.h"
#include "nftrace_bpf.skel.h"

struct opts {
	const char *netns;
	const char *ifname;
	bool no_owner, drop_caps, pause, bpf, signal_safe;
	int rcvbuf;
};

struct run {
	struct opts o;
	int ns_fd;
	struct wd_nft_trace_table table;
	struct wd_nftrace *tr;
	struct wd_nft_rules *rules;
	struct wd_ct_reader ct;
	struct wd_ct_stats ct_before;
	struct wd_nft_claims *claims;
	struct nftrace_bpf *skel;
	int sig_fd;
	struct rusage ru0;
};

/* ------------------------------------------------------------ capabilities */

static int set_caps(uint32_t effective, uint32_t permitted)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	d[0].effective = effective;
	d[0].permitted = permitted;
	return (int)syscall(SYS_capset, &h, d);
}

#define NET_ADMIN	(1u << CAP_NET_ADMIN)

/* ------------------------------------------------------------ BPF */

static int bpf_open(struct run *r)
{
	struct wd_reasons reasons = { 0 };
	const struct wd_reason *nf;
	char err[256];
	struct stat st;

	if (wd_reasons_load(&reasons, err, sizeof(err)) ||
	    !(nf = wd_reason_by_name(&reasons, "NETFILTER_DROP"))) {
		fprintf(stderr, "nftrace_drive: no NETFILTER_DROP reason here\n");
		wd_reasons_free(&reasons);
		return -1;
	}
	r->skel = nftrace_bpf__open();
	if (!r->skel || fstat(r->ns_fd, &st))
		goto fail;
	r->skel->rodata->reason_nf_drop = nf->code;
	r->skel->rodata->netns_inum = (uint32_t)st.st_ino;
	wd_reasons_free(&reasons);
	if (nftrace_bpf__load(r->skel) || nftrace_bpf__attach(r->skel))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "nftrace_drive: cannot load the nf_trace counter: %s\n", strerror(errno));
	return -1;
}

static void bpf_report(struct run *r)
{
	uint64_t v[2] = { 0, 0 };

	if (!r->skel)
		return;
	for (uint32_t k = 0; k < 2; k++)
		bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.drops), &k, &v[k]);
	printf("bpf nf_drop traced %" PRIu64 " untraced %" PRIu64 "\n", v[1], v[0]);
}

/* ------------------------------------------------------------ report */

static void print_rule(struct run *r, const struct wd_nft_claim *k)
{
	struct wd_nft_rule_info info;
	char fam[32], err[512], text[512];
	int ret;

	wd_nft_family_name(k->family, fam, sizeof(fam));
	if (k->policy) {
		printf("claim %s %s %s policy count %" PRIu64 "\n", fam, k->table, k->chain,
		       k->count);
		printf("text %s %s %s policy: %s\n", fam, k->table, k->chain,
		       wd_nft_policy_text(NF_DROP, k->chain, text, sizeof(text)));
		return;
	}
	printf("claim %s %s %s handle %" PRIu64 " count %" PRIu64 "\n", fam, k->table, k->chain,
	       k->handle, k->count);
	ret = wd_nft_rules_lookup(r->rules, k->family, k->table, k->handle, &info, err,
				  sizeof(err));
	if (ret <= 0) {
		printf("text %s %s %" PRIu64 " unavailable: %s\n", fam, k->table, k->handle, err);
		return;
	}
	printf("text %s %s %" PRIu64 ": %s\n", fam, k->table, k->handle, info.text);
	if (info.has_comment)
		printf("comment %s %s %" PRIu64 ": %s\n", fam, k->table, k->handle, info.comment);
}

static void report_ct(struct run *r)
{
	struct wd_ct_stats after;
	struct wd_ct_cause c;

	if (wd_ct_read(&r->ct, &after)) {
		printf("ctstat unavailable\n");
		return;
	}
	wd_ct_explain(&r->ct_before, &after, &c);
	printf("ctstat invalid %" PRIu64 " drop %" PRIu64 " insert_failed %" PRIu64
	       " early_drop %" PRIu64 " count %" PRIu64 " max %" PRIu64 " cpus %u\n",
	       c.invalid, c.drop, c.insert_failed, c.early_drop, c.count, c.max, after.cpus);
	printf("ctsays %s\n", c.text[0] ? c.text : "(nothing)");
}

static void report(struct run *r)
{
	struct wd_nftrace_stats s;
	struct rusage ru;
	char legacy[256];
	int n;

	wd_nftrace_stats(r->tr, &s);
	printf("traces messages %" PRIu64 " traces %" PRIu64 " other %" PRIu64 " bad %" PRIu64
	       " overruns %" PRIu64 " lost %" PRIu64 " rcvbuf %d\n", s.messages, s.traces, s.other,
	       s.bad, s.overruns, s.lost, s.rcvbuf);
	printf("claims marked %" PRIu64 " claimed %" PRIu64 " foreign %" PRIu64 " other %" PRIu64
	       "\n", r->claims->marked, r->claims->claimed, r->claims->foreign, r->claims->other);
	for (size_t i = 0; i < r->claims->n; i++)
		print_rule(r, &r->claims->v[i]);
	n = wd_nft_rules_legacy(r->rules, legacy, sizeof(legacy));
	printf("legacy %d%s%s\n", n, n > 0 ? " " : "", n > 0 ? legacy : "");
	report_ct(r);
	bpf_report(r);
	getrusage(RUSAGE_SELF, &ru);
	printf("cpu_us %ld\n",
	       (ru.ru_utime.tv_sec - r->ru0.ru_utime.tv_sec) * 1000000L +
	       (ru.ru_utime.tv_usec - r->ru0.ru_utime.tv_usec) +
	       (ru.ru_stime.tv_sec - r->ru0.ru_stime.tv_sec) * 1000000L +
	       (ru.ru_stime.tv_usec - r->ru0.ru_stime.tv_usec));
}

/* ------------------------------------------------------------ hold */

static void drain(struct run *r)
{
	struct wd_nftrace_event ev;

	while (wd_nftrace_next(r->tr, &ev) > 0)
		wd_nft_claims_add(r->claims, &ev, NULL);
}

static int signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return signalfd(-1, &set, SFD_CLOEXEC);
}

/* The report now, lookups with CAP_NET_ADMIN raised for them. */
static void snapshot(struct run *r)
{
	drain(r);
	if (r->o.drop_caps)
		set_caps(NET_ADMIN, NET_ADMIN);
	printf("snapshot\n");
	report(r);
	printf("end\n");
	if (r->o.drop_caps)
		set_caps(0, NET_ADMIN);
}

/* Read traces until SIGINT/SIGTERM; SIGUSR1 ends a pause, SIGUSR2 reports. */
static void loop(struct run *r)
{
	struct pollfd p[2] = { { .fd = r->sig_fd, .events = POLLIN },
			       { .fd = wd_nftrace_fd(r->tr), .events = POLLIN } };
	struct signalfd_siginfo si;
	bool paused = r->o.pause;

	for (;;) {
		if (poll(p, paused ? 1 : 2, -1) < 0 && errno != EINTR)
			return;
		if (p[0].revents & POLLIN) {
			if (read(r->sig_fd, &si, sizeof(si)) != sizeof(si))
				return;
			if (si.ssi_signo == SIGUSR1) {
				paused = false;
				continue;
			}
			if (si.ssi_signo == SIGUSR2) {
				snapshot(r);
				continue;
			}
			return;
		}
		if (!paused && (p[1].revents & POLLIN))
			drain(r);
	}
}

static int setup(struct run *r)
{
	struct wd_nft_trace_opts to = { .ifname = r->o.ifname, .no_owner = r->o.no_owner };
	struct wd_nft_cleanup c;
	char err[512];

	if (wd_nft_trace_cleanup(r->ns_fd, &c, err, sizeof(err)))
		goto fail;
	printf("cleanup removed %u alive %u unknown %u failed %u\n", c.removed, c.alive,
	       c.unknown, c.failed);
	if (wd_nft_trace_install(&r->table, r->ns_fd, &to, err, sizeof(err)))
		goto fail;
	r->tr = wd_nftrace_open(r->ns_fd, r->o.rcvbuf, err, sizeof(err));
	if (!r->tr)
		goto fail;
	r->rules = wd_nft_rules_open(r->ns_fd, err, sizeof(err));
	if (!r->rules || wd_ct_open(&r->ct, r->ns_fd, err, sizeof(err)))
		goto fail;
	wd_ct_read(&r->ct, &r->ct_before);
	r->claims = malloc(sizeof(*r->claims));
	if (!r->claims)
		return -1;
	wd_nft_claims_init(r->claims, r->table.name);
	return r->o.bpf ? bpf_open(r) : 0;
fail:
	fprintf(stderr, "nftrace_drive: %s\n", err);
	return -1;
}

/* What a lookup says with no capability in effect (nfnetlink wants CAP_NET_ADMIN). */
static void nocap_lookup(struct run *r)
{
	struct wd_nft_rule_info info;
	char err[512] = "";
	int ret;

	for (size_t i = 0; i < r->claims->n; i++) {
		if (r->claims->v[i].policy)
			continue;
		ret = wd_nft_rules_lookup(r->rules, r->claims->v[i].family, r->claims->v[i].table,
					  r->claims->v[i].handle, &info, err, sizeof(err));
		printf("nocap_lookup %d %s\n", ret, err);
		return;
	}
}

static int teardown(struct run *r)
{
	char err[512];
	int ret = 0;

	/* lookups and the explicit delete need CAP_NET_ADMIN in effect */
	if (r->o.drop_caps)
		nocap_lookup(r);
	if (r->o.drop_caps && set_caps(NET_ADMIN, NET_ADMIN))
		perror("nftrace_drive: capset");
	report(r);
	if (r->o.signal_safe) {
		wd_nft_trace_remove_signal_safe(&r->table);
	} else if (wd_nft_trace_remove(&r->table, err, sizeof(err))) {
		fprintf(stderr, "nftrace_drive: %s\n", err);
		ret = 1;
	}
	printf("removed %s owner %d\n", r->table.name, r->table.owner);
	return ret;
}

static int hold(struct run *r)
{
	int ret = 1;

	r->sig_fd = signals();
	r->ns_fd = open(r->o.netns, O_RDONLY | O_CLOEXEC);
	r->ct.stat_fd = r->ct.count_fd = r->ct.max_fd = -1;
	r->table.fd = -1;
	if (r->sig_fd < 0 || r->ns_fd < 0) {
		fprintf(stderr, "nftrace_drive: %s: %s\n", r->o.netns, strerror(errno));
		return 1;
	}
	if (setup(r))
		goto out;
	if (r->o.drop_caps && set_caps(0, NET_ADMIN)) {
		perror("nftrace_drive: capset");
		goto out;
	}
	getrusage(RUSAGE_SELF, &r->ru0);
	printf("ready %s owner %d\n", r->table.name, r->table.owner);
	fflush(stdout);
	loop(r);
	drain(r);
	ret = teardown(r);
out:
	wd_nft_trace_remove_signal_safe(&r->table);
	if (r->skel)
		nftrace_bpf__destroy(r->skel);
	wd_nftrace_close(r->tr);
	wd_nft_rules_close(r->rules);
	wd_ct_close(&r->ct);
	if (r->claims)
		wd_nft_claims_free(r->claims);
	free(r->claims);
	close(r->ns_fd);
	close(r->sig_fd);
	return ret;
}

/* ------------------------------------------------------------ traffic */

static int addr_of(const char *addr, int port, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *a4 = (void *)ss;
	struct sockaddr_in6 *a6 = (void *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		*len = sizeof(*a4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*a6);
		return AF_INET6;
	}
	return -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* CPU time of this process (softirq work done in its context included). */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int flood(const char *addr, int port, long count)
{
	uint64_t sent = 0, eperm = 0, other = 0, t0, t1, c0, c1;
	struct sockaddr_storage ss;
	char payload[16] = "whydrop-nftrace";
	socklen_t len;
	int fam = addr_of(addr, port, &ss, &len), fd;

	if (fam < 0 || count <= 0) {
		fprintf(stderr, "nftrace_drive flood: bad address or count\n");
		return 2;
	}
	fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 1;
	t0 = now_ns();
	c0 = cpu_ns();
	for (long i = 0; i < count; i++) {
		if (sendto(fd, payload, sizeof(payload), 0, (struct sockaddr *)&ss, len) >= 0)
			sent++;
		else if (errno == EPERM)
			eperm++;
		else
			other++;
	}
	c1 = cpu_ns();
	t1 = now_ns();
	close(fd);
	printf("sent %" PRIu64 " eperm %" PRIu64 " other %" PRIu64 " ns_per_packet %.0f"
	       " cpu_ns_per_packet %.0f\n", sent, eperm, other, (double)(t1 - t0) / (double)count,
	       (double)(c1 - c0) / (double)count);
	return 0;
}

static int sink(int port, bool v6)
{
	struct sockaddr_storage ss;
	uint64_t got = 0;
	char buf[2048];
	socklen_t len;
	int fd, sfd = signals(), size = 8 << 20;
	struct pollfd p[2];

	addr_of(v6 ? "::" : "0.0.0.0", port, &ss, &len);
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || sfd < 0 || bind(fd, (struct sockaddr *)&ss, len))
		return 1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	printf("ready\n");
	fflush(stdout);
	p[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = fd, .events = POLLIN };
	while (poll(p, 2, -1) >= 0 && !(p[0].revents & POLLIN))
		while (recv(fd, buf, sizeof(buf), 0) > 0)
			got++;
	while (recv(fd, buf, sizeof(buf), 0) > 0)
		got++;
	printf("received %" PRIu64 "\n", got);
	return 0;
}

/* ------------------------------------------------------------ main */

static int usage(void)
{
	fprintf(stderr, "usage: nftrace_drive hold NETNS [--ifname IF] [--no-owner] [--rcvbuf N] "
		"[--drop-caps] [--pause] [--bpf] [--signal-safe]\n"
		"       nftrace_drive cleanup NETNS\n"
		"       nftrace_drive flood ADDR PORT COUNT\n"
		"       nftrace_drive sink PORT [v6]\n");
	return 2;
}

static int parse_hold(int argc, char **argv, struct opts *o)
{
	o->netns = argv[2];
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--ifname") && i + 1 < argc)
			o->ifname = argv[++i];
		else if (!strcmp(argv[i], "--rcvbuf") && i + 1 < argc)
			o->rcvbuf = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--no-owner"))
			o->no_owner = true;
		else if (!strcmp(argv[i], "--drop-caps"))
			o->drop_caps = true;
		else if (!strcmp(argv[i], "--pause"))
			o->pause = true;
		else if (!strcmp(argv[i], "--bpf"))
			o->bpf = true;
		else if (!strcmp(argv[i], "--signal-safe"))
			o->signal_safe = true;
		else
			return -1;
	}
	return 0;
}

static int cleanup(const char *netns)
{
	struct wd_nft_cleanup c;
	char err[512];
	int fd = open(netns, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		perror(netns);
		return 1;
	}
	ret = wd_nft_trace_cleanup(fd, &c, err, sizeof(err));
	close(fd);
	if (ret) {
		fprintf(stderr, "nftrace_drive: %s\n", err);
		return 1;
	}
	printf("cleanup removed %u alive %u unknown %u failed %u last %s\n", c.removed, c.alive,
	       c.unknown, c.failed, c.last_removed[0] ? c.last_removed : "-");
	return 0;
}

int main(int argc, char **argv)
{
	static struct run r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "hold")) {
		if (parse_hold(argc, argv, &r.o))
			return usage();
		return hold(&r);
	}
	if (argc == 3 && !strcmp(argv[1], "cleanup"))
		return cleanup(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "flood"))
		return flood(argv[2], atoi(argv[3]), atol(argv[4]));
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "sink"))
		return sink(atoi(argv[2]), argc == 4);
	return usage();
}
