// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --tcp: the drop program's per-flow count of TCP drops (src/bpf/tcp_drops.h)
 * into the snapshot's tcp section, beside what the TCP source reads: the
 * overflow first, then the hash by batches (key by key before 5.6), each
 * key's packets and segments summed over CPUs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "core.h"
#include "snapshot.h"
#include "source_bpf.h"
#include "source_tcp.h"

#define BATCH	256

struct wd_tcp_snap *wd_tcp_snap_of(struct wd_snapshot *snap)
{
	if (!snap->tcp)
		snap->tcp = calloc(1, sizeof(*snap->tcp));
	return snap->tcp;
}

static struct wd_tcp_drop_count cpu_sum(const struct wd_tcp_drop_count *v, int ncpu)
{
	struct wd_tcp_drop_count s = { 0 };

	for (int i = 0; i < ncpu; i++) {
		s.packets += v[i].packets;
		s.segs += v[i].segs;
	}
	return s;
}

static int push(struct wd_tcp_snap *t, const struct wd_tcp_drop_key *k,
		const struct wd_tcp_drop_count *v, int ncpu)
{
	struct wd_tcp_drop_row *r;

	if (t->n_drops == t->cap_drops) {
		size_t cap = t->cap_drops ? 2 * t->cap_drops : 64;

		r = realloc(t->drops, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		t->drops = r;
		t->cap_drops = cap;
	}
	t->drops[t->n_drops++] = (struct wd_tcp_drop_row){ *k, cpu_sum(v, ncpu) };
	return 0;
}

static int read_slow(int fd, struct wd_tcp_snap *t, struct wd_tcp_drop_count *v, int ncpu)
{
	struct wd_tcp_drop_key key, next;
	bool first = true;
	int err = 0;

	while (!err && !bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (bpf_map_lookup_elem(fd, &key, v))
			continue;	/* gone meanwhile: never deleted, so cannot be */
		err = push(t, &key, v, ncpu);
	}
	return err;
}

static int read_flows(int fd, struct wd_tcp_snap *t, int ncpu)
{
	struct wd_tcp_drop_key *keys = calloc(BATCH, sizeof(*keys));
	struct wd_tcp_drop_count *v = calloc((size_t)BATCH * ncpu, sizeof(*v));
	bool first = true, done = false;
	__u64 pos = 0;
	int err = keys && v ? 0 : -ENOMEM;

	while (!err && !done) {
		__u32 n = BATCH;

		if (bpf_map_lookup_batch(fd, first ? NULL : &pos, &pos, keys, v, &n, NULL)) {
			if (errno != ENOENT) {
				err = first && (errno == EINVAL || errno == ENOTSUP ||
						errno == EOPNOTSUPP) ? 1 : -errno;
				break;
			}
			done = true;
		}
		first = false;
		for (__u32 i = 0; !err && i < n; i++)
			err = push(t, &keys[i], v + (size_t)i * ncpu, ncpu);
	}
	if (err == 1)
		err = read_slow(fd, t, v, ncpu);
	free(keys);
	free(v);
	return err;
}

int wd_bpf_tcp_drops(struct wd_bpf *b, struct wd_snapshot *snap, int ncpu)
{
	struct wd_tcp_snap *t = wd_tcp_snap_of(snap);
	struct wd_tcp_drop_count *o;
	__u32 zero = 0;
	int err;

	if (!t)
		return -ENOMEM;
	o = calloc((size_t)ncpu, sizeof(*o));
	if (!o)
		return -ENOMEM;
	/* the overflow first: what a later read of the hash misses is in it */
	err = bpf_map_lookup_elem(b->flow_drops_ovf_fd, &zero, o) ? -errno : 0;
	if (!err) {
		t->drops_overflow = cpu_sum(o, ncpu);
		err = read_flows(b->flow_drops_fd, t, ncpu);
	}
	free(o);
	t->has_drops = !err;
	return err;
}
