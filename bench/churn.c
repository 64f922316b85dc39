// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Short-lived sockets that take drops, for bench/memory.sh: each of -P
 * processes opens a batch of UDP sockets with the smallest receive buffer
 * on 127.0.0.1, sends each 4 datagrams of 1000 bytes (most are dropped:
 * SOCKET_RCVBUFF, by socket), closes the batch and goes on, -r sockets a
 * second in all. Every -k batches a process moves to a new network
 * namespace and, with -c DIR, to a new cgroup below DIR (the old one
 * removed): namespaces and cgroups come and go as sockets do. With -m HEX
 * each datagram starts with that 32-bit mark (a filter can tell them).
 *
 *   churn -n SOCKETS [-P PROCS] [-b BATCH] [-r PER_SECOND] [-k BATCHES] [-c DIR] [-m HEX]
 *
 * Prints "sockets=N drops=D seconds=S" when done: D the datagrams its
 * namespaces' own counters (Udp RcvbufErrors) saw dropped for want of
 * room. Needs root (unshare, cgroups).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_opts.h"

struct args {
	long n, batch, rate, every;
	int procs;
	const char *cgdir;
	uint32_t mark;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The current namespace's Udp RcvbufErrors; 0 if unreadable. */
static long rcvbuf_errors(void)
{
	char line[512];
	long v = 0;
	FILE *f = fopen("/proc/self/net/snmp", "r");
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))	/* the second "Udp:" line holds the values */
		if (!strncmp(line, "Udp:", 4) && ++n == 2)
			sscanf(line, "Udp: %*d %*d %*d %*d %ld", &v);
	fclose(f);
	return v;
}

/* A new network namespace with lo up; 0 or -1. */
static int new_netns(void)
{
	struct ifreq ifr = { 0 };
	int fd, err;

	if (unshare(CLONE_NEWNET))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	err = ioctl(fd, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	if (!err)
		err = ioctl(fd, SIOCSIFFLAGS, &ifr);
	close(fd);
	return err ? -1 : 0;
}

/* Into DIR/pPROC-GEN, the cgroup of generation GEN - 1 removed once empty of us. */
static int new_cgroup(const char *dir, int proc, long gen)
{
	char path[512], pid[32];
	int fd, len;
	ssize_t w;

	snprintf(path, sizeof(path), "%s/p%d-%ld", dir, proc, gen);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/p%d-%ld/cgroup.procs", dir, proc, gen);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	w = write(fd, pid, (size_t)len);
	close(fd);
	if (w != len)
		return -1;
	if (gen) {
		snprintf(path, sizeof(path), "%s/p%d-%ld", dir, proc, gen - 1);
		rmdir(path);
	}
	return 0;
}

/* One batch of sockets, each sent 4 datagrams, then closed; how many were made. */
static long batch(long n, int *fds, uint32_t mark)
{
	char data[1000] = { 0 };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), one = 1;
	long made = 0;

	if (tx < 0)
		return 0;
	mark = htonl(mark);
	memcpy(data, &mark, sizeof(mark));
	for (long i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			break;
		a.sin_port = 0;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one));
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
		    getsockname(fd, (struct sockaddr *)&a, &len)) {
			close(fd);
			break;
		}
		for (int k = 0; k < 4; k++)
			sendto(tx, data, sizeof(data), 0, (struct sockaddr *)&a, sizeof(a));
		fds[made++] = fd;
	}
	for (long i = 0; i < made; i++)
		close(fds[i]);
	close(tx);
	return made;
}

static int run(const struct args *ar, int proc, long *drops)
{
	long mine = ar->n / ar->procs + (proc < ar->n % ar->procs), done = 0, gen = 0, b = 0;
	double per_s = (double)ar->rate / ar->procs, t0 = now_s();
	int *fds = malloc((size_t)ar->batch * sizeof(*fds));

	if (!fds)
		return 1;
	while (done < mine) {
		double due;

		if (b++ % ar->every == 0) {
			if (gen)	/* the namespace left: its count */
				*drops += rcvbuf_errors();
			if (new_netns() || (ar->cgdir && new_cgroup(ar->cgdir, proc, gen))) {
				perror("churn: a new namespace or cgroup");
				return 1;
			}
			gen++;
		}
		done += batch(ar->batch < mine - done ? ar->batch : mine - done, fds, ar->mark);
		due = t0 + done / per_s;
		while (now_s() < due)
			usleep(1000);
	}
	free(fds);
	*drops += rcvbuf_errors();
	return 0;
}

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fprintf(f, "usage: churn -n SOCKETS [-P PROCS] [-b BATCH] [-r PER_SECOND] "
		   "[-k BATCHES] [-c CGROUP_DIR] [-m HEX]\n");
}

int main(int argc, char **argv)
{
	struct args ar = { .n = 10000, .batch = 200, .rate = 2000, .every = 10, .procs = 2 };
	double t0 = now_s();
	const char *mark = NULL;
	const struct bench_opt opts[] = {
		{ 'n', BENCH_LONG, &ar.n },
		{ 'P', BENCH_INT, &ar.procs },
		{ 'b', BENCH_LONG, &ar.batch },
		{ 'r', BENCH_LONG, &ar.rate },
		{ 'k', BENCH_LONG, &ar.every },
		{ 'c', BENCH_STR, &ar.cgdir },
		{ 'm', BENCH_STR, &mark },
	};
	int bad = bench_getopt(argc, argv, "n:P:b:r:k:c:m:", opts, BENCH_NOPTS(opts), usage);
	long *drops, sum = 0;

	if (bad >= 0)
		return bad;
	if (ar.n < 0 || ar.procs < 1 || ar.batch < 1 || ar.rate < 1 || ar.every < 1) {
		usage(stderr, argv[0]);
		return 2;
	}
	if (mark)
		ar.mark = (uint32_t)strtoul(mark, NULL, 16);
	bad = 0;
	/* each process's count, seen by the parent */
	drops = mmap(NULL, (size_t)ar.procs * sizeof(*drops), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (drops == MAP_FAILED)
		return 1;
	for (int p = 0; p < ar.procs; p++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid)
			_exit(run(&ar, p, &drops[p]));
	}
	for (int p = 0; p < ar.procs; p++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	for (int p = 0; p < ar.procs; p++)
		sum += drops[p];
	printf("sockets=%ld drops=%ld seconds=%.1f\n", ar.n, sum, now_s() - t0);
	return bad;
}
