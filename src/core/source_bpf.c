// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The BPF source: the program on skb:kfree_skb (loaded by loader.c), its
 * records from the ring buffer, and its exact counts read into snapshots:
 * the counting hash in generations, the per-reason overflow bucket, each
 * CPU's runs of identical drops (src/bpf/counting.h), the statistics, the
 * counts by socket and the stacks (stacks.c).
 *
 * While the program runs, a run moves from its slot into the hash. It
 * leaves the slot first, and the hash is read before the runs, so a live
 * read can miss a run in flight but never counts one twice. Each key's
 * total is then never allowed below what an earlier snapshot read: live
 * totals only grow (Prometheus counters, top's rates) and never exceed the
 * truth; once detached, a read is exact.
 *
 * Generations (map_counts.h): once a snapshot finds a hash half full
 * (--map-size; the by-socket hash's WD_SOCK_MAP_SIZE), counting the keys
 * waiting in the runs that it lacks, maintain() swaps in
 * its empty spare. Swapped-out counts by socket leave their socket too:
 * each goes to the caller's fold (process names learned while the socket
 * lived), else is kept with its inode let go (WD_SOCK_INO_RETIRED), one
 * entry per reason, namespace and cgroup: memory follows those, never the
 * number of sockets that came and went. Only more than WD_SOCK_MAP_SIZE new
 * sockets between two snapshots overflow, and those drops are counted
 * (WD_STAT_SOCK_OVERFLOW). serve forgets the counts of cgroups whose series
 * retired (forget_cgroups).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core.h"
#include "session.h"
#include "sorted.h"
#include "source_bpf.h"
#include "whydrop.skel.h"

#define RUNS_TRIES	100
#define GONE_SWAP_MIN	64	/* keys of gone namespaces worth a swap of the hash */

static struct wd_bpf *bpf_of(struct wd_source *src)
{
	return src->priv;
}

/* Both generations now, while whydrop may still create maps (map_counts.h). */
int wd_counts_setup(struct wd_bpf *s, int outer_fd)
{
	return wd_gen_setup(&s->counts, outer_fd, "wd_counts", sizeof(struct wd_key), s->map_size);
}

int wd_socks_setup(struct wd_bpf *s, int outer_fd)
{
	return wd_gen_setup(&s->socks, outer_fd, "wd_by_socket", sizeof(struct wd_sock_key),
			    WD_SOCK_MAP_SIZE);
}

/* ------------------------------------------------------------ records */

static int on_ring(void *ctx, void *data, size_t len)
{
	struct wd_session *s = ctx;
	const struct wd_event *ev = data;
	struct wd_event cut;

	if (len < sizeof(*ev) || !s->on_event)
		return 0;
	/* Packet bytes past hdr[] are read only as far as the record holds them. */
	if (WD_EVENT_BYTES(ev->caplen) > len) {
		memcpy(&cut, ev, sizeof(cut));
		cut.caplen = WD_HDR_BYTES;
		ev = &cut;
	}
	s->on_event(s->event_ctx, ev);
	return 0;
}

static int bpf_fd(struct wd_source *src)
{
	struct wd_bpf *b = bpf_of(src);

	return b->rb ? ring_buffer__epoll_fd(b->rb) : -1;
}

static int bpf_poll(struct wd_source *src)
{
	struct wd_bpf *b = bpf_of(src);
	int err;

	if (!b->rb)
		return 0;
	err = ring_buffer__consume(b->rb);
	if (err >= 0 || err == -EINTR)
		return 0;
	fprintf(stderr, "whydrop: reading records failed: %s\n", strerror(-err));
	return err;
}

/* ------------------------------------------------------------ life cycle */

static int bpf_open(struct wd_source *src, const struct wd_opts *o, bool quiet)
{
	struct wd_session *s = src->s;
	struct wd_bpf *b = calloc(1, sizeof(*b));
	int status;

	(void)quiet;	/* a failed load says nothing: libbpf's messages are kept */
	if (!b)
		return -ENOMEM;
	src->priv = b;
	b->src = src;
	b->filter_fd = b->filter_ctx_fd = -1;
	b->overflow_fd = b->runs_fd = b->stats_fd = b->prog_fd = -1;
	b->stackmap_fd = b->stack_counts_fd = b->stack_overflow_fd = -1;
	b->flow_drops_fd = b->flow_drops_ovf_fd = -1;
	wd_gen_init(&b->counts, sizeof(struct wd_key));
	wd_gen_init(&b->socks, sizeof(struct wd_sock_key));
	wd_keyset_init(&b->last, sizeof(struct wd_key));
	b->reasons = &s->reasons;
	b->netns = s->netns;
	b->ifindex = s->ifindex;
	b->filter = s->filter;
	b->filter_len = s->filter_len;
	b->details = s->details;
	status = wd_loader_attach(b, o, s->details);
	if (status)
		return status;
	if (s->details && b->skel) {
		b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.events), on_ring, s, NULL);
		if (!b->rb) {
			fprintf(stderr, "whydrop: cannot open the ring buffer: %s\n", strerror(errno));
			return 1;
		}
	}
	src->what = "skb:kfree_skb";
	src->attach_mode = b->attach_mode;
	src->map_fd = b->stats_fd;
	if (b->skel)
		src->caps |= WD_SRC_NETNS;
	if (b->socks.cur_fd >= 0)
		src->caps |= WD_SRC_SOCKETS;
	if (b->stacks)
		src->caps |= WD_SRC_STACKS;
	return 0;
}

static void bpf_detach(struct wd_source *src)
{
	struct wd_bpf *b = bpf_of(src);

	bpf_link__destroy(b->link);
	b->link = NULL;
	bpf_link__destroy(b->tcp_link);
	b->tcp_link = NULL;
	/* Let runs already inside the program finish before the final read. */
	nanosleep(&(struct timespec){ 0, 20 * 1000000L }, NULL);
	if (b->rb)
		ring_buffer__consume(b->rb);
}

static void bpf_close(struct wd_source *src)
{
	struct wd_bpf *b = bpf_of(src);

	if (!b)
		return;
	ring_buffer__free(b->rb);
	wd_loader_free(b);
	wd_gen_free(&b->counts);
	wd_gen_free(&b->socks);
	wd_keyset_free(&b->last);
	free(b);
	src->priv = NULL;
}

/* ------------------------------------------------------------ snapshot */

static int read_overflow(struct wd_bpf *b, struct wd_keyset *kv, int ncpu)
{
	uint64_t *n = calloc(WD_OVERFLOW_SLOTS, sizeof(*n));
	int err = n ? wd_map_read_array(b->overflow_fd, WD_OVERFLOW_SLOTS, n, ncpu) : -ENOMEM;

	for (uint32_t slot = 0; !err && slot < WD_OVERFLOW_SLOTS; slot++) {
		struct wd_key key = { .reason = wd_slot_reason(slot) };

		if (n[slot])
			err = wd_keyset_push(kv, &key, n[slot]);
	}
	free(n);
	return err;
}

/*
 * Runs are read by seqcount: three copies of every CPU's slots, taken
 * where consistent (src/lib/counting/keyset.c). A slot that never settles is left
 * out, an undercount the monotonic clamp absorbs.
 */
static int read_runs(int fd, struct wd_keyset *kv, int ncpu)
{
	const size_t slots = WD_RUN_SETS * WD_RUN_WAYS;
	struct wd_runs *a = calloc((size_t)ncpu * 3, sizeof(*a));
	bool *taken = calloc((size_t)ncpu * slots, sizeof(*taken));
	uint32_t zero = 0;
	long left = 1;
	int err = 0;

	if (!a || !taken) {
		err = -ENOMEM;
		goto out;
	}
	for (int t = 0; t < RUNS_TRIES && left > 0; t++) {
		if (bpf_map_lookup_elem(fd, &zero, a) ||
		    bpf_map_lookup_elem(fd, &zero, a + ncpu) ||
		    bpf_map_lookup_elem(fd, &zero, a + 2 * ncpu)) {
			err = -errno;
			goto out;
		}
		left = wd_runs_take(a, a + ncpu, a + 2 * ncpu, ncpu, taken, kv);
		if (left < 0)
			err = (int)left;
	}
out:
	free(a);
	free(taken);
	return err;
}

/*
 * The runs, appended to kv; rows [from, to) of kv are the current hash's.
 * A run whose key the hash lacks enters it when evicted, maybe before the
 * next read: the swap decision counts it (wd_gen_half_full()).
 */
static int read_pending(struct wd_bpf *b, struct wd_keyset *kv, size_t from, size_t to,
			int ncpu)
{
	struct wd_keyset runs;
	long pending;
	int err;

	wd_keyset_init(&runs, sizeof(struct wd_key));
	err = read_runs(b->runs_fd, &runs, ncpu);
	if (err)
		goto out;
	pending = wd_keyset_count_absent(kv, from, to, &runs);
	if (pending < 0) {
		err = (int)pending;
		goto out;
	}
	wd_gen_note_pending(&b->counts, (size_t)pending);
	err = wd_keyset_append(kv, &runs);
out:
	wd_keyset_free(&runs);
	return err;
}

/* Every count by key: kept generations, this one's hash, overflow, runs; clamped. */
static int read_keys(struct wd_bpf *b, struct wd_keyset *kv, int ncpu)
{
	/* Order matters: hash and overflow before the runs. */
	int err = wd_gen_read(&b->counts, kv, ncpu);
	size_t to = kv->n;

	if (!err)
		err = read_overflow(b, kv, ncpu);
	if (!err)
		err = read_pending(b, kv, to - b->counts.cur_keys, to, ncpu);
	if (err)
		return err;
	wd_keyset_merge(kv);
	err = wd_keys_clamp(kv, &b->last);
	if (err)
		return err;
	/* the floor of the next snapshot */
	wd_keyset_clear(&b->last);
	return wd_keyset_append(&b->last, kv);
}

/*
 * What the program does not count itself, to keep a storm cheap: drops over
 * --rate are those counted minus those recorded or lost to a full ring
 * (0 while a live read of the counts lags the records), and the filter's
 * drops left unmatched for want of paged data, from its per-CPU state.
 */
static void derive_stats(struct wd_bpf *b, struct wd_stats *st, int ncpu)
{
	uint64_t done = st->v[WD_STAT_EMITTED] + st->v[WD_STAT_RING_FULL];
	struct wd_filter_ctx *fc;
	__u32 zero = 0;

	if (b->details)
		st->rate_limited = st->seen > done ? st->seen - done : 0;
	if (b->filter_ctx_fd < 0)
		return;
	fc = calloc((size_t)ncpu, sizeof(*fc));
	if (fc && !bpf_map_lookup_elem(b->filter_ctx_fd, &zero, fc))
		for (int c = 0; c < ncpu; c++)
			st->filter_nonlinear += fc[c].nonlinear;
	free(fc);
}

static int read_stats(struct wd_bpf *b, struct wd_stats *st, int ncpu)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);
	int err = wd_map_read_array(b->stats_fd, WD_STAT_MAX, st->v, ncpu);

	if (err)
		return err;
	derive_stats(b, st, ncpu);
	if (!bpf_obj_get_info_by_fd(b->prog_fd, &info, &len))
		st->recursion_misses = info.recursion_misses;
	return 0;
}

static int bpf_snapshot(struct wd_source *src, struct wd_snapshot *snap)
{
	struct wd_bpf *b = bpf_of(src);
	int ncpu = libbpf_num_possible_cpus();
	struct wd_keyset kv;
	int err;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	wd_keyset_init(&kv, sizeof(struct wd_key));
	err = read_keys(b, &kv, ncpu);
	if (!err)
		err = wd_keyset_append(&snap->keys, &kv);
	wd_keyset_free(&kv);
	if (err)
		return err;
	wd_keyset_merge(&snap->keys);
	snap->stats.seen = wd_keyset_sum(&snap->keys);
	err = read_stats(b, &snap->stats, ncpu);
	snap->lost_events += snap->stats.recursion_misses;
	if (!err && b->socks.cur_fd >= 0) {
		snap->has_socks = true;
		snap->sock_generation = b->socks.swaps;
		err = wd_gen_read(&b->socks, &snap->socks, ncpu);
		wd_keyset_merge(&snap->socks);
	}
	if (!err && b->stacks)
		err = wd_bpf_stack_totals(b, snap, ncpu);
	if (!err && b->flow_drops_fd >= 0)
		err = wd_bpf_tcp_drops(b, snap, ncpu);
	return err;
}

/* ------------------------------------------------------------ generations */

struct sock_fold {
	wd_sock_fold_fn fn;
	void *ctx;
};

/* A swapped-out socket's count: to the fold, else kept without its inode. */
static bool let_go(void *ctx, void *key, uint64_t count)
{
	struct sock_fold *f = ctx;
	struct wd_sock_total t;

	memcpy(&t.key, key, sizeof(t.key));
	t.count = count;
	if (f->fn && f->fn(f->ctx, &t))
		return false;
	if (t.key.ino)	/* 0: no socket, kept as such */
		((struct wd_sock_key *)key)->ino = WD_SOCK_INO_RETIRED;
	return true;
}

static int bpf_maintain(struct wd_source *src, wd_sock_fold_fn fold, void *ctx)
{
	struct wd_bpf *b = bpf_of(src);
	struct sock_fold f = { fold, ctx };
	int ncpu = libbpf_num_possible_cpus();
	int err = 0;

	/* Detached: nothing grows any more, the final read is exact as it is. */
	if (!b->link || ncpu <= 0)
		return 0;
	if (wd_gen_half_full(&b->counts))
		err = wd_gen_swap(&b->counts, ncpu, NULL, NULL);
	if (wd_gen_half_full(&b->socks)) {
		int e = wd_gen_swap(&b->socks, ncpu, let_go, &f);

		err = err ? err : e;
	}
	return err;
}

/* ------------------------------------------------------------ aging */

/* A key's namespace, if a says it is gone: not yet folded, nor unknown. */
static bool ns_gone(const struct wd_age *a, uint64_t cookie, uint32_t inode)
{
	const struct wd_netns_id ns = { cookie, inode };

	if (!a->netns_gone || (!cookie && !inode) || wd_netns_is_gone(&ns))
		return false;
	return a->netns_gone(a->ctx, &ns);
}

/* An interface a says is gone from a namespace that lives, not yet folded. */
static bool if_gone(const struct wd_age *a, const struct wd_key *k)
{
	const struct wd_netns_id ns = { k->netns_cookie, k->netns };

	return a->iface_gone && k->ifindex && k->ifindex != WD_IFINDEX_GONE &&
	       !wd_netns_is_gone(&ns) && a->iface_gone(a->ctx, &ns, k->ifindex);
}

/*
 * A drop count of a gone namespace: to its reason and location's "(gone)"
 * row; of a gone interface: to its namespace's.
 */
static bool fold_key(void *ctx, void *key)
{
	struct wd_key *k = key;

	if (!k->location)
		return false;	/* the overflow bucket has no namespace */
	if (ns_gone(ctx, k->netns_cookie, k->netns)) {
		k->netns_cookie = WD_NETNS_COOKIE_GONE;
		k->netns = 0;
		k->ifindex = 0;
		return true;
	}
	if (!if_gone(ctx, k))
		return false;
	k->ifindex = WD_IFINDEX_GONE;
	return true;
}

/* A cgroup a says is gone: not yet folded, nor none. */
static bool cg_gone(const struct wd_age *a, uint64_t id)
{
	return a->cgroup_gone && id && id != WD_CGROUP_GONE && a->cgroup_gone(a->ctx, id);
}

/* A swapped-out count by socket of a gone namespace or cgroup: kept without it. */
static bool fold_sock_key(void *ctx, void *key)
{
	struct wd_sock_key *k = key;
	bool moved = false;

	if (ns_gone(ctx, k->netns_cookie, k->netns)) {
		k->netns_cookie = WD_NETNS_COOKIE_GONE;
		k->netns = 0;
		moved = true;
	}
	if (cg_gone(ctx, k->cgroup_id)) {
		k->cgroup_id = WD_CGROUP_GONE;
		moved = true;
	}
	return moved;
}

/* The keys of the last read (the floor) whose namespace is gone, not folded yet. */
static size_t count_gone(const struct wd_keyset *last, struct wd_age *a)
{
	struct wd_key k;
	size_t n = 0;

	for (size_t i = 0; i < last->n; i++) {
		memcpy(&k, wd_keyset_key(last, i), sizeof(k));
		n += fold_key(a, &k);
	}
	return n;
}

/*
 * Once the gone namespaces' keys are a quarter of the hash, and at least
 * GONE_SWAP_MIN, it is swapped out to fold them: else a host that makes
 * and deletes namespaces keeps them in the hash, read and named at every
 * read, until it is half full (--map-size).
 */
static int swap_gone(struct wd_bpf *b, struct wd_age *a)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t gone;
	int err;

	if (!b->link || ncpu <= 0 || b->counts.cur_fd < 0)
		return 0;
	gone = count_gone(&b->last, a);
	if (gone < GONE_SWAP_MIN || 4 * gone < b->counts.cur_keys)
		return 0;
	err = wd_gen_swap(&b->counts, ncpu, NULL, NULL);
	if (!err)
		err = wd_keyset_fold(&b->counts.retired, &b->last, fold_key, a);
	return err;
}

/*
 * Only the retired counts fold: a key still in the hash or a run waits for
 * the swap that retires it (swap_gone()). The floor of live reads moves
 * alike.
 */
static int bpf_age(struct wd_source *src, const struct wd_age *a)
{
	struct wd_bpf *b = bpf_of(src);
	struct wd_age copy = *a;
	int err = wd_keyset_fold(&b->counts.retired, &b->last, fold_key, &copy);

	if (!err && copy.netns_gone)
		err = swap_gone(b, &copy);
	if (!err && b->socks.cur_fd >= 0)
		err = wd_keyset_fold(&b->socks.retired, NULL, fold_sock_key, &copy);
	return err;
}

struct id_list {
	const uint64_t *ids;
	size_t n;
};

static bool not_listed(void *ctx, void *key, uint64_t count)
{
	const struct id_list *l = ctx;

	(void)count;
	return !wd_sorted_has_u64(l->ids, l->n, ((const struct wd_sock_key *)key)->cgroup_id);
}

/* The keys of the current hash that name these cgroups, deleted. */
static int forget_in_kernel(int fd, const struct id_list *l)
{
	int ncpu = libbpf_num_possible_cpus();
	struct wd_keyset ks;
	int err;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	wd_keyset_init(&ks, sizeof(struct wd_sock_key));
	err = wd_map_read_hash(fd, &ks, ncpu);
	for (size_t i = 0; !err && i < ks.n; i++) {
		const struct wd_sock_key *k = wd_keyset_key(&ks, i);

		if (wd_sorted_has_u64(l->ids, l->n, k->cgroup_id) && bpf_map_delete_elem(fd, k) &&
		    errno != ENOENT)
			err = -errno;
	}
	wd_keyset_free(&ks);
	return err;
}

static int bpf_forget_cgroups(struct wd_source *src, const uint64_t *ids, size_t n)
{
	struct wd_bpf *b = bpf_of(src);
	struct id_list l = { ids, n };

	if (!n || b->socks.cur_fd < 0)
		return 0;
	wd_keyset_filter(&b->socks.retired, not_listed, &l);
	return forget_in_kernel(b->socks.cur_fd, &l);
}

static int bpf_stack(struct wd_source *src, int32_t stack_id, struct wd_stack *st)
{
	return wd_bpf_stack(bpf_of(src), &src->s->ksyms, stack_id, st);
}

const struct wd_source_ops wd_source_bpf_ops = {
	.name = "bpf",
	.open = bpf_open,
	.fd = bpf_fd,
	.poll = bpf_poll,
	.snapshot = bpf_snapshot,
	.maintain = bpf_maintain,
	.age = bpf_age,
	.detach = bpf_detach,
	.close = bpf_close,
	.stack = bpf_stack,
	.forget_cgroups = bpf_forget_cgroups,
};
