/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The process around a session: the signals that stop a command, a
 * monotonic clock, and libbpf's messages (kept for the error message of a
 * failed load, or on stderr with -v).
 */
#ifndef WD_RUNTIME_H
#define WD_RUNTIME_H

#include <signal.h>
#include <stdbool.h>

/* Set by SIGINT, SIGTERM and SIGHUP, or by a command that is done. */
extern volatile sig_atomic_t wd_stop;

/* SIGINT, SIGTERM, SIGHUP set wd_stop; SIGPIPE is ignored (writes fail instead). */
void wd_install_signals(void);
/* Seconds since an arbitrary start, monotonic. */
double wd_now(void);
/*
 * How long a loop that started at t0 and ends after duration seconds (0:
 * never) may wait now: most ms, or less to wake at its end (rounded up to
 * the millisecond, never below 1 ms): -d is honoured to the millisecond.
 */
int wd_wait_ms(double t0, double duration, int most);
/* Sleep ms milliseconds (less when a signal comes). */
void wd_sleep_ms(int ms);
/* Has a loop that started at t0 run its duration (0: never over)? */
bool wd_over(double t0, double duration);

/* Route libbpf's messages: every one to stderr when verbose, else kept. */
void wd_libbpf_log_init(bool verbose);
/* Forget what was kept (before another attempt to load). */
void wd_libbpf_log_clear(void);
/* Add a line of our own to what is kept. */
void wd_libbpf_log_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What was kept, "" if nothing. */
const char *wd_libbpf_log(void);

#endif /* WD_RUNTIME_H */
