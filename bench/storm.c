// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * storm: a UDP drop storm for the whydrop benchmark.
 *
 * One receiving socket with the smallest receive buffer the kernel allows
 * is bound on loopback and never read, so after the first few datagrams
 * every datagram is dropped with SKB_DROP_REASON_SOCKET_RCVBUFF.  One
 * sender thread per CPU (pinned) blasts small datagrams at it with
 * sendmmsg() for a fixed time.  Over loopback the whole receive path runs
 * in the sender's context (softirq on local_bh_enable), so the drop rate
 * is bounded by CPU, which is what a tracer's overhead eats into.
 *
 * Run it inside a network namespace you own (ip netns exec NS storm ...):
 * the drop count is read from that namespace's /proc/net/udp[6] (the drops
 * column of our own socket, found by inode) and from /proc/net/snmp[6]
 * (RcvbufErrors), independently of any tracer.
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

#define MAX_BATCH 1024
#define MAX_LEN 1472
#define MAX_THREADS 256

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
static int opt_batch = 64;
static int opt_len = 16;
static bool opt_random;		/* -R: every datagram a new flow */
static int opt_port = 9;

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

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_flag, true);
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-d SECONDS] [-t THREADS] [-p PORT] [-b BATCH] [-l LEN] [-6]\n"
		"UDP drop storm into a never-read socket with a tiny SO_RCVBUF.\n"
		"Run inside a network namespace: ip netns exec NS %s -d 5\n"
		"  -d SECONDS  how long to send (default 5, fractions allowed)\n"
		"  -t THREADS  sender threads, one pinned per CPU (default: CPUs we may run on)\n"
		"  -p PORT     receiving UDP port on loopback (default 9)\n"
		"  -b BATCH    datagrams per sendmmsg() call (default 64, max %d)\n"
		"  -l LEN      UDP payload bytes (default 16, max %d)\n"
		"  -6          IPv6 (::1) instead of IPv4 (127.0.0.1)\n"
		"  -R          random flows: every datagram from a random 127.0.0.0/8 source\n"
		"              address and port (raw IPv4 socket; IPv4 only)\n"
		"  -h          this help\n"
		"Prints key=value lines: sent, drops (from /proc/net/udp), drops_per_s, ...\n",
		prog, prog, MAX_BATCH, MAX_LEN);
}

/*
 * Drops column of the socket with inode @ino in /proc/net/udp or udp6.
 * Returns -1 if the socket is not found.
 */
static long long socket_drops(bool v6, unsigned long ino)
{
	const char *path = v6 ? "/proc/net/udp6" : "/proc/net/udp";
	char line[512];
	long long drops = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))	/* header */
		goto out;
	while (fgets(line, sizeof(line), f)) {
		char *tok[16], *save = NULL, *p = line;
		int n = 0;

		while (n < 16 && (tok[n] = strtok_r(p, " \t\n", &save))) {
			p = NULL;
			n++;
		}
		/* sl local rem st tx:rx tr:when retr uid timeout inode ref ptr drops */
		if (n < 13)
			continue;
		if (strtoul(tok[9], NULL, 10) != ino)
			continue;
		drops = strtoll(tok[12], NULL, 10);
		break;
	}
out:
	fclose(f);
	return drops;
}

/* Udp RcvbufErrors from /proc/net/snmp (v4) or Udp6RcvbufErrors (snmp6). */
static long long snmp_rcvbuf_errors(bool v6)
{
	char hdr[2048], val[2048];
	long long ret = -1;
	FILE *f;

	if (v6) {
		f = fopen("/proc/net/snmp6", "r");
		if (!f)
			return -1;
		while (fgets(hdr, sizeof(hdr), f)) {
			char name[128];
			long long v;

			if (sscanf(hdr, "%127s %lld", name, &v) == 2 &&
			    !strcmp(name, "Udp6RcvbufErrors")) {
				ret = v;
				break;
			}
		}
		fclose(f);
		return ret;
	}

	f = fopen("/proc/net/snmp", "r");
	if (!f)
		return -1;
	while (fgets(hdr, sizeof(hdr), f)) {
		char *hs = NULL, *vs = NULL, *h, *v;

		if (strncmp(hdr, "Udp: ", 5))
			continue;
		if (!fgets(val, sizeof(val), f))
			break;
		h = strtok_r(hdr, " \n", &hs);
		v = strtok_r(val, " \n", &vs);
		while (h && v) {
			if (!strcmp(h, "RcvbufErrors")) {
				ret = strtoll(v, NULL, 10);
				break;
			}
			h = strtok_r(NULL, " \n", &hs);
			v = strtok_r(NULL, " \n", &vs);
		}
		break;
	}
	fclose(f);
	return ret;
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
	while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
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
	}
	cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	if (opt_random) {
		raw_sender(s, msgs);
		s->cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		return NULL;
	}
	while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
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

int main(int argc, char **argv)
{
	struct sender senders[MAX_THREADS];
	int cpus[MAX_THREADS], ncpus = 0;
	double duration = 5.0, t0, t1;
	int nthreads = 0, port = 9, rfd = -1, i, c, ret = 1;
	long long drops0, drops1, snmp0, snmp1;
	uint64_t sent = 0, errors = 0;
	double cpu = 0;
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct sigaction sa;
	bool v6 = false;
	struct stat st;
	cpu_set_t set;
	int rcvbuf = 0;

	while ((c = getopt(argc, argv, "d:t:p:b:l:6Rh")) != -1) {
		switch (c) {
		case 'd':
			duration = atof(optarg);
			break;
		case 't':
			nthreads = atoi(optarg);
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'b':
			opt_batch = atoi(optarg);
			break;
		case 'l':
			opt_len = atoi(optarg);
			break;
		case '6':
			v6 = true;
			break;
		case 'R':
			opt_random = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (duration <= 0 || duration > 3600 || port <= 0 || port > 65535 ||
	    opt_batch < 1 || opt_batch > MAX_BATCH || opt_len < 0 ||
	    opt_len > MAX_LEN || nthreads < 0 || nthreads > MAX_THREADS ||
	    (opt_random && v6)) {
		fprintf(stderr, "storm: bad argument (see -h)\n");
		return 2;
	}
	opt_port = port;

	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (i = 0; i < CPU_SETSIZE && ncpus < MAX_THREADS; i++)
			if (CPU_ISSET(i, &set))
				cpus[ncpus++] = i;
	}
	if (!nthreads)
		nthreads = ncpus ? ncpus : 1;

	memset(&ss, 0, sizeof(ss));
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		a->sin6_addr = in6addr_loopback;
		sslen = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sslen = sizeof(*a);
	}

	/* Receiver: smallest buffer the kernel allows, never read. */
	rfd = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (rfd < 0) {
		perror("storm: socket");
		return 1;
	}
	if (setsockopt(rfd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		perror("storm: SO_RCVBUF");
	if (bind(rfd, (struct sockaddr *)&ss, sslen)) {
		fprintf(stderr, "storm: bind to port %d: %s (is loopback up in this namespace?)\n",
			port, strerror(errno));
		goto out;
	}
	if (fstat(rfd, &st)) {
		perror("storm: fstat");
		goto out;
	}
	{
		socklen_t len = sizeof(rcvbuf);

		getsockopt(rfd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &len);
	}

	for (i = 0; i < nthreads; i++) {
		senders[i] = (struct sender){ .cpu = ncpus ? cpus[i % ncpus] : -1 };
		senders[i].fd = opt_random ? socket(AF_INET, SOCK_RAW, IPPROTO_RAW)
					   : socket(ss.ss_family, SOCK_DGRAM, 0);
		if (senders[i].fd < 0 ||
		    (!opt_random && connect(senders[i].fd, (struct sockaddr *)&ss, sslen))) {
			perror("storm: sender socket");
			nthreads = i + (senders[i].fd >= 0);
			goto close_senders;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	drops0 = socket_drops(v6, st.st_ino);
	snmp0 = snmp_rcvbuf_errors(v6);
	if (drops0 < 0) {
		fprintf(stderr, "storm: own socket (inode %lu) not in /proc/net/udp%s\n",
			(unsigned long)st.st_ino, v6 ? "6" : "");
		goto close_senders;
	}

	t0 = now_s();
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&senders[i].tid, NULL, sender_main, &senders[i])) {
			fprintf(stderr, "storm: pthread_create failed\n");
			atomic_store(&stop_flag, true);
			nthreads = i;
			break;
		}
	}
	while (!atomic_load(&stop_flag)) {
		double left = duration - (now_s() - t0);
		struct timespec ts;

		if (left <= 0)
			break;
		if (left > 0.05)
			left = 0.05;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	atomic_store(&stop_flag, true);
	for (i = 0; i < nthreads; i++)
		pthread_join(senders[i].tid, NULL);
	t1 = now_s();

	/*
	 * Over loopback every datagram was received (and dropped) in its
	 * sender's context before sendmmsg() returned: nothing is in flight.
	 */
	drops1 = socket_drops(v6, st.st_ino);
	snmp1 = snmp_rcvbuf_errors(v6);

	for (i = 0; i < nthreads; i++) {
		sent += senders[i].sent;
		errors += senders[i].errors;
		cpu += senders[i].cpu_s;
	}
	printf("family=%s\n", v6 ? "ipv6" : "ipv4");
	printf("threads=%d\n", nthreads);
	printf("batch=%d\n", opt_batch);
	printf("payload_bytes=%d\n", opt_len);
	printf("rcvbuf=%d\n", rcvbuf);
	printf("socket_inode=%lu\n", (unsigned long)st.st_ino);
	printf("duration_s=%.3f\n", t1 - t0);
	printf("sent=%llu\n", (unsigned long long)sent);
	printf("send_errors=%llu\n", (unsigned long long)errors);
	for (i = 0; i < nthreads; i++)
		if (senders[i].errors)
			printf("send_errno_%d=%s\n", i, strerror(senders[i].last_errno));
	printf("drops=%lld\n", drops1 - drops0);
	printf("drops_per_s=%.0f\n", (drops1 - drops0) / (t1 - t0));
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
	if (snmp0 >= 0 && snmp1 >= 0)
		printf("snmp_rcvbuf_errors=%lld\n", snmp1 - snmp0);
	ret = 0;

close_senders:
	for (i = 0; i < nthreads; i++)
		if (senders[i].fd >= 0)
			close(senders[i].fd);
out:
	close(rfd);
	return ret;
}
