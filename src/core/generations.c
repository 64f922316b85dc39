// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A counting hash in generations, shared by the counts (counts.c) and the
 * counts by socket (sock_counts.c): the program finds the hash of this
 * generation in a one-slot array of maps; user space keeps an empty spare.
 * Swapping them waits for every program still running (the kernel does
 * that when an array of maps is updated), so the old hash can then be read
 * whole and exactly, emptied, and kept as the next spare.
 */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "core.h"
#include "session.h"

static int hash_create(const char *name, uint32_t key_size, uint32_t entries)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, name, key_size, sizeof(uint64_t),
				entries, NULL);

	return fd < 0 ? -errno : fd;
}

/*
 * Both hashes are made now, while whydrop may still create maps: once its
 * capabilities are gone, a swap only exchanges them, and emptying the old
 * one (deleting its keys) needs none.
 */
int wd_gen_setup(struct wd_gen *g, int outer_fd, const char *name, uint32_t key_size,
		 uint32_t entries)
{
	__u32 zero = 0;

	g->outer_fd = outer_fd;
	g->cur_fd = hash_create(name, key_size, entries);
	if (g->cur_fd < 0)
		return g->cur_fd;
	g->spare_fd = hash_create(name, key_size, entries);
	if (g->spare_fd < 0)
		return g->spare_fd;
	if (bpf_map_update_elem(outer_fd, &zero, &g->cur_fd, BPF_ANY))
		return -errno;
	return 0;
}

void wd_gen_close(struct wd_gen *g)
{
	if (g->cur_fd >= 0)
		close(g->cur_fd);
	if (g->spare_fd >= 0)
		close(g->spare_fd);
	g->cur_fd = g->spare_fd = -1;
}

int wd_gen_swap(struct wd_gen *g)
{
	int old = g->cur_fd;
	__u32 zero = 0;

	if (g->spare_fd < 0 || bpf_map_update_elem(g->outer_fd, &zero, &g->spare_fd, BPF_ANY))
		return -1;
	g->cur_fd = g->spare_fd;
	g->spare_fd = -1;
	return old;
}

void wd_gen_retire(struct wd_gen *g, int old, bool emptied)
{
	if (emptied)
		g->spare_fd = old;
	else
		close(old);	/* never used again: no more swaps */
}
