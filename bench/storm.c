// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * storm: a UDP drop storm for the whydrop benchmark.
 *
 * Sender threads (one pinned per CPU by default, -t to choose) blast small
 * datagrams at loopback with sendmmsg() for a fixed time.  Over loopback
 * the whole receive path runs in the sender's context (softirq on
 * local_bh_enable), so the drop rate is bounded by CPU, which is what a
 * tracer's overhead eats into.  Where the datagrams die:
 *
 *   -m rcvbuf  (default) one receiving socket per family, bound on loopback
 *              with the smallest receive buffer the kernel allows and never
 *              read: after the first few datagrams every one is dropped with
 *              SKB_DROP_REASON_SOCKET_RCVBUFF (udp_queue_rcv_one_skb,
 *              udpv6_queue_rcv_one_skb for IPv6);
 *   -m closed  no socket on the port: SKB_DROP_REASON_NO_SOCKET in
 *              __udp4_lib_rcv (__udp6_lib_rcv for IPv6).  The kernel answers
 *              with ICMP port unreachable, within its global ICMP rate limit;
 *              the senders are not connected, so no error comes back to them.
 *
 * With -A every sender alternates IPv4 (127.0.0.1, sent as ::ffff:127.0.0.1
 * from a dual-stack socket) and IPv6 (::1) datagram by datagram, in the same
 * sendmmsg() batch, so two consecutive drops on a CPU never look alike (L3
 * protocol and dropping function differ).
 *
 * Run it inside a network namespace you own (ip netns exec NS storm ...):
 * the drop count is read from that namespace, independently of any tracer:
 * rcvbuf from the drops column of our own sockets in /proc/net/udp and udp6
 * (found by inode); closed from NoPorts in /proc/net/snmp and Udp6NoPorts in
 * /proc/net/snmp6 (namespace-wide: run one closed storm per namespace).
 * storm_counters.c reads them.
 *
 * Output: key=value lines on stdout (drops, drops_per_s, cpu_ns_per_datagram...).
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_opts.h"
#include "storm_counters.h"

#define MAX_BATCH 1024
#define MAX_LEN 1472
#define MAX_THREADS 256
#define MAX_TARGETS 2

enum storm_mode {
	MODE_RCVBUF,
	MODE_CLOSED,
};

struct sender {
	pthread_t tid;
	int cpu;		/* -1: not pinned */
	int fd;
	uint64_t sent;
	uint64_t errors;
	double cpu_s;		/* on-CPU time of this thread while sending */
	int last_errno;
};

static atomic_bool stop_flag;
static double deadline;		/* CLOCK_MONOTONIC, s: when the senders stop */
static int opt_batch = 64;
static int opt_len = 16;
static bool opt_random;		/* -R: every datagram a new flow */
static int opt_port = 9;
static enum storm_mode opt_mode = MODE_RCVBUF;

/* Where the senders send; unconnected senders cycle through them. */
static struct sockaddr_storage targets[MAX_TARGETS];
static socklen_t target_len[MAX_TARGETS];
static int ntargets;
static bool connected;

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/*
 * Each sender watches the clock itself (one vDSO call per batch): on a
 * loaded machine a main thread woken to stop them can come seconds late.
 */
static bool sending(void)
{
	return !atomic_load_explicit(&stop_flag, memory_order_relaxed) && now_s() < deadline;
}

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_flag, true);
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-d SECONDS] [-t THREADS] [-m rcvbuf|closed] [-6 | -A] [-R]\n"
		"          [-p PORT] [-b BATCH] [-l LEN]\n"
		"UDP drop storm over loopback. Run inside a network namespace:\n"
		"  ip netns exec NS %s -d 5\n"
		"  -d SECONDS  how long to send (default 5, fractions allowed)\n"
		"  -t THREADS  sender threads, one pinned per CPU (default: CPUs we may run on)\n"
		"  -m MODE     rcvbuf: into a never-read socket with a tiny SO_RCVBUF\n"
		"              (SOCKET_RCVBUFF; default); closed: to a port with no socket\n"
		"              (NO_SOCKET; the namespace's NoPorts counters count them)\n"
		"  -p PORT     UDP port on loopback (default 9)\n"
		"  -b BATCH    datagrams per sendmmsg() call (default 64, max %d; even with -A)\n"
		"  -l LEN      UDP payload bytes (default 16, max %d)\n"
		"  -6          IPv6 (::1) instead of IPv4 (127.0.0.1)\n"
		"  -A          alternate IPv4 and IPv6 datagram by datagram in every sender\n"
		"  -R          random flows: every datagram from a random 127.0.0.0/8 source\n"
		"              address and port (raw IPv4 socket; IPv4 only)\n"
		"  -h          this help\n"
		"Prints key=value lines: sent, drops (the kernel's count), drops_per_s, ...\n",
		prog, prog, MAX_BATCH, MAX_LEN);
}

/* -R: IPv4 + UDP headers with a random source, built in place per datagram. */
struct raw_dgram {
	uint8_t b[28 + MAX_LEN];
};

static uint32_t xorshift(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void raw_fill(struct raw_dgram *d, uint32_t *seed)
{
	uint32_t r = xorshift(seed);
	uint16_t tot = (uint16_t)(28 + opt_len);

	memset(d->b, 0, 28);
	d->b[0] = 0x45;
	d->b[2] = tot >> 8;
	d->b[3] = tot & 0xff;
	d->b[8] = 64;
	d->b[9] = IPPROTO_UDP;
	d->b[12] = 127;			/* the kernel fills id and checksum */
	d->b[13] = r >> 24 | 1;
	d->b[14] = r >> 16;
	d->b[15] = (r >> 8) | 1;
	d->b[16] = 127;
	d->b[19] = 1;
	d->b[20] = r >> 8 | 0x80;	/* source port, >= 32768 */
	d->b[21] = r;
	d->b[22] = opt_port >> 8;
	d->b[23] = opt_port & 0xff;
	d->b[24] = (8 + opt_len) >> 8;
	d->b[25] = (8 + opt_len) & 0xff;	/* UDP checksum 0: none, allowed on IPv4 */
}

static void *raw_sender(struct sender *s, struct mmsghdr *msgs)
{
	static __thread struct raw_dgram d[MAX_BATCH];
	static __thread struct iovec iov[MAX_BATCH];
	struct sockaddr_in dst = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	uint32_t seed = 0x9e3779b9u ^ (uint32_t)s->cpu ^ (uint32_t)(uintptr_t)s;
	int i;

	for (i = 0; i < opt_batch; i++) {
		iov[i].iov_base = d[i].b;
		iov[i].iov_len = 28 + opt_len;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_name = &dst;
		msgs[i].msg_hdr.msg_namelen = sizeof(dst);
	}
	while (sending()) {
		int n;

		for (i = 0; i < opt_batch; i++)
			raw_fill(&d[i], &seed);
		n = sendmmsg(s->fd, msgs, opt_batch, 0);
		if (n < 0) {
			s->errors++;
			s->last_errno = errno;
			if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
				break;
			continue;
		}
		s->sent += n;
	}
	return NULL;
}

static void *sender_main(void *arg)
{
	static char payload[MAX_LEN];
	struct sender *s = arg;
	struct mmsghdr msgs[MAX_BATCH];
	struct iovec iov = { .iov_base = payload, .iov_len = opt_len };
	double cpu0;
	int i;

	if (s->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(s->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < opt_batch; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
		if (!connected) {
			/* -A: IPv4, IPv6, IPv4, ... (the batch is even) */
			msgs[i].msg_hdr.msg_name = &targets[i % ntargets];
			msgs[i].msg_hdr.msg_namelen = target_len[i % ntargets];
		}
	}
	cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	if (opt_random) {
		raw_sender(s, msgs);
		s->cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		return NULL;
	}
	while (sending()) {
		int n = sendmmsg(s->fd, msgs, opt_batch, 0);

		if (n < 0) {
			s->errors++;
			s->last_errno = errno;
			if (errno != ENOBUFS && errno != EAGAIN &&
			    errno != EINTR && errno != ECONNREFUSED)
				break;
			continue;
		}
		s->sent += n;
	}
	s->cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return NULL;
}

static socklen_t loopback(struct sockaddr_storage *ss, bool v6, bool v4mapped)
{
	memset(ss, 0, sizeof(*ss));
	if (v6 || v4mapped) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(opt_port);
		if (v4mapped)
			inet_pton(AF_INET6, "::ffff:127.0.0.1", &a->sin6_addr);
		else
			a->sin6_addr = in6addr_loopback;
		return sizeof(*a);
	}
	{
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(opt_port);
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return sizeof(*a);
	}
}

/* A receiving socket of -m rcvbuf: smallest buffer the kernel allows. */
static int receiver_open(struct receiver *r, bool v6, int *rcvbuf)
{
	struct sockaddr_storage ss;
	socklen_t sslen = loopback(&ss, v6, false);
	socklen_t len = sizeof(*rcvbuf);
	int zero = 0, one = 1;
	struct stat st;

	r->v6 = v6;
	r->fd = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (r->fd < 0) {
		perror("storm: socket");
		return -1;
	}
	if (v6 && setsockopt(r->fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)))
		perror("storm: IPV6_V6ONLY");
	if (setsockopt(r->fd, SOL_SOCKET, SO_RCVBUF, &zero, sizeof(zero)))
		perror("storm: SO_RCVBUF");
	if (bind(r->fd, (struct sockaddr *)&ss, sslen)) {
		fprintf(stderr, "storm: bind to %s port %d: %s (is loopback up in this namespace?)\n",
			v6 ? "::1" : "127.0.0.1", opt_port, strerror(errno));
		return -1;
	}
	if (fstat(r->fd, &st)) {
		perror("storm: fstat");
		return -1;
	}
	r->ino = st.st_ino;
	getsockopt(r->fd, SOL_SOCKET, SO_RCVBUF, rcvbuf, &len);
	return 0;
}

static int sender_open(bool v6, bool alternate)
{
	int fd, err, off = 0;

	if (opt_random)
		return socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	fd = socket(v6 || alternate ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	if (alternate && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)))
		goto fail;
	if (connected && connect(fd, (struct sockaddr *)&targets[0], target_len[0]))
		goto fail;
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static void print_delta(const char *key, long long d4, long long d6, bool fam4, bool fam6)
{
	if ((fam4 && d4 < 0) || (fam6 && d6 < 0))
		return;
	printf("%s=%lld\n", key, (fam4 ? d4 : 0) + (fam6 ? d6 : 0));
}

int main(int argc, char **argv)
{
	struct sender senders[MAX_THREADS];
	struct receiver receivers[2];
	struct counters c0, c1;
	int cpus[MAX_THREADS], ncpus = 0, nrecv = 0;
	double duration = 5.0, t0, t1;
	int nthreads = 0, i, c, ret = 1;
	long long drops, fam_drops[2];
	bool v6 = false, alternate = false, fam[2];
	uint64_t sent = 0, errors = 0;
	double cpu = 0;
	struct sigaction sa;
	cpu_set_t set;
	int rcvbuf = 0;
	const char *mode = "rcvbuf";
	const struct bench_opt opts[] = {
		{ 'd', BENCH_DOUBLE, &duration },
		{ 't', BENCH_INT, &nthreads },
		{ 'm', BENCH_STR, &mode },
		{ 'p', BENCH_INT, &opt_port },
		{ 'b', BENCH_INT, &opt_batch },
		{ 'l', BENCH_INT, &opt_len },
		{ '6', BENCH_FLAG, &v6 },
		{ 'A', BENCH_FLAG, &alternate },
		{ 'R', BENCH_FLAG, &opt_random },
	};

	c = bench_getopt(argc, argv, "d:t:m:p:b:l:6ARh", opts, BENCH_NOPTS(opts), usage);
	if (c >= 0)
		return c;
	if (!strcmp(mode, "closed")) {
		opt_mode = MODE_CLOSED;
	} else if (strcmp(mode, "rcvbuf")) {
		fprintf(stderr, "storm: bad mode '%s': rcvbuf or closed\n", mode);
		return 2;
	}
	if (duration <= 0 || duration > 3600 || opt_port <= 0 || opt_port > 65535 ||
	    opt_batch < 1 || opt_batch > MAX_BATCH || opt_len < 0 ||
	    opt_len > MAX_LEN || nthreads < 0 || nthreads > MAX_THREADS ||
	    (opt_random && (v6 || alternate)) || (v6 && alternate) ||
	    (alternate && opt_batch % 2)) {
		fprintf(stderr, "storm: bad argument (see -h)\n");
		return 2;
	}
	fam[0] = !v6 || alternate;
	fam[1] = v6 || alternate;

	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (i = 0; i < CPU_SETSIZE && ncpus < MAX_THREADS; i++)
			if (CPU_ISSET(i, &set))
				cpus[ncpus++] = i;
	}
	if (!nthreads)
		nthreads = ncpus ? ncpus : 1;

	if (alternate) {
		target_len[0] = loopback(&targets[0], false, true);
		target_len[1] = loopback(&targets[1], true, false);
		ntargets = 2;
	} else {
		target_len[0] = loopback(&targets[0], v6, false);
		ntargets = 1;
	}
	/*
	 * A connected socket skips the route lookup per datagram, but it
	 * would take the ICMP errors of a closed port back as ECONNREFUSED.
	 */
	connected = opt_mode == MODE_RCVBUF && !alternate && !opt_random;

	/* Receivers (rcvbuf): never read. */
	for (i = 0; i < 2; i++) {
		if (opt_mode != MODE_RCVBUF || !fam[i])
			continue;
		if (receiver_open(&receivers[nrecv++], i, &rcvbuf))
			goto close_receivers;
	}

	for (i = 0; i < nthreads; i++) {
		senders[i] = (struct sender){ .cpu = ncpus ? cpus[i % ncpus] : -1 };
		senders[i].fd = sender_open(v6, alternate);
		if (senders[i].fd < 0) {
			perror("storm: sender socket");
			nthreads = i;
			goto close_senders;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	read_counters(&c0, receivers, nrecv);
	for (i = 0; i < 2; i++) {
		long long v = opt_mode == MODE_CLOSED ? c0.noports[i] : c0.sock[i];

		if (fam[i] && v < 0) {
			if (opt_mode == MODE_CLOSED)
				fprintf(stderr, "storm: no %s in /proc/net/snmp%s\n",
					i ? "Udp6NoPorts" : "Udp NoPorts", i ? "6" : "");
			else
				fprintf(stderr, "storm: own socket not in /proc/net/udp%s\n",
					i ? "6" : "");
			goto close_senders;
		}
	}

	t0 = now_s();
	deadline = t0 + duration;
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&senders[i].tid, NULL, sender_main, &senders[i])) {
			fprintf(stderr, "storm: pthread_create failed\n");
			atomic_store(&stop_flag, true);
			nthreads = i;
			break;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(senders[i].tid, NULL);
	t1 = now_s();
	settle_counters(&c1, &c0, receivers, nrecv, opt_mode == MODE_CLOSED);

	for (i = 0; i < nthreads; i++) {
		sent += senders[i].sent;
		errors += senders[i].errors;
		cpu += senders[i].cpu_s;
	}
	drops = 0;
	for (i = 0; i < 2; i++) {
		fam_drops[i] = fam[i] ? family_drops(&c0, &c1, i, opt_mode == MODE_CLOSED) : 0;
		drops += fam_drops[i];
	}
	printf("mode=%s\n", opt_mode == MODE_CLOSED ? "closed" : "rcvbuf");
	printf("family=%s\n", alternate ? "ipv4+ipv6" : v6 ? "ipv6" : "ipv4");
	printf("alternate=%d\n", alternate);
	printf("counter=%s\n", opt_mode == MODE_CLOSED ? "snmp_noports" : "socket_drops");
	printf("threads=%d\n", nthreads);
	printf("batch=%d\n", opt_batch);
	printf("payload_bytes=%d\n", opt_len);
	if (opt_mode == MODE_RCVBUF) {
		printf("rcvbuf=%d\n", rcvbuf);
		printf("socket_inode=%lu\n", receivers[0].ino);
	}
	printf("duration_s=%.3f\n", t1 - t0);
	printf("sent=%llu\n", (unsigned long long)sent);
	printf("send_errors=%llu\n", (unsigned long long)errors);
	for (i = 0; i < nthreads; i++)
		if (senders[i].errors)
			printf("send_errno_%d=%s\n", i, strerror(senders[i].last_errno));
	printf("drops=%lld\n", drops);
	if (fam[0])
		printf("drops_ipv4=%lld\n", fam_drops[0]);
	if (fam[1])
		printf("drops_ipv6=%lld\n", fam_drops[1]);
	printf("drops_per_s=%.0f\n", drops / (t1 - t0));
	printf("sent_per_s=%.0f\n", sent / (t1 - t0));
	/*
	 * On-CPU time of the sender threads: without IRQ time accounting the
	 * receive softirq that runs in their context (and the tracers' BPF
	 * programs in it) is charged to them, so this is the CPU cost of one
	 * datagram end to end, unaffected by other load taking CPUs away.
	 */
	printf("sender_cpu_s=%.3f\n", cpu);
	printf("cpu_util=%.2f\n", cpu / (t1 - t0));
	if (sent)
		printf("cpu_ns_per_datagram=%.1f\n", cpu * 1e9 / sent);
	print_delta("snmp_rcvbuf_errors", counter_delta(c0.rcvbuf[0], c1.rcvbuf[0]),
		    counter_delta(c0.rcvbuf[1], c1.rcvbuf[1]), fam[0], fam[1]);
	print_delta("snmp_noports", counter_delta(c0.noports[0], c1.noports[0]),
		    counter_delta(c0.noports[1], c1.noports[1]), fam[0], fam[1]);
	ret = 0;

close_senders:
	for (i = 0; i < nthreads; i++)
		close(senders[i].fd);
close_receivers:
	for (i = 0; i < nrecv; i++)
		if (receivers[i].fd >= 0)
			close(receivers[i].fd);
	return ret;
}
