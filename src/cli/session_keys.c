// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "session_keys.h"
#include "whydrop.skel.h"

struct key_vec {
	struct wd_key_total *v;
	size_t n, cap;
};

static int push(struct key_vec *kv, const struct wd_key *key, uint64_t count)
{
	if (kv->n == kv->cap) {
		size_t ncap = kv->cap ? kv->cap * 2 : 256;
		struct wd_key_total *tmp = realloc(kv->v, ncap * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		kv->v = tmp;
		kv->cap = ncap;
	}
	kv->v[kv->n].key = *key;
	kv->v[kv->n].count = count;
	kv->n++;
	return 0;
}

static uint64_t sum(const uint64_t *vals, int ncpu)
{
	uint64_t s = 0;

	for (int i = 0; i < ncpu; i++)
		s += vals[i];
	return s;
}

static int read_counts(struct wd_session *s, struct key_vec *kv, uint64_t *vals, int ncpu)
{
	int fd = bpf_map__fd(s->skel->maps.counts);
	struct wd_key key, next, *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue;	/* cannot vanish: nothing deletes */
		if (push(kv, &key, sum(vals, ncpu)))
			return -ENOMEM;
	}
	return errno == ENOENT ? 0 : -errno;
}

static int read_overflow(struct wd_session *s, struct key_vec *kv, uint64_t *vals, int ncpu)
{
	int fd = bpf_map__fd(s->skel->maps.overflow);

	for (uint32_t slot = 0; slot < WD_OVERFLOW_SLOTS; slot++) {
		struct wd_key key = { .reason = slot };
		uint64_t n;

		if (bpf_map_lookup_elem(fd, &slot, vals))
			continue;
		n = sum(vals, ncpu);
		if (n && push(kv, &key, n))
			return -ENOMEM;
	}
	return 0;
}

int wd_session_totals_by(struct wd_session *s, struct wd_key_total **out, size_t *n)
{
	int ncpu = libbpf_num_possible_cpus();
	struct key_vec kv = {};
	uint64_t *vals;
	int err;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	err = read_counts(s, &kv, vals, ncpu);
	if (!err)
		err = read_overflow(s, &kv, vals, ncpu);
	free(vals);
	if (err) {
		free(kv.v);
		return err;
	}
	*out = kv.v;
	*n = kv.n;
	return 0;
}
