/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Time spans as systemd.time(7) and sleep(1) users write them: plain
 * seconds ("10", "2.5"), or numbers each with a unit, one after the other
 * ("90s", "1.5m", "500ms", "1h30m", "1h 30min"). Units: ms/msec, s/sec/
 * second(s), m/min/minute(s), h/hr/hour(s), d/day(s). No sign, no hex, no
 * exponent, no nan or inf: strtod(3) takes those, a user never means them.
 */
#ifndef WD_DURATION_H
#define WD_DURATION_H

#include <stdint.h>

#define WD_MSEC_NS	1000000ULL

/*
 * s as nanoseconds in *ns (digits past the nanosecond are ignored). 0, or
 * -EINVAL when s is no span (empty, a sign, hex, an exponent, an unknown
 * unit, anything after), -ERANGE when it does not fit in 64 bits of ns.
 */
int wd_duration_parse(const char *s, uint64_t *ns);

/*
 * The kernel's HZ (what BPF programs turn jiffies into time with): the
 * coarse clocks advance once a tick. 0 if the resolution is implausible.
 */
uint32_t wd_kernel_hz(void);

#endif /* WD_DURATION_H */
