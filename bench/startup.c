// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * startup: time from exec of a command until a line containing a marker
 * (default "attached") appears on its stderr; then SIGINT it and wait.
 *
 *   startup [-n RUNS] [-m MARKER] [-t TIMEOUT_S] -- CMD [ARGS...]
 *
 * Prints one key=value line per run (run_N_ms=...) and the median
 * (median_ms=...), min_ms, max_ms, failures.  The clock starts in the child
 * right before execvp(); it is written to a pipe so the parent measures
 * exactly exec -> marker (fork cost excluded).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 100

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

/* Returns ms from exec to marker, or -1 on failure. */
static double one_run(char **cmd, const char *marker, double timeout_ms, int run)
{
	int errp[2], tp[2], status;
	char buf[8192], line[4096];
	size_t linelen = 0;
	double start = -1, found = -1, deadline;
	pid_t pid;

	if (pipe2(errp, O_CLOEXEC) || pipe2(tp, O_CLOEXEC)) {
		perror("startup: pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		perror("startup: fork");
		return -1;
	}
	if (pid == 0) {
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
	if (read(tp[0], &start, sizeof(start)) != sizeof(start))
		start = -1;
	close(tp[0]);

	deadline = now_ms() + timeout_ms;
	while (found < 0) {
		struct pollfd pfd = { .fd = errp[0], .events = POLLIN };
		double left = deadline - now_ms();
		ssize_t n;
		int pr;

		if (left <= 0)
			break;
		pr = poll(&pfd, 1, (int)left + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			break;
		n = read(errp[0], buf, sizeof(buf));
		if (n <= 0)
			break;	/* child exited before the marker */
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (linelen < sizeof(line) - 1)
					line[linelen++] = buf[i];
				continue;
			}
			line[linelen] = '\0';
			if (strstr(line, marker)) {
				found = now_ms();
				break;
			}
			fprintf(stderr, "startup: run %d: %s\n", run, line);
			linelen = 0;
		}
	}
	kill(pid, SIGINT);
	/* Drain stderr so the child never blocks on a full pipe while exiting. */
	for (;;) {
		struct pollfd pfd = { .fd = errp[0], .events = POLLIN };

		if (poll(&pfd, 1, 5000) <= 0)
			break;
		if (read(errp[0], buf, sizeof(buf)) <= 0)
			break;
	}
	close(errp[0]);
	if (waitpid(pid, &status, WNOHANG) == 0) {
		usleep(200 * 1000);
		if (waitpid(pid, &status, WNOHANG) == 0) {
			fprintf(stderr, "startup: run %d: still running after SIGINT, killing\n", run);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
		}
	}
	if (found < 0 || start < 0) {
		fprintf(stderr, "startup: run %d: no line containing \"%s\" on stderr\n",
			run, marker);
		return -1;
	}
	return found - start;
}

int main(int argc, char **argv)
{
	double times[MAX_RUNS], timeout_s = 10;
	const char *marker = "attached";
	int runs = 7, ok = 0, fail = 0, c, i;

	while ((c = getopt(argc, argv, "+n:m:t:h")) != -1) {
		switch (c) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 'm':
			marker = optarg;
			break;
		case 't':
			timeout_s = atof(optarg);
			break;
		case 'h':
			printf("Usage: %s [-n RUNS] [-m MARKER] [-t TIMEOUT_S] -- CMD [ARGS...]\n"
			       "Median time from exec of CMD to MARKER on its stderr.\n"
			       "Example: %s -n 7 -- build/whydrop count -d 60 --json\n",
			       argv[0], argv[0]);
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc || runs < 1 || runs > MAX_RUNS || timeout_s <= 0) {
		fprintf(stderr, "startup: need a command (see -h)\n");
		return 2;
	}
	for (i = 0; i < runs; i++) {
		double t = one_run(argv + optind, marker, timeout_s * 1e3, i);

		if (t < 0) {
			fail++;
			continue;
		}
		printf("run_%d_ms=%.1f\n", i, t);
		times[ok++] = t;
	}
	printf("runs=%d\nfailures=%d\n", runs, fail);
	if (!ok)
		return 1;
	qsort(times, ok, sizeof(times[0]), cmp_double);
	printf("min_ms=%.1f\n", times[0]);
	printf("max_ms=%.1f\n", times[ok - 1]);
	printf("median_ms=%.1f\n",
	       ok % 2 ? times[ok / 2] : (times[ok / 2 - 1] + times[ok / 2]) / 2);
	return fail ? 1 : 0;
}
