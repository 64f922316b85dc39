// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Drops of marked packets per rule, from trace messages; see nftrace_claims.h. */
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "grow.h"
#include "nftrace_claims.h"

#define N_BUCKETS	(2 * WD_NFT_MARKS)

void wd_nft_claims_init(struct wd_nft_claims *c, const char *own_table)
{
	memset(c, 0, sizeof(*c));
	strncpy(c->own_table, own_table, sizeof(c->own_table) - 1);
	for (size_t i = 0; i < N_BUCKETS; i++)
		c->buckets[i] = -1;
}

static size_t bucket_of(uint32_t id)
{
	return (id * 2654435761u) % N_BUCKETS;
}

static bool is_marked(const struct wd_nft_claims *c, uint32_t id)
{
	for (int32_t i = c->buckets[bucket_of(id)]; i >= 0; i = c->marks[i].next)
		if (c->marks[i].id == id)
			return true;
	return false;
}

static void unlink_mark(struct wd_nft_claims *c, int32_t idx)
{
	int32_t *p = &c->buckets[bucket_of(c->marks[idx].id)];

	while (*p >= 0 && *p != idx)
		p = &c->marks[*p].next;
	if (*p == idx)
		*p = c->marks[idx].next;
	c->marks[idx].used = false;
}

/* Remember @id, forgetting the oldest mark when all slots are taken. */
static void add_mark(struct wd_nft_claims *c, uint32_t id)
{
	int32_t idx = (int32_t)c->next_mark;
	size_t b = bucket_of(id);

	c->marked++;
	if (is_marked(c, id))
		return;
	if (c->marks[idx].used)
		unlink_mark(c, idx);
	c->marks[idx].id = id;
	c->marks[idx].used = true;
	c->marks[idx].next = c->buckets[b];
	c->buckets[b] = idx;
	c->next_mark = (c->next_mark + 1) % WD_NFT_MARKS;
}

static bool same(const struct wd_nft_claim *k, uint32_t family, const char *table,
		 const char *chain, bool policy, uint64_t handle)
{
	return k->family == family && k->policy == policy && (policy || k->handle == handle) &&
	       !strcmp(k->table, table) && !strcmp(k->chain, chain);
}

static struct wd_nft_claim *claim_for(struct wd_nft_claims *c, const struct wd_nftrace_event *ev)
{
	bool policy = ev->type == NFT_TRACETYPE_POLICY;
	uint64_t handle = policy ? 0 : ev->handle;
	struct wd_nft_claim *k;

	for (size_t i = 0; i < c->n; i++)
		if (same(&c->v[i], ev->family, ev->table, ev->chain, policy, handle))
			return &c->v[i];
	if (c->n == WD_NFT_CLAIMS_MAX)
		return NULL;
	if (wd_grow(&c->v, &c->cap, c->n, sizeof(*c->v), 16))
		return NULL;
	k = &c->v[c->n++];
	memset(k, 0, sizeof(*k));
	k->family = ev->family;
	memcpy(k->table, ev->table, sizeof(k->table));
	memcpy(k->chain, ev->chain, sizeof(k->chain));
	k->policy = policy;
	k->handle = handle;
	return k;
}

enum wd_nft_claim_result wd_nft_claims_add(struct wd_nft_claims *c,
					   const struct wd_nftrace_event *ev,
					   const struct wd_nft_claim **claim)
{
	struct wd_nft_claim *k;

	if (claim)
		*claim = NULL;
	/*
	 * whydrop's marking rule matched: a rule trace of its table with a
	 * handle and verdict accept (`meta nftrace set 1 accept`; continue
	 * without the accept). A chain's end also sends a rule trace, without
	 * handle, for packets marked before: not a mark.
	 */
	if (ev->type == NFT_TRACETYPE_RULE && ev->has_handle && ev->has_verdict &&
	    (ev->verdict == NF_ACCEPT || ev->verdict == NFT_CONTINUE) &&
	    !strcmp(ev->table, c->own_table)) {
		add_mark(c, ev->id);
		return WD_NFT_NOT_DROP;
	}
	if (!wd_nftrace_is_drop(ev))
		return WD_NFT_NOT_DROP;
	if (c->ifindex && (!ev->has_iif || ev->iif != c->ifindex))
		return WD_NFT_NOT_DROP;
	if (!is_marked(c, ev->id)) {
		c->foreign++;
		return WD_NFT_FOREIGN;
	}
	c->claimed++;
	k = claim_for(c, ev);
	if (!k) {
		c->other++;
		return WD_NFT_CLAIMED;
	}
	k->count++;
	if (claim)
		*claim = k;
	return WD_NFT_CLAIMED;
}

uint64_t wd_nft_claims_count(const struct wd_nft_claims *c, uint32_t family, const char *table,
			     const char *chain, bool policy, uint64_t handle)
{
	for (size_t i = 0; i < c->n; i++)
		if (same(&c->v[i], family, table, chain, policy, policy ? 0 : handle))
			return c->v[i].count;
	return 0;
}

void wd_nft_claims_free(struct wd_nft_claims *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}
