// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * startup: time from exec of a command until a line containing a marker
 * (default "attached") appears on its stderr; then SIGINT it and wait.
 *
 *   startup [-n RUNS] [-c INSTANCES] [-m MARKER] [-t TIMEOUT_S] -- CMD [ARGS...]
 *
 * One instance at a time (default): prints one key=value line per run
 * (run_N_ms=...) and the median (median_ms=...), min_ms, max_ms, failures.
 * The clock starts in the child right before execvp(); it is written to a
 * pipe so the parent measures exactly exec -> marker (fork cost excluded).
 *
 * With -c N, each run starts N instances at once and waits until all of them
 * have printed the marker: wall time from just before the first fork to the
 * last marker (run_N_wall_ms=..., then wall_median_ms, wall_min_ms,
 * wall_max_ms) and, over all instances of all runs, exec -> marker
 * (instance_median_ms, instance_max_ms).  A run where an instance fails
 * counts as a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_opts.h"

#define MAX_RUNS 100
#define MAX_INSTANCES 64

struct child {
	pid_t pid;
	int errfd;		/* read end of its stderr, -1 once closed */
	double start;		/* its clock just before execvp(), -1 unknown */
	double found;		/* when the marker line arrived, -1 not yet */
	char line[4096];
	size_t linelen;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Fork and exec @cmd with its stderr on a pipe; 0 on success. */
static int spawn(struct child *c, char **cmd)
{
	int errp[2], tp[2];

	c->pid = -1;
	c->errfd = -1;
	c->start = -1;
	c->found = -1;
	c->linelen = 0;
	if (pipe2(errp, O_CLOEXEC)) {
		perror("startup: pipe");
		return -1;
	}
	if (pipe2(tp, O_CLOEXEC)) {
		perror("startup: pipe");
		close(errp[0]);
		close(errp[1]);
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		perror("startup: fork");
		close(errp[0]);
		close(errp[1]);
		close(tp[0]);
		close(tp[1]);
		return -1;
	}
	if (c->pid == 0) {
		int devnull = open("/dev/null", O_RDWR);
		double t;

		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		t = now_ms();
		if (write(tp[1], &t, sizeof(t)) != sizeof(t))
			_exit(127);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	close(errp[1]);
	close(tp[1]);
	if (read(tp[0], &c->start, sizeof(c->start)) != sizeof(c->start))
		c->start = -1;
	close(tp[0]);
	c->errfd = errp[0];
	return 0;
}

/*
 * Read what a child wrote on stderr; lines other than the marker are
 * passed on. Returns false when its stderr is closed (it exited).
 */
static bool read_child(struct child *c, const char *marker, int run, int inst)
{
	char buf[8192];
	ssize_t n, i;

	n = read(c->errfd, buf, sizeof(buf));
	if (n < 0 && errno == EINTR)
		return true;
	if (n <= 0)
		return false;
	for (i = 0; i < n && c->found < 0; i++) {
		if (buf[i] != '\n') {
			if (c->linelen < sizeof(c->line) - 1)
				c->line[c->linelen++] = buf[i];
			continue;
		}
		c->line[c->linelen] = '\0';
		if (strstr(c->line, marker)) {
			c->found = now_ms();
			break;
		}
		fprintf(stderr, "startup: run %d.%d: %s\n", run, inst, c->line);
		c->linelen = 0;
	}
	return true;
}

/* Wait until every child printed the marker, exited, or the deadline passed. */
static void wait_markers(struct child *v, int n, const char *marker, double timeout_ms,
			 int run)
{
	double deadline = now_ms() + timeout_ms;

	for (;;) {
		struct pollfd pfd[MAX_INSTANCES];
		int idx[MAX_INSTANCES], m = 0, i, pr;
		double left = deadline - now_ms();

		for (i = 0; i < n; i++) {
			if (v[i].found >= 0 || v[i].errfd < 0)
				continue;
			pfd[m] = (struct pollfd){ .fd = v[i].errfd, .events = POLLIN };
			idx[m++] = i;
		}
		if (!m || left <= 0)
			return;
		pr = poll(pfd, m, (int)left + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return;
		for (i = 0; i < m; i++) {
			struct child *c = &v[idx[i]];

			if (!pfd[i].revents)
				continue;
			if (!read_child(c, marker, run, idx[i])) {
				close(c->errfd);
				c->errfd = -1;
			}
		}
	}
}

/* SIGINT every child, drain its stderr so it never blocks exiting, reap it. */
static void stop_children(struct child *v, int n, int run)
{
	char buf[8192];
	int i, status;

	for (i = 0; i < n; i++)
		if (v[i].pid > 0)
			kill(v[i].pid, SIGINT);
	for (i = 0; i < n; i++) {
		struct child *c = &v[i];

		if (c->pid <= 0)
			continue;
		while (c->errfd >= 0) {
			struct pollfd pfd = { .fd = c->errfd, .events = POLLIN };

			if (poll(&pfd, 1, 5000) <= 0 || read(c->errfd, buf, sizeof(buf)) <= 0) {
				close(c->errfd);
				c->errfd = -1;
			}
		}
		if (waitpid(c->pid, &status, WNOHANG) == 0) {
			usleep(200 * 1000);
			if (waitpid(c->pid, &status, WNOHANG) == 0) {
				fprintf(stderr, "startup: run %d.%d: still running after SIGINT, killing\n",
					run, i);
				kill(c->pid, SIGKILL);
				waitpid(c->pid, &status, 0);
			}
		}
	}
}

/*
 * One run of @n instances at once. Fills @inst_ms with each instance's
 * exec -> marker time; returns the wall time from before the first fork to
 * the last marker, or -1 if any instance failed.
 */
static double one_run(char **cmd, int n, const char *marker, double timeout_ms, int run,
		      double *inst_ms)
{
	struct child v[MAX_INSTANCES];
	double t0, last = -1;
	bool ok = true;
	int i;

	t0 = now_ms();
	for (i = 0; i < n; i++) {
		if (spawn(&v[i], cmd)) {
			n = i;
			ok = false;
			break;
		}
	}
	if (ok)
		wait_markers(v, n, marker, timeout_ms, run);
	stop_children(v, n, run);
	for (i = 0; i < n; i++) {
		if (v[i].found < 0 || v[i].start < 0) {
			fprintf(stderr, "startup: run %d.%d: no line containing \"%s\" on stderr\n",
				run, i, marker);
			ok = false;
			continue;
		}
		inst_ms[i] = v[i].found - v[i].start;
		if (v[i].found > last)
			last = v[i].found;
	}
	return ok ? last - t0 : -1;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-n RUNS] [-c INSTANCES] [-m MARKER] [-t TIMEOUT_S] -- CMD [ARGS...]\n"
		"Median time from exec of CMD to MARKER (default \"attached\") on its stderr.\n"
		"  -n RUNS       runs (default 7, max %d)\n"
		"  -c INSTANCES  start this many at once per run; time until all have the\n"
		"                marker (default 1, max %d)\n"
		"  -t TIMEOUT_S  give up on a run after this long (default 10)\n"
		"Example: %s -n 7 -- build/whydrop count -d 60 --json\n",
		prog, MAX_RUNS, MAX_INSTANCES, prog);
}

int main(int argc, char **argv)
{
	static double inst[MAX_RUNS * MAX_INSTANCES];
	double walls[MAX_RUNS], timeout_s = 10;
	const char *marker = "attached";
	int runs = 7, n = 1, ok = 0, fail = 0, ninst = 0, c, i;
	const struct bench_opt opts[] = {
		{ 'n', BENCH_INT, &runs },
		{ 'c', BENCH_INT, &n },
		{ 'm', BENCH_STR, &marker },
		{ 't', BENCH_DOUBLE, &timeout_s },
	};

	c = bench_getopt(argc, argv, "+n:c:m:t:h", opts, BENCH_NOPTS(opts), usage);
	if (c >= 0)
		return c;
	if (optind >= argc || runs < 1 || runs > MAX_RUNS || n < 1 || n > MAX_INSTANCES ||
	    timeout_s <= 0) {
		fprintf(stderr, "startup: need a command (see -h)\n");
		return 2;
	}
	for (i = 0; i < runs; i++) {
		double t = one_run(argv + optind, n, marker, timeout_s * 1e3, i, inst + ninst);

		if (t < 0) {
			fail++;
			continue;
		}
		if (n == 1) {
			printf("run_%d_ms=%.1f\n", i, inst[ninst]);
			walls[ok++] = inst[ninst];
		} else {
			printf("run_%d_wall_ms=%.1f\n", i, t);
			walls[ok++] = t;
		}
		ninst += n;
	}
	if (n > 1)
		printf("instances=%d\n", n);
	printf("runs=%d\nfailures=%d\n", runs, fail);
	if (!ok)
		return 1;
	if (n == 1) {
		printf("median_ms=%.1f\n", median(walls, ok));
		printf("min_ms=%.1f\n", walls[0]);
		printf("max_ms=%.1f\n", walls[ok - 1]);
	} else {
		printf("wall_median_ms=%.1f\n", median(walls, ok));
		printf("wall_min_ms=%.1f\n", walls[0]);
		printf("wall_max_ms=%.1f\n", walls[ok - 1]);
		printf("instance_median_ms=%.1f\n", median(inst, ninst));
		printf("instance_max_ms=%.1f\n", inst[ninst - 1]);
	}
	return fail ? 1 : 0;
}
