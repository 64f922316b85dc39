// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>

#include "runtime.h"

volatile sig_atomic_t wd_stop;

static bool verbose;
static char libbpf_log[4096];

static void on_signal(int sig)
{
	(void)sig;
	wd_stop = 1;
}

void wd_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

double wd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int wd_wait_ms(double t0, double duration, int most)
{
	double left_ms = (t0 + duration - wd_now()) * 1000;

	if (!duration || left_ms >= most)
		return most;
	return left_ms < 1 ? 1 : (int)ceil(left_ms);
}

void wd_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

bool wd_over(double t0, double duration)
{
	return duration && wd_now() - t0 >= duration;
}

/* Keep libbpf's warnings for the error message instead of spraying them. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t used = strlen(libbpf_log);

	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	if (verbose)
		return vfprintf(stderr, fmt, ap);
	if (used < sizeof(libbpf_log) - 1)
		vsnprintf(libbpf_log + used, sizeof(libbpf_log) - used, fmt, ap);
	return 0;
}

void wd_libbpf_log_init(bool v)
{
	verbose = v;
	libbpf_set_print(libbpf_print);
}

void wd_libbpf_log_clear(void)
{
	libbpf_log[0] = '\0';
}

void wd_libbpf_log_add(const char *fmt, ...)
{
	size_t used = strlen(libbpf_log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(libbpf_log + used, sizeof(libbpf_log) - used, fmt, ap);
	va_end(ap);
}

const char *wd_libbpf_log(void)
{
	return libbpf_log;
}
