/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Between the files of src/core: what commands do not call. */
#ifndef WD_CORE_H
#define WD_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"

/*
 * Load and attach the BPF program (src/core/loader.c): tp_btf with direct
 * packet loads (kernels that allow them), tp_btf, raw_tp where it cannot
 * attach, arguments only without BTF. Which loads is tried, not guessed
 * from the kernel's version. 0; <0 (-errno) when none could (libbpf's
 * messages kept, src/core/runtime.h); >0 an exit status after a message.
 */
int wd_loader_attach(struct wd_session *s, const struct wd_opts *o, bool details);
/* Detach and free what wd_loader_attach made; safe to call twice. */
void wd_loader_free(struct wd_session *s);
/*
 * -r LIST into the reason bitmap of either program's read-only data (or of
 * drop_monitor's source); *enabled set. 0, or an exit status after a message.
 */
int wd_reason_bits(struct wd_session *s, const char *list, volatile __u64 *bits,
		   volatile bool *enabled);

/*
 * A hash's two generations (generations.c): per-CPU u64 counts, entries
 * keys of key_size bytes each; the first put in the one-slot array at
 * outer_fd. 0 or -errno.
 */
int wd_gen_setup(struct wd_gen *g, int outer_fd, const char *name, uint32_t key_size,
		 uint32_t entries);
void wd_gen_close(struct wd_gen *g);
/*
 * The spare in place of the current hash: returns the old one, which no
 * program writes to any more, for the caller to read and empty; -1 when
 * there is no spare or the update failed (the current hash stays).
 */
int wd_gen_swap(struct wd_gen *g);
/* The old hash back: the next spare if it was emptied, else closed. */
void wd_gen_retire(struct wd_gen *g, int old, bool emptied);

/*
 * The counting hash's two generations (--map-size keys each), the first put
 * in the array at outer_fd; 0 or -errno (src/core/counts.c).
 */
int wd_counts_setup(struct wd_session *s, int outer_fd);
/* Free what counts.c keeps between reads. */
void wd_counts_free(struct wd_session *s);
/* The same two for the by-socket hash, --group-by cgroup|process (sock_counts.c). */
int wd_socks_setup(struct wd_session *s, int outer_fd);
void wd_socks_free(struct wd_session *s);

/* The sum of a per-CPU map value: ncpu counters. */
static inline uint64_t wd_cpu_sum(const uint64_t *vals, int ncpu)
{
	uint64_t s = 0;

	for (int i = 0; i < ncpu; i++)
		s += vals[i];
	return s;
}

#endif /* WD_CORE_H */
