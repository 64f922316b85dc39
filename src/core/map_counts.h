/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel half of counting (the pure half is src/lib/counting/keyset.c): exact
 * counts read from per-CPU maps, summed over CPUs, by batches of keys per
 * system call (key by key on kernels without batch operations, before
 * 5.6), and a counting hash in generations.
 *
 * Generations: the program finds the hash of this generation in a one-slot
 * array of maps; user space keeps an empty spare. Swapping them waits for
 * every program still running (the kernel does that when an array of maps
 * is updated), so the old hash is then read whole and exactly, folded into
 * `retired`, emptied, and kept as the next spare: keys that went idle leave
 * the kernel without losing a count, and a hash read every second (top,
 * serve) does not fill up from churn. Reading never swaps: a swap happens
 * only when wd_gen_swap() is called (wd_session_maintain()).
 */
#ifndef WD_MAP_COUNTS_H
#define WD_MAP_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "keyset.h"

/* Every key of the per-CPU u64 hash at fd, appended to out. 0 or -errno. */
int wd_map_read_hash(int fd, struct wd_keyset *out, int ncpu);
/* Slots 0..n-1 of the per-CPU u64 array at fd, summed over CPUs. 0 or -errno. */
int wd_map_read_array(int fd, uint32_t n, uint64_t *sums, int ncpu);

/* A counting hash in generations. */
struct wd_gen {
	int outer_fd;		/* the one-slot array of maps the program finds it in */
	int cur_fd;		/* the hash of this generation (ours to close), -1: none */
	int spare_fd;		/* the next one, empty; -1: no more swaps */
	uint32_t entries;	/* keys a hash holds */
	struct wd_keyset retired;	/* counts of swapped-out generations, merged */
	size_t cur_keys;	/* keys the current hash held at the last read */
	size_t pending;		/* keys not in it then, waiting to be evicted into it */
	unsigned int swaps;	/* generations swapped out so far */
};

/* Nothing open yet: every fd -1. */
void wd_gen_init(struct wd_gen *g, uint32_t key_size);
/*
 * Both hashes (per-CPU u64 counts, entries keys of key_size bytes each)
 * made now, while whydrop may still create maps, the first put in the
 * one-slot array at outer_fd: once capabilities are gone a swap only
 * exchanges them, and emptying one (deleting keys) needs none. 0 or -errno.
 */
int wd_gen_setup(struct wd_gen *g, int outer_fd, const char *name, uint32_t key_size,
		 uint32_t entries);
/* Close both hashes; safe to call twice. */
void wd_gen_close(struct wd_gen *g);
/* Close, and free the retired counts. */
void wd_gen_free(struct wd_gen *g);
/* The retired counts and the current hash, appended to out. 0 or -errno. */
int wd_gen_read(struct wd_gen *g, struct wd_keyset *out, int ncpu);
/*
 * The keys waiting outside the current hash at the last read (the runs of
 * src/bpf/counting.h), not in it: each can enter it before the next read.
 */
void wd_gen_note_pending(struct wd_gen *g, size_t keys);
/*
 * Time to swap: the last read found the current hash half full, counting
 * the pending keys, so it has room for half its size of new keys more.
 */
bool wd_gen_half_full(const struct wd_gen *g);
/*
 * The spare in place of the current hash; the old one read whole, each of
 * its rows given to let_go (NULL: all kept) which may take it elsewhere
 * (false) or change its key, the rest merged into retired; then emptied to
 * be the next spare. On any failure the current hash stays (and fills up
 * into the overflow, counted, as it would without generations); a hash
 * that could not be read or emptied is never used again. 0 or -errno.
 */
int wd_gen_swap(struct wd_gen *g, int ncpu, bool (*let_go)(void *ctx, void *key, uint64_t count),
		void *ctx);

#endif /* WD_MAP_COUNTS_H */
