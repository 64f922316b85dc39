// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The library half of --rules on fixtures (tests/unit/fixtures/nftrace/
 * README): trace messages captured from 6.18 parsed with libnftnl, the
 * per-rule claims they make, nft's listings parsed into rule text and
 * comments, conntrack's statistics of three kernel shapes, and the names
 * of whydrop's tables.
 */
#include <ctype.h>
#include <unistd.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "unit.h"
#include "conntrack_stats.h"
#include "nftables_setup.h"
#include "nftrace.h"
#include "nftrace_claims.h"
#include "nftrules.h"

#define FIX "tests/unit/fixtures/nftrace/"
#define N_TRACES 20

static uint8_t msgs[N_TRACES][1024];
static size_t lens[N_TRACES];

static int load_traces(void)
{
	char *text = unit_slurp(FIX "trace-6.18.hex"), *p = text;
	int n = 0;

	if (!text)
		return -1;
	while (*p && n < N_TRACES) {
		size_t len = 0;

		for (; isxdigit((unsigned char)p[0]) && len < sizeof(msgs[0]); p += 2) {
			unsigned int b;

			sscanf(p, "%2x", &b);
			msgs[n][len++] = (uint8_t)b;
		}
		lens[n++] = len;
		while (*p == '\n')
			p++;
	}
	free(text);
	return n;
}

static void test_parse(void)
{
	struct wd_nftrace_event ev;
	char buf[32];

	CHECK_INT(load_traces(), N_TRACES);
	for (int i = 0; i < N_TRACES; i++)
		CHECK_INT(wd_nftrace_parse(msgs[i], lens[i], &ev), 1);

	/* the marking rule: first message of the chain, with the packet */
	wd_nftrace_parse(msgs[0], lens[0], &ev);
	CHECK_INT(ev.type, NFT_TRACETYPE_RULE);
	CHECK_INT(ev.family, NFPROTO_INET);
	CHECK_STR(ev.table, "fw");
	CHECK_STR(ev.chain, "input");
	CHECK(ev.has_handle && ev.handle == 4);
	CHECK(ev.has_verdict && ev.verdict == NFT_CONTINUE);
	CHECK(ev.has_nfproto && ev.nfproto == NFPROTO_IPV4);
	CHECK(ev.has_iif && ev.iif == 1);
	CHECK_INT(ev.nh_len, 20);
	CHECK_INT(ev.nh[0], 0x45);
	CHECK_INT(ev.nh[9], 17);	/* UDP */
	CHECK(!wd_nftrace_is_drop(&ev));

	/* the rule's drop, same packet */
	wd_nftrace_parse(msgs[1], lens[1], &ev);
	CHECK_INT(ev.id, 0x93f7a788);
	CHECK(ev.has_handle && ev.handle == 6);
	CHECK(ev.has_verdict && ev.verdict == NF_DROP);
	CHECK(wd_nftrace_is_drop(&ev));
	CHECK_STR(wd_nftrace_verdict_name(ev.verdict, buf, sizeof(buf)), "drop");
	CHECK_INT(ev.nh_len, 0);

	/* a chain's end: a rule trace without handle, then its policy */
	wd_nftrace_parse(msgs[3], lens[3], &ev);
	CHECK(ev.type == NFT_TRACETYPE_RULE && !ev.has_handle);
	wd_nftrace_parse(msgs[4], lens[4], &ev);
	CHECK_INT(ev.type, NFT_TRACETYPE_POLICY);
	CHECK(ev.has_policy && ev.policy == NF_ACCEPT && !ev.has_verdict);
	CHECK(!wd_nftrace_is_drop(&ev));
	wd_nftrace_parse(msgs[6], lens[6], &ev);
	CHECK_INT(ev.family, NFPROTO_IPV4);
	CHECK_STR(ev.table, "pol");
	CHECK(ev.has_policy && ev.policy == NF_DROP);
	CHECK(wd_nftrace_is_drop(&ev));
	CHECK_STR(wd_nftrace_type_name(ev.type, buf, sizeof(buf)), "policy");

	/* jump and return */
	wd_nftrace_parse(msgs[8], lens[8], &ev);
	CHECK(ev.has_verdict && ev.verdict == NFT_JUMP);
	CHECK_STR(ev.jump_target, "sub");
	CHECK_STR(wd_nftrace_verdict_name(ev.verdict, buf, sizeof(buf)), "jump");
	wd_nftrace_parse(msgs[9], lens[9], &ev);
	CHECK_STR(ev.chain, "sub");
	CHECK(ev.has_verdict && ev.verdict == NFT_RETURN);
	CHECK(!wd_nftrace_is_drop(&ev));

	/* ICMP port unreachable, and IPv6 */
	wd_nftrace_parse(msgs[13], lens[13], &ev);
	CHECK_INT(ev.nh[9], 1);
	wd_nftrace_parse(msgs[18], lens[18], &ev);
	CHECK(ev.has_nfproto && ev.nfproto == NFPROTO_IPV6);
	CHECK_INT(ev.nh_len, 40);
	CHECK_INT(ev.nh[0] >> 4, 6);
	CHECK_INT(ev.nh[6], 17);
}

static void test_parse_bad(void)
{
	struct wd_nftrace_event ev;
	uint8_t m[1024];

	/* truncated: the header says more than there is */
	CHECK_INT(wd_nftrace_parse(msgs[1], 30, &ev), 0);
	/* (a malformed attribute is not tried: libnftnl aborts on it, which is
	 * why only the kernel's messages are parsed, see nftrace.c) */
	/* another message type */
	memcpy(m, msgs[1], lens[1]);
	m[4] = NFT_MSG_NEWRULE;
	CHECK_INT(wd_nftrace_parse(m, lens[1], &ev), 0);
}

static void test_names(void)
{
	char buf[64];

	CHECK_STR(wd_nftrace_verdict_name(NF_ACCEPT, buf, sizeof(buf)), "accept");
	CHECK_STR(wd_nftrace_verdict_name(NF_DROP_ERR(-1), buf, sizeof(buf)), "drop");
	CHECK_STR(wd_nftrace_verdict_name((2 << 16) | NF_QUEUE, buf, sizeof(buf)), "queue");
	CHECK_STR(wd_nftrace_verdict_name(NFT_GOTO, buf, sizeof(buf)), "goto");
	CHECK_STR(wd_nftrace_verdict_name(-9, buf, sizeof(buf)), "verdict -9");
	CHECK_STR(wd_nft_family_name(NFPROTO_IPV6, buf, sizeof(buf)), "ip6");
	CHECK_STR(wd_nft_family_name(NFPROTO_NETDEV, buf, sizeof(buf)), "netdev");
	CHECK_STR(wd_nft_policy_text(NF_DROP, "input", buf, sizeof(buf)),
		  "policy drop of chain input");
}

static void feed(struct wd_nft_claims *c)
{
	struct wd_nftrace_event ev;

	for (int i = 0; i < N_TRACES; i++)
		if (wd_nftrace_parse(msgs[i], lens[i], &ev) == 1)
			wd_nft_claims_add(c, &ev, NULL);
}

static void test_claims(void)
{
	struct wd_nft_claims *c = malloc(sizeof(*c));

	/* the fixture's marking rule is fw's handle 4: fw plays whydrop's table */
	wd_nft_claims_init(c, "fw");
	feed(c);
	CHECK_INT(c->marked, 5);
	CHECK_INT(c->claimed, 4);
	CHECK_INT(c->foreign, 0);
	CHECK_INT(wd_nft_claims_count(c, NFPROTO_INET, "fw", "input", false, 6), 2);
	CHECK_INT(wd_nft_claims_count(c, NFPROTO_IPV4, "pol", "input", true, 0), 2);
	CHECK_INT(wd_nft_claims_count(c, NFPROTO_INET, "fw", "input", true, 0), 0);
	CHECK_INT(c->n, 2);
	wd_nft_claims_free(c);

	/* the same traces when another table marks: nothing is whydrop's */
	wd_nft_claims_init(c, "whydrop_1_2_3");
	feed(c);
	CHECK_INT(c->marked, 0);
	CHECK_INT(c->claimed, 0);
	CHECK_INT(c->foreign, 4);
	wd_nft_claims_free(c);
	free(c);
}

/* Marks age out after WD_NFT_MARKS newer ones; a drop then is foreign. */
static void test_claims_aging(void)
{
	struct wd_nft_claims *c = malloc(sizeof(*c));
	struct wd_nftrace_event mark = { .type = NFT_TRACETYPE_RULE, .family = NFPROTO_INET,
					 .has_handle = true, .handle = 2, .has_verdict = true,
					 .verdict = NFT_CONTINUE, .table = "own" };
	struct wd_nftrace_event drop = { .type = NFT_TRACETYPE_RULE, .family = NFPROTO_INET,
					 .has_handle = true, .handle = 7, .has_verdict = true,
					 .verdict = NF_DROP, .table = "t", .chain = "c" };
	const struct wd_nft_claim *k;

	wd_nft_claims_init(c, "own");
	for (uint32_t id = 1; id <= WD_NFT_MARKS + 1; id++) {
		mark.id = id;
		wd_nft_claims_add(c, &mark, NULL);
	}
	drop.id = 1;	/* forgotten */
	CHECK_INT(wd_nft_claims_add(c, &drop, &k), WD_NFT_FOREIGN);
	CHECK(k == NULL);
	drop.id = 2;
	CHECK_INT(wd_nft_claims_add(c, &drop, &k), WD_NFT_CLAIMED);
	CHECK(k && k->handle == 7 && k->count == 1);
	drop.id = WD_NFT_MARKS + 1;
	CHECK_INT(wd_nft_claims_add(c, &drop, &k), WD_NFT_CLAIMED);
	CHECK(k && k->count == 2);
	/* a mark seen twice (two hooks) takes one slot */
	mark.id = 5000;
	wd_nft_claims_add(c, &mark, NULL);
	wd_nft_claims_add(c, &mark, NULL);
	drop.id = 3;
	CHECK_INT(wd_nft_claims_add(c, &drop, NULL), WD_NFT_CLAIMED);
	wd_nft_claims_free(c);
	free(c);
}

/*
 * -i: a drop verdict counts only when its trace names that input device
 * (prerouting, input, forward); one at postrouting (no input device) or
 * of another device is not among the drops -i counts: neither claimed
 * nor foreign, even for a packet marked earlier.
 */
static void test_claims_ifindex(void)
{
	struct wd_nft_claims *c = malloc(sizeof(*c));
	struct wd_nftrace_event mark = { .id = 1, .type = NFT_TRACETYPE_RULE,
					 .family = NFPROTO_INET, .has_handle = true, .handle = 2,
					 .has_verdict = true, .verdict = NF_ACCEPT, .table = "own",
					 .has_iif = true, .iif = 4 };
	struct wd_nftrace_event drop = { .id = 1, .type = NFT_TRACETYPE_RULE,
					 .family = NFPROTO_INET, .has_handle = true, .handle = 7,
					 .has_verdict = true, .verdict = NF_DROP, .table = "t",
					 .chain = "c", .has_iif = true, .iif = 4 };

	wd_nft_claims_init(c, "own");
	c->ifindex = 4;
	wd_nft_claims_add(c, &mark, NULL);
	CHECK_INT(wd_nft_claims_add(c, &drop, NULL), WD_NFT_CLAIMED);
	drop.iif = 5;
	CHECK_INT(wd_nft_claims_add(c, &drop, NULL), WD_NFT_NOT_DROP);
	drop.has_iif = false;
	drop.has_oif = true;
	drop.oif = 4;
	CHECK_INT(wd_nft_claims_add(c, &drop, NULL), WD_NFT_NOT_DROP);
	drop.id = 9;	/* not marked: someone else's, on this device */
	drop.has_iif = true;
	drop.iif = 4;
	CHECK_INT(wd_nft_claims_add(c, &drop, NULL), WD_NFT_FOREIGN);
	CHECK_INT(c->claimed, 1);
	CHECK_INT(c->foreign, 1);
	wd_nft_claims_free(c);
	free(c);
}

static const struct wd_nft_rule_entry *entry(struct wd_nft_rule_entry *v, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].handle == h)
			return &v[i];
	return NULL;
}

static void test_rules_parse(void)
{
	char *text = unit_slurp(FIX "list-inet-fw.txt");
	char *json = unit_slurp(FIX "list-inet-fw.json");
	struct wd_nft_rule_entry *v;
	const struct wd_nft_rule_entry *e;
	size_t n;

	CHECK(text && json);
	CHECK_INT(wd_nft_rules_parse(text, json, &v, &n), 0);
	CHECK_INT(n, 6);	/* rules only: no table, set or chain lines */
	e = entry(v, n, 6);
	CHECK(e && !strcmp(e->chain, "input"));
	CHECK(e && !strcmp(e->text, "udp dport 7777 counter drop comment \"block legacy app\""));
	CHECK(e && e->comment && !strcmp(e->comment, "block legacy app"));
	e = entry(v, n, 7);
	CHECK(e && !strcmp(e->text, "ip saddr @blocked counter drop") && !e->comment);
	e = entry(v, n, 4);
	CHECK(e && !strcmp(e->chain, "sub") && !strcmp(e->text, "udp dport 7779 return"));
	/* "# handle" inside a comment: the last one is the handle */
	e = entry(v, n, 10);
	CHECK(e && !strcmp(e->text, "udp dport { 7001, 7002 } drop comment \"see # handle 9\""));
	CHECK(e && e->comment && !strcmp(e->comment, "see # handle 9"));
	CHECK(entry(v, n, 9) == NULL && entry(v, n, 3) == NULL && entry(v, n, 2) == NULL);
	wd_nft_rules_entries_free(v, n);
	/* without JSON: text, no comments */
	CHECK_INT(wd_nft_rules_parse(text, NULL, &v, &n), 0);
	e = entry(v, n, 6);
	CHECK(e && !e->comment);
	wd_nft_rules_entries_free(v, n);
	free(text);
	free(json);

	/* iptables-nft: the xt comment match is no rule comment to nft */
	text = unit_slurp(FIX "list-ip-filter.txt");
	json = unit_slurp(FIX "list-ip-filter.json");
	CHECK_INT(wd_nft_rules_parse(text, json, &v, &n), 0);
	CHECK_INT(n, 1);
	e = entry(v, n, 2);
	CHECK(e && !strcmp(e->chain, "INPUT") && !strcmp(e->text, "udp dport 7781  counter drop"));
	CHECK(e && !e->comment);
	wd_nft_rules_entries_free(v, n);
	free(text);
	free(json);
	CHECK_INT(wd_nft_rules_parse("x # handle 1\n", "not json", &v, &n), -1);
}

static void test_listable(void)
{
	CHECK(wd_nft_name_listable("fw"));
	CHECK(wd_nft_name_listable("filter"));
	CHECK(wd_nft_name_listable("my-table_2.v/x"));
	CHECK(!wd_nft_name_listable("2fw"));
	CHECK(!wd_nft_name_listable("a b"));
	CHECK(!wd_nft_name_listable("x\";flush ruleset"));
	CHECK(!wd_nft_name_listable(""));
}

static void test_conntrack(void)
{
	char *t = unit_slurp(FIX "nf_conntrack-6.18.txt");
	struct wd_ct_stats a = { 0 }, b = { 0 };
	struct wd_ct_cause c;

	CHECK_INT(wd_ct_stats_parse(t, &a), 0);
	CHECK_INT(a.cpus, 2);
	CHECK_INT(a.v[WD_CT_ENTRIES], 3);
	CHECK_INT(a.v[WD_CT_INVALID], 5);
	CHECK_INT(a.v[WD_CT_DROP], 0);
	CHECK(a.have & (1u << WD_CT_CHAINLENGTH));
	CHECK(a.have & (1u << WD_CT_INSERT_FAILED));
	free(t);

	t = unit_slurp(FIX "nf_conntrack-5.10.txt");
	CHECK_INT(wd_ct_stats_parse(t, &b), 0);
	CHECK_INT(b.cpus, 4);
	CHECK_INT(b.v[WD_CT_ENTRIES], 0x2a);
	CHECK_INT(b.v[WD_CT_FOUND], 0x21);
	CHECK_INT(b.v[WD_CT_INVALID], 3);
	CHECK_INT(b.v[WD_CT_INSERT_FAILED], 3);
	CHECK_INT(b.v[WD_CT_DROP], 5);
	CHECK_INT(b.v[WD_CT_EARLY_DROP], 5);
	CHECK_INT(b.v[WD_CT_SEARCH_RESTART], 1);
	CHECK(!(b.have & (1u << WD_CT_CHAINLENGTH)));
	free(t);

	t = unit_slurp(FIX "nf_conntrack-4.9.txt");
	CHECK_INT(wd_ct_stats_parse(t, &b), 0);
	CHECK_INT(b.v[WD_CT_ENTRIES], 0x100);
	CHECK_INT(b.v[WD_CT_DROP], 9);
	CHECK(!(b.have & (1u << WD_CT_CLASHRES)));
	free(t);

	CHECK_INT(wd_ct_stats_parse("", &b), -1);
	CHECK_INT(wd_ct_stats_parse("entries drop\n", &b), -1);	/* no row */
	CHECK_INT(wd_ct_stats_parse("drop entries\n1 2\n", &b), -1);	/* not that file */
	CHECK_INT(wd_ct_stats_parse("entries drop\n1 zz\n", &b), -1);
	CHECK_INT(wd_ct_stats_parse("entries drop\n1 2 3\n", &b), -1);	/* one too many */
	CHECK_INT(wd_ct_stats_parse("entries drop\n1\n", &b), -1);	/* one too few */

	/* full table: drop moved, the count at its max */
	a = (struct wd_ct_stats){ .have = ~0u, .has_count = true, .has_max = true };
	b = a;
	b.v[WD_CT_DROP] = 7;
	b.count = b.max = 65536;
	wd_ct_explain(&a, &b, &c);
	CHECK(c.dropped && c.table_full && c.drop == 7);
	CHECK(!strncmp(c.text, "conntrack table full (65536 of max 65536); conntrack dropped 7",
		       strlen("conntrack table full (65536 of max 65536); conntrack dropped 7")));
	/* drop moved, table not full: no claim of fullness */
	b.count = 10;
	wd_ct_explain(&a, &b, &c);
	CHECK(c.dropped && !c.table_full);
	CHECK(!strstr(c.text, "full"));
	/* invalid alone: nothing dropped by conntrack itself */
	b = a;
	b.v[WD_CT_INVALID] = 4;
	wd_ct_explain(&a, &b, &c);
	CHECK(!c.dropped && c.invalid == 4);
	CHECK(strstr(c.text, "4 packets invalid for conntrack") != NULL);
	/* nothing moved */
	wd_ct_explain(&a, &a, &c);
	CHECK_STR(c.text, "");
	/* a counter that went back (namespace recreated): no delta */
	b = a;
	a.v[WD_CT_DROP] = 9;
	wd_ct_explain(&a, &b, &c);
	CHECK_INT(c.drop, 0);
}

static void test_table_names(void)
{
	struct wd_nft_owner o;
	char name[WD_NFT_TABLE_NAME_LEN];

	CHECK_INT(wd_nft_trace_parse_name("whydrop_4026531836_1234_98765", &o), 0);
	CHECK(o.pidns == 4026531836ULL && o.pid == 1234 && o.start == 98765);
	CHECK_INT(wd_nft_trace_parse_name("whydrop_1_2", &o), -1);
	CHECK_INT(wd_nft_trace_parse_name("whydrop_1_2_3x", &o), -1);
	CHECK_INT(wd_nft_trace_parse_name("whydrop_1_0_3", &o), -1);
	CHECK_INT(wd_nft_trace_parse_name("whydropx_1_2_3", &o), -1);
	CHECK_INT(wd_nft_trace_parse_name("fw", &o), -1);
	CHECK_INT(wd_nft_trace_table_name(name, sizeof(name)), 0);
	CHECK_INT(wd_nft_trace_parse_name(name, &o), 0);
	CHECK_INT(o.pid, getpid());
	CHECK_INT(wd_nft_owner_state(&o), WD_NFT_OWNER_ALIVE);
	o.start++;	/* the pid, another process */
	CHECK_INT(wd_nft_owner_state(&o), WD_NFT_OWNER_DEAD);
	o.pidns++;
	CHECK_INT(wd_nft_owner_state(&o), WD_NFT_OWNER_UNKNOWN);
	CHECK_INT(wd_nft_trace_table_name(name, 10), -1);
}

UNIT_MAIN(test_parse, test_parse_bad, test_names, test_claims, test_claims_aging,
	  test_claims_ifindex, test_rules_parse, test_listable, test_conntrack, test_table_names)
