/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Between the files of src/core: what commands do not call. */
#ifndef WD_CORE_H
#define WD_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"

struct wd_bpf;

/*
 * Load and attach the BPF program (src/core/loader.c) for the BPF source
 * (source_bpf.c): tp_btf with direct packet loads (kernels that allow
 * them), tp_btf, raw_tp where it cannot attach, arguments only without
 * BTF. Which loads is tried, not guessed from the kernel's version. 0; <0
 * (-errno) when none could (libbpf's messages kept, src/core/runtime.h);
 * >0 an exit status after a message.
 */
int wd_loader_attach(struct wd_bpf *s, const struct wd_opts *o, bool details);
/* Detach and free what wd_loader_attach made; safe to call twice. */
void wd_loader_free(struct wd_bpf *s);
/*
 * -r LIST into a reason bitmap (either program's read-only data, or
 * drop_monitor's filter in user space); *enabled set. 0, or an exit
 * status after a message (reason_bits.c).
 */
int wd_reason_bits(struct wd_reasons *r, const char *list, volatile __u64 *bits,
		   volatile bool *enabled);

/* The counting hash's two generations (--map-size keys each): source_bpf.c. */
int wd_counts_setup(struct wd_bpf *s, int outer_fd);
/* The same two for the by-socket hash, --group-by cgroup|process. */
int wd_socks_setup(struct wd_bpf *s, int outer_fd);

/*
 * The session's filters (filters.c): the pcap expression compiled,
 * --netns opened, -i found in it. 0, or an exit status after a message.
 */
int wd_filters_resolve(struct wd_session *s, const struct wd_opts *o);
void wd_filters_free(struct wd_session *s);
/* --netns NAME deleted or made again meanwhile: said once, looked at once a second. */
void wd_filters_check_netns(struct wd_session *s);

/* The drop source --source asks for, opened (sources.c). 0, or an exit status. */
int wd_sources_open(struct wd_session *s, const struct wd_opts *o);
/* Before anything: may this process trace at all? 0, or 1 after a message. */
int wd_sources_check_privileges(enum wd_source_choice source);

/*
 * Why drop_monitor cannot serve, said on stderr (dropmon_errors.c). The
 * options it cannot honour: 0 or an exit status. Opening its family failed
 * with err: -1 when quiet (said nothing), else 1. A request (what) refused
 * with err, and the kernel's extended message in dm: 1.
 */
struct wd_dm;
int wd_dm_refuse_options(const struct wd_opts *o, bool details, bool summary);
int wd_dm_say_open_error(int err, bool quiet);
int wd_dm_say_request_error(const struct wd_dm *dm, const char *what, int err);

#endif /* WD_CORE_H */
