// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The TCP events program for user space (tcp_events.h): loading it in the
 * best flavour this kernel takes, reading its per-CPU counts by batches,
 * its records through the ring buffer, and its programs' bpf_stats.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "duration.h"
#include "reasons.h"
#include "runtime.h"
#include "tcp_events.h"
#include "tcp_events.skel.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE		71
#endif

#define BATCH_KEYS		256
#define NO_RECORDS_RING		4096	/* the smallest ring buffer: one page */

struct wd_tcp {
	struct tcp_events_bpf *skel;
	struct ring_buffer *rb;
	struct wd_tcp_caps caps;
	int ncpu;
	wd_tcp_record_fn fn;	/* of the wd_tcp_poll() under way */
	void *fn_arg;
	int handled;
};

/* The tracepoints' shapes, from the BTF the program is relocated against. */
static void read_caps(struct wd_tcp_caps *c)
{
	const char *path = secure_getenv("WHYDROP_BTF");
	struct btf *btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();

	if (!btf)
		return;
	c->rst_reason = wd_btf_has_member(btf, "trace_event_raw_tcp_send_reset", "reason");
	c->retrans_err = wd_btf_has_member(btf, "trace_event_raw_tcp_retransmit_skb", "err");
	btf__free(btf);
}

static void configure(struct tcp_events_bpf *skel, const struct wd_tcp_opts *o, bool btf)
{
	struct bpf_program *p;

	skel->rodata->filter_netns_cookie = o->netns_cookie;
	skel->rodata->detail_budget = o->rate;
	skel->rodata->jiffies_hz = wd_kernel_hz();
	bpf_map__set_max_entries(skel->maps.flows, o->max_flows ? o->max_flows : WD_TCP_FLOWS);
	bpf_map__set_max_entries(skel->maps.rst_counts,
				 o->max_rst_keys ? o->max_rst_keys : WD_TCP_RST_KEYS);
	if (!o->rate)
		bpf_map__set_max_entries(skel->maps.tcp_records, NO_RECORDS_RING);
	/* one flavour of each program: the names end in _btf or _raw */
	bpf_object__for_each_program(p, skel->obj) {
		const char *name = bpf_program__name(p);
		size_t len = strlen(name);

		bpf_program__set_autoload(p, len > 4 && !strcmp(name + len - 4,
								 btf ? "_btf" : "_raw"));
	}
}

/* One flavour: 0, or -errno to try the next. */
static int load_attach(struct wd_tcp *t, const struct wd_tcp_opts *o, bool btf)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .btf_custom_path = secure_getenv("WHYDROP_BTF"));
	struct tcp_events_bpf *skel = tcp_events_bpf__open_opts(&open_opts);
	int err;

	if (!skel)
		return -errno;
	configure(skel, o, btf);
	err = tcp_events_bpf__load(skel);
	if (!err)
		err = tcp_events_bpf__attach(skel);
	if (err) {
		tcp_events_bpf__destroy(skel);
		return err;
	}
	t->skel = skel;
	t->caps.attach = btf ? "tp_btf" : "raw_tp";
	return 0;
}

static int ring_sample(void *ctx, void *data, size_t size)
{
	struct wd_tcp *t = ctx;

	if (size < sizeof(struct wd_tcp_event))
		return 0;
	t->handled++;
	return t->fn(data, t->fn_arg);
}

struct wd_tcp *wd_tcp_open(const struct wd_tcp_opts *o, char *err, size_t errlen)
{
	struct wd_tcp *t = calloc(1, sizeof(*t));
	int ret = -ENOMEM;

	if (!t)
		goto fail;
	t->ncpu = libbpf_num_possible_cpus();
	ret = -EINVAL;
	if (t->ncpu <= 0)
		goto fail;
	ret = o->raw_tp ? -EAGAIN : load_attach(t, o, true);
	if (ret) {
		wd_libbpf_log_clear();
		ret = load_attach(t, o, false);
	}
	if (ret)
		goto fail;
	read_caps(&t->caps);
	if (o->rate) {
		t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.tcp_records), ring_sample, t,
					 NULL);
		ret = t->rb ? 0 : -errno;
	}
	if (!ret)
		return t;
fail:
	snprintf(err, errlen, "cannot load the TCP events program: %s%s", strerror(-ret),
		 ret == -EPERM || ret == -EACCES ?
		 " (it needs root, or CAP_BPF and CAP_PERFMON)" : "");
	wd_tcp_close(t);
	return NULL;
}

void wd_tcp_close(struct wd_tcp *t)
{
	if (!t)
		return;
	ring_buffer__free(t->rb);
	tcp_events_bpf__destroy(t->skel);
	free(t);
}

void wd_tcp_detach(struct wd_tcp *t)
{
	if (t)
		tcp_events_bpf__detach(t->skel);
}

int wd_tcp_fd(const struct wd_tcp *t)
{
	return t->rb ? ring_buffer__epoll_fd(t->rb) : -1;
}

const struct wd_tcp_caps *wd_tcp_caps(const struct wd_tcp *t)
{
	return &t->caps;
}

/* ---------------------------------------------------------------- reads */

typedef int (*each_fn)(const void *key, uint64_t sum, void *arg);

static uint64_t cpu_sum(const uint64_t *v, int ncpu)
{
	uint64_t s = 0;

	for (int i = 0; i < ncpu; i++)
		s += v[i];
	return s;
}

/* Key by key, for kernels without batch operations (before 5.6). */
static int read_slow(int fd, size_t ksize, int ncpu, uint64_t *vals, each_fn fn, void *arg)
{
	char key[64], next[64];
	void *prev = NULL;
	int err;

	if (ksize > sizeof(key))
		return -EINVAL;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, ksize);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, vals))
			continue;
		err = fn(key, cpu_sum(vals, ncpu), arg);
		if (err)
			return err;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* Every key of a per-CPU map of u64 and its sum, BATCH_KEYS per system call. */
static int read_percpu(int fd, size_t ksize, int ncpu, each_fn fn, void *arg)
{
	char *keys = calloc(BATCH_KEYS, ksize);
	uint64_t *vals = calloc((size_t)BATCH_KEYS * ncpu, sizeof(*vals));
	bool first = true, done = false;
	__u64 batch = 0;
	int err = -ENOMEM;

	while (keys && vals && !done) {
		__u32 n = BATCH_KEYS;

		err = bpf_map_lookup_batch(fd, first ? NULL : &batch, &batch, keys, vals, &n,
					   NULL);
		if (err && err != -ENOENT)
			break;
		done = err != 0;	/* ENOENT: this was the last batch */
		err = 0;
		first = false;
		for (__u32 i = 0; !err && i < n; i++)
			err = fn(keys + i * ksize, cpu_sum(vals + (size_t)i * ncpu, ncpu), arg);
		if (err)
			break;
	}
	if (first && (err == -EINVAL || err == -ENOTSUP || err == -EOPNOTSUPP))
		err = read_slow(fd, ksize, ncpu, vals, fn, arg);
	free(keys);
	free(vals);
	return err;
}

/* A growing array of n elements of size sz. */
struct vec {
	void *v;
	size_t n, cap, sz;
};

static void *vec_push(struct vec *a)
{
	void *tmp;

	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		tmp = realloc(a->v, a->cap * a->sz);
		if (!tmp)
			return NULL;
		a->v = tmp;
	}
	return memset((char *)a->v + a->n++ * a->sz, 0, a->sz);
}

/* Rows of a map read: the key at the start of each, its sum at count_off. */
struct keyed {
	struct vec a;		/* first: the overflow pushes take it as a vec */
	size_t key_size, count_off;
};

_Static_assert(offsetof(struct wd_tcp_rst_count, key) == 0, "push_keyed: the key first");
_Static_assert(offsetof(struct wd_tcp_flow_count, flow) == 0, "push_keyed: the key first");

static int push_keyed(const void *key, uint64_t sum, void *arg)
{
	struct keyed *k = arg;
	char *row;

	if (!sum)
		return 0;
	row = vec_push(&k->a);
	if (!row)
		return -ENOMEM;
	memcpy(row, key, k->key_size);
	memcpy(row + k->count_off, &sum, sizeof(sum));
	return 0;
}

static int push_rst_overflow(const void *key, uint64_t sum, void *arg)
{
	__u32 slot = *(const __u32 *)key;
	struct wd_tcp_rst_count *c;

	if (!sum)
		return 0;
	c = vec_push(arg);
	if (!c)
		return -ENOMEM;
	c->key.dir = slot >= WD_TCP_RST_SLOTS ? WD_TCP_RECEIVED : WD_TCP_SENT;
	c->key.reason = slot % WD_TCP_RST_SLOTS;
	c->overflow = true;
	c->count = sum;
	return 0;
}

int wd_tcp_read_resets(struct wd_tcp *t, struct wd_tcp_rst_count **out, size_t *n)
{
	struct keyed k = { .a.sz = sizeof(**out), .key_size = sizeof(struct wd_tcp_rst_key),
			   .count_off = offsetof(struct wd_tcp_rst_count, count) };
	int err;

	err = read_percpu(bpf_map__fd(t->skel->maps.rst_counts), k.key_size, t->ncpu,
			  push_keyed, &k);
	if (!err)
		err = read_percpu(bpf_map__fd(t->skel->maps.rst_overflow), sizeof(__u32),
				  t->ncpu, push_rst_overflow, &k.a);
	if (err) {
		free(k.a.v);
		return err;
	}
	*out = k.a.v;
	*n = k.a.n;
	return 0;
}

static int add_sum(const void *key, uint64_t sum, void *arg)
{
	(void)key;
	*(uint64_t *)arg += sum;
	return 0;
}

int wd_tcp_read_flows(struct wd_tcp *t, struct wd_tcp_flow_count **out, size_t *n,
		      uint64_t *overflow)
{
	struct keyed k = { .a.sz = sizeof(**out), .key_size = sizeof(struct wd_tcp_flow),
			   .count_off = offsetof(struct wd_tcp_flow_count, segs) };
	int err;

	*overflow = 0;
	err = read_percpu(bpf_map__fd(t->skel->maps.flows), k.key_size, t->ncpu, push_keyed,
			  &k);
	if (!err)
		err = read_percpu(bpf_map__fd(t->skel->maps.flow_overflow), sizeof(__u32),
				  t->ncpu, add_sum, overflow);
	if (err) {
		free(k.a.v);
		return err;
	}
	*out = k.a.v;
	*n = k.a.n;
	return 0;
}

static int put_stat(const void *key, uint64_t sum, void *arg)
{
	__u32 slot = *(const __u32 *)key;

	if (slot < WD_TCP_STAT_MAX)
		((struct wd_tcp_stats *)arg)->v[slot] = sum;
	return 0;
}

int wd_tcp_read_stats(struct wd_tcp *t, struct wd_tcp_stats *st)
{
	memset(st, 0, sizeof(*st));
	return read_percpu(bpf_map__fd(t->skel->maps.tcp_stats), sizeof(__u32), t->ncpu,
			   put_stat, st);
}

/* -------------------------------------------------------------- records */

int wd_tcp_poll(struct wd_tcp *t, int timeout_ms, wd_tcp_record_fn fn, void *arg)
{
	int err;

	if (!t->rb)
		return 0;
	t->fn = fn;
	t->fn_arg = arg;
	t->handled = 0;
	err = ring_buffer__poll(t->rb, timeout_ms);
	/* without a wake-up, poll() saw nothing: take what waits anyway */
	if (err >= 0)
		err = ring_buffer__consume(t->rb);
	if (err < 0 && err != -EINTR)
		return err;
	return t->handled;
}

/* ---------------------------------------------------------------- other */

int wd_tcp_prog_stats(struct wd_tcp *t, struct wd_tcp_prog_stats *out, int max)
{
	struct bpf_program *p;
	int n = 0;

	bpf_object__for_each_program(p, t->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);

		if (n >= max || fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		snprintf(out[n].name, sizeof(out[n].name), "%s", bpf_program__name(p));
		out[n].run_cnt = info.run_cnt;
		out[n].run_time_ns = info.run_time_ns;
		out[n].recursion_misses = info.recursion_misses;
		n++;
	}
	return n;
}

/* A socket made inside the namespace tells its cookie. */
static int cookie_inside(int nsfd, uint64_t *cookie)
{
	int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), s = -1, err = 0;
	socklen_t len = sizeof(*cookie);

	if (self < 0)
		return -errno;
	if (setns(nsfd, CLONE_NEWNET)) {
		err = -errno;
		goto out;
	}
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0 || getsockopt(s, SOL_SOCKET, SO_NETNS_COOKIE, cookie, &len))
		err = -errno;
	if (setns(self, CLONE_NEWNET) && !err)
		err = -errno;
out:
	if (s >= 0)
		close(s);
	close(self);
	return err;
}

int wd_tcp_netns_cookie(const char *path, uint64_t *cookie, uint32_t *ino)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	struct stat st;

	if (fd < 0)
		return -errno;
	err = fstat(fd, &st) ? -errno : cookie_inside(fd, cookie);
	if (!err)
		*ino = (uint32_t)st.st_ino;
	close(fd);
	return err;
}
