// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Counts by socket (--group-by cgroup|process, serve --per-cgroup): the
 * kernel's by-socket hash of this generation (src/bpf/sock_owner.h), and
 * those of swapped-out generations, kept here.
 *
 * As with the counting hash (counts.c, generations.c): once a read finds
 * the hash half full, the empty spare takes its place, and the old hash is
 * read whole and exactly, folded into sock_retired, and emptied to be the
 * next spare. Closed sockets leave the kernel without losing a count; only more
 * than WD_SOCK_MAP_SIZE new sockets between two reads overflow, and those
 * drops are counted (WD_STAT_SOCK_OVERFLOW). Values only grow, so a read
 * needs no clamp.
 *
 * Swapped-out counts leave their socket too: each goes to the caller's
 * sock_fold (process names learned while the socket lived), else into
 * sock_retired with its inode let go (WD_SOCK_INO_RETIRED), one entry per
 * reason, namespace and cgroup. Memory follows those, never the number of
 * sockets that came and went (a socket-per-request server makes millions).
 * serve forgets the counts of cgroups whose series retired
 * (wd_session_sock_forget).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core.h"
#include "grow.h"
#include "session.h"

struct sock_list {
	struct wd_sock_total *v;
	size_t n, cap;
};

/* Both generations now, while whydrop may still create maps (generations.c). */
int wd_socks_setup(struct wd_session *s, int outer_fd)
{
	return wd_gen_setup(&s->socks, outer_fd, "wd_by_socket", sizeof(struct wd_sock_key),
			    WD_SOCK_MAP_SIZE);
}

void wd_socks_free(struct wd_session *s)
{
	free(s->sock_retired);
	s->sock_retired = NULL;
	s->n_sock_retired = 0;
}

static int push(struct sock_list *l, const struct wd_sock_key *key, uint64_t count)
{
	if (wd_grow(&l->v, &l->cap, l->n, sizeof(*l->v), 256))
		return -ENOMEM;
	l->v[l->n++] = (struct wd_sock_total){ .key = *key, .count = count };
	return 0;
}

/* Every key of the hash at fd, appended to l. */
static int read_socks(int fd, struct sock_list *l, uint64_t *vals, int ncpu)
{
	struct wd_sock_key key, next, *prev = NULL;
	int err = 0;

	while (!err && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, vals))
			err = push(l, &key, wd_cpu_sum(vals, ncpu));
	}
	return err;
}

static int cmp_key(const void *x, const void *y)
{
	const struct wd_sock_total *a = x, *b = y;

	return memcmp(&a->key, &b->key, sizeof(a->key));
}

/* One entry per key, counts added. */
static void merge(struct sock_list *l)
{
	size_t m = 0;

	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_key);
	for (size_t i = 1; i < l->n; i++) {
		if (!cmp_key(&l->v[m], &l->v[i]))
			l->v[m].count += l->v[i].count;
		else
			l->v[++m] = l->v[i];
	}
	l->n = m + 1;
}

/* Entries first.. of l: to sock_fold, else kept without their inode. */
static void let_go(struct wd_session *s, struct sock_list *l, size_t first)
{
	size_t m = first;

	for (size_t i = first; i < l->n; i++) {
		if (s->sock_fold && s->sock_fold(s->sock_fold_ctx, &l->v[i]))
			continue;
		l->v[m] = l->v[i];
		if (l->v[m].key.ino)	/* 0: no socket, kept as such */
			l->v[m].key.ino = WD_SOCK_INO_RETIRED;
		m++;
	}
	l->n = m;
}

/*
 * Put the empty spare in place and fold the old hash into sock_retired.
 * On any failure the current hash stays (and fills up, counted, as it
 * would without generations); a hash that could not be read or emptied
 * is never used again.
 */
static int swap_socks(struct wd_session *s, uint64_t *vals, int ncpu)
{
	struct sock_list r = { s->sock_retired, s->n_sock_retired, s->n_sock_retired };
	int old = wd_gen_swap(&s->socks), err;

	if (old < 0)
		return 0;
	err = read_socks(old, &r, vals, ncpu);
	for (size_t i = s->n_sock_retired; !err && i < r.n; i++)
		if (bpf_map_delete_elem(old, &r.v[i].key) && errno != ENOENT)
			err = -errno;
	wd_gen_retire(&s->socks, old, !err);
	let_go(s, &r, s->n_sock_retired);
	merge(&r);
	s->sock_retired = r.v;
	s->n_sock_retired = r.n;
	s->sock_generations++;
	return err;
}

int wd_session_sock_totals(struct wd_session *s, struct wd_sock_total **out, size_t *n)
{
	int ncpu = libbpf_num_possible_cpus();
	struct sock_list l = { 0 };
	uint64_t *vals;
	int err = 0;

	if (ncpu <= 0 || s->socks.cur_fd < 0)
		return -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (size_t i = 0; !err && i < s->n_sock_retired; i++)
		err = push(&l, &s->sock_retired[i].key, s->sock_retired[i].count);
	if (!err)
		err = read_socks(s->socks.cur_fd, &l, vals, ncpu);
	/* Half full: the next sockets go to an empty hash (this read stays valid). */
	if (!err && s->link && l.n - s->n_sock_retired >= WD_SOCK_MAP_SIZE / 2)
		err = swap_socks(s, vals, ncpu);
	free(vals);
	if (err) {
		free(l.v);
		return err;
	}
	merge(&l);
	*out = l.v;
	*n = l.n;
	return 0;
}

static bool listed(const uint64_t *ids, size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid] == id)
			return true;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The keys of the current hash that name these cgroups, deleted. */
static int forget_in_kernel(int fd, const uint64_t *ids, size_t n)
{
	struct wd_sock_key key, next, *prev = NULL;
	struct sock_list l = { 0 };
	int err = 0;

	while (!err && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (listed(ids, n, key.cgroup_id))
			err = push(&l, &key, 0);
	}
	for (size_t i = 0; !err && i < l.n; i++)
		if (bpf_map_delete_elem(fd, &l.v[i].key) && errno != ENOENT)
			err = -errno;
	free(l.v);
	return err;
}

int wd_session_sock_forget(struct wd_session *s, const uint64_t *ids, size_t n)
{
	size_t out = 0;

	if (!n || s->socks.cur_fd < 0)
		return 0;
	for (size_t i = 0; i < s->n_sock_retired; i++)
		if (!listed(ids, n, s->sock_retired[i].key.cgroup_id))
			s->sock_retired[out++] = s->sock_retired[i];
	s->n_sock_retired = out;
	return forget_in_kernel(s->socks.cur_fd, ids, n);
}
