// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The diagnosis engine on fixture rows and counter deltas: the cause of a
 * reason at a place, told apart by the counters that moved and by sysctls,
 * its confidence and evidence; and the causes table against the catalogue.
 */
#include <stdlib.h>
#include <string.h>

#include "callsites.h"
#include "catalogue.h"
#include "diagnose.h"
#include "unit.h"

/* Two samples: every counter given moved from 100 by its delta. */
struct sample {
	struct wd_counters before, after;
};

/* What a sample read: a counter that moved by @v, or a sysctl read as @v. */
struct reading {
	const char *name;
	uint64_t v;
	bool sysctl;
};

#define MOVED(name, delta)	{ name, delta, false }
#define SYSCTL(name, v)		{ name, v, true }
#define READINGS(...)		((const struct reading[]){ __VA_ARGS__, { NULL } })

static void moved(struct sample *s, const char *name, uint64_t delta)
{
	CHECK_INT(wd_counters_set(&s->before, name, 100), 0);
	CHECK_INT(wd_counters_set(&s->after, name, 100 + delta), 0);
}

static void sysctl(struct sample *s, const char *name, uint64_t v)
{
	char key[128];

	snprintf(key, sizeof(key), WD_SYSCTL_PREFIX "%s", name);
	CHECK_INT(wd_counters_set(&s->after, key, v), 0);
}

/* The two samples of @r (up to its NULL name). */
static void sample_of(struct sample *s, const struct reading *r)
{
	wd_counters_init(&s->before);
	wd_counters_init(&s->after);
	for (; r->name; r++) {
		if (r->sysctl)
			sysctl(s, r->name, r->v);
		else
			moved(s, r->name, r->v);
	}
}

static void sample_free(struct sample *s)
{
	wd_counters_free(&s->before);
	wd_counters_free(&s->after);
}

static void diag(const char *reason, const char *function, uint64_t count,
		 const struct sample *s, const struct wd_traced *t, size_t nt,
		 struct wd_diagnosis *d)
{
	struct wd_diag_row row = { reason, function, count };
	struct wd_diag_ctx x = { s ? &s->before : NULL, s ? &s->after : NULL, t, nt };

	wd_diagnose(&row, s ? &x : NULL, d);
}

/*
 * @count drops of @reason at @function, the only drops traced (in this
 * namespace unless @elsewhere), against the samples of @r.
 */
static void diag_alone(const char *reason, const char *function, uint64_t count,
		       bool elsewhere, const struct reading *r, struct wd_diagnosis *d)
{
	const struct wd_traced t[] = { { reason, function, count, elsewhere } };
	struct sample s;

	sample_of(&s, r);
	diag(reason, function, count, &s, t, 1, d);
	sample_free(&s);
}

static bool has(const char *s, const char *part)
{
	return s && strstr(s, part);
}

#define CHECK_HAS(s, part) \
	UNIT_RECORD(has(s, part), "\"%s\" lacks \"%s\"", (s) ? (s) : "(null)", part)
/* The diagnosis names the cause @want with confidence @conf. */
#define CHECK_CAUSE(d, want, conf) do {						\
	CHECK_HAS((d).text, want);						\
	CHECK_INT((d).confidence, conf);					\
} while (0)

/* The issue's case: 6 packets with TTL 1 on a router. */
static void test_ttl_expired(void)
{
	const struct wd_traced t[] = { { "IP_INHDR", "ip_forward", 6, false } };
	struct wd_diagnosis d;
	struct sample s;

	sample_of(&s, READINGS(MOVED("IpInHdrErrors", 6), MOVED("IcmpOutTimeExcds", 6),
			       SYSCTL("net.ipv4.ip_forward", 1)));
	diag("IP_INHDR", "ip_forward", 6, &s, t, 1, &d);
	CHECK_CAUSE(d, "TTL expired", WD_CONF_HIGH);
	CHECK_HAS(d.evidence, "IpInHdrErrors +6, the same as these drops");
	CHECK_HAS(d.evidence, "net.ipv4.ip_forward=1 here");
	CHECK_HAS(d.remedy, "loop");
	CHECK(d.cause && !strcmp(d.cause->function, "ip_forward"));
	/* a suffixed symbol is the same place */
	diag("SKB_DROP_REASON_IP_INHDR", "ip_forward.cold", 6, &s, NULL, 0, &d);
	CHECK_HAS(d.text, "TTL expired");
	/* without counters: the place alone, one cause there */
	diag("IP_INHDR", "ip_forward", 6, NULL, NULL, 0, &d);
	CHECK_CAUSE(d, "TTL expired", WD_CONF_MEDIUM);
	CHECK_HAS(d.evidence, "by place: IP_INHDR at ip_forward");
	/* the same reason on input is a broken header */
	diag("IP_INHDR", "ip_rcv_core", 3, NULL, NULL, 0, &d);
	CHECK_HAS(d.text, "invalid IPv4 header");
	diag("IP_INHDR", "ip6_forward", 3, NULL, NULL, 0, &d);
	CHECK_HAS(d.text, "hop limit expired");
	sample_free(&s);
}

/* One counter, two places: it moved by the drops of both. */
static void test_shared_counter(void)
{
	const struct wd_traced t[] = {
		{ "IP_INHDR", "ip_forward", 6, false },
		{ "IP_INHDR", "ip_rcv_core", 3, false },
	};
	struct wd_diagnosis d;
	struct sample s;

	sample_of(&s, READINGS(MOVED("IpInHdrErrors", 9)));
	diag("IP_INHDR", "ip_forward", 6, &s, t, 2, &d);
	CHECK_CAUSE(d, "TTL expired", WD_CONF_HIGH);
	CHECK_HAS(d.evidence, "IpInHdrErrors +9, the same as the drops of every place it goes "
		  "with (6 here)");
	diag("IP_INHDR", "ip_rcv_core", 3, &s, t, 2, &d);
	CHECK_CAUSE(d, "invalid IPv4 header", WD_CONF_HIGH);
	sample_free(&s);
}

static void test_counters_disagree(void)
{
	struct wd_diagnosis d;

	/* other drops moved it too */
	diag_alone("IP_INHDR", "ip_forward", 6, false, READINGS(MOVED("IpInHdrErrors", 10)), &d);
	CHECK_CAUSE(d, "TTL expired", WD_CONF_MEDIUM);
	CHECK_HAS(d.evidence, "IpInHdrErrors +10 for 6 drops here");

	/* read, and still */
	diag_alone("IP_INHDR", "ip_forward", 6, false, READINGS(MOVED("IpInHdrErrors", 0)), &d);
	CHECK_CAUSE(d, "TTL expired", WD_CONF_LOW);
	CHECK_HAS(d.evidence, "IpInHdrErrors did not move");

	/* the drops are another namespace's than the counters' */
	diag_alone("IP_INHDR", "ip_forward", 6, true, READINGS(MOVED("IpInHdrErrors", 6)), &d);
	CHECK_CAUSE(d, "TTL expired", WD_CONF_MEDIUM);
	CHECK_HAS(d.evidence, "another namespace");
}

/* nf_hook_slow: a legacy rule unless conntrack's own counters say it dropped. */
static void test_netfilter(void)
{
	struct wd_diagnosis d;

	diag_alone("NETFILTER_DROP", "nf_hook_slow", 4, false,
		   READINGS(MOVED("conntrack:drop", 4), MOVED("conntrack:insert_failed", 0),
			    SYSCTL("net.netfilter.nf_conntrack_max", 262144)), &d);
	CHECK_CAUSE(d, "conntrack refused it", WD_CONF_HIGH);
	CHECK_HAS(d.evidence, "conntrack:drop +4");
	CHECK_HAS(d.evidence, "nf_conntrack_max=262144 here");

	diag_alone("NETFILTER_DROP", "nf_hook_slow", 4, false,
		   READINGS(MOVED("conntrack:drop", 0)), &d);
	CHECK_CAUSE(d, "legacy iptables rule", WD_CONF_MEDIUM);
	CHECK_HAS(d.evidence, "conntrack:drop did not move");

	/* no counters: the first cause of two, and said so */
	diag("NETFILTER_DROP", "nf_hook_slow", 4, NULL, NULL, 0, &d);
	CHECK_CAUSE(d, "legacy iptables rule", WD_CONF_LOW);
	CHECK_HAS(d.evidence, "one of 2 causes");
	diag("NETFILTER_DROP", "nft_do_chain", 4, NULL, NULL, 0, &d);
	CHECK_HAS(d.text, "an nftables rule or chain policy");
}

/* QDISC_DROP anywhere: the kind of the root qdisc whose drops moved. */
static void test_qdisc_kind(void)
{
	struct wd_diagnosis d;

	diag_alone("QDISC_DROP", "__dev_queue_xmit", 267, false,
		   READINGS(MOVED("qdisc:drops", 267), MOVED("qdisc:drops@vA tbf 8001:", 267),
			    MOVED("qdisc:drops@lo noqueue 0:", 0)), &d);
	CHECK_CAUSE(d, "tbf", WD_CONF_HIGH);
	CHECK_HAS(d.evidence, "qdisc:drops on vA (tbf 8001:) +267");

	/* a kind no entry knows: the reason's meaning */
	diag_alone("QDISC_DROP", "__dev_queue_xmit", 267, false,
		   READINGS(MOVED("qdisc:drops@eth0 sfq 1:", 267)), &d);
	CHECK_STR(d.text, wd_catalogue_find("QDISC_DROP")->summary);
	CHECK_INT(d.confidence, WD_CONF_LOW);
	CHECK_HAS(d.evidence, "no entry for QDISC_DROP at __dev_queue_xmit");

	/* no counters at all: never a kind guessed */
	diag("QDISC_DROP", "__dev_queue_xmit", 267, NULL, NULL, 0, &d);
	CHECK_STR(d.text, wd_catalogue_find("QDISC_DROP")->summary);
}

/* icmp_rcv: the broadcast-ping cause needs icmp_echo_ignore_broadcasts=1. */
static void test_sysctl_required(void)
{
	struct wd_diagnosis d;

	diag_alone("INVALID_PROTO", "icmp_rcv", 3, false,
		   READINGS(MOVED("IcmpInErrors", 3),
			    SYSCTL("net.ipv4.icmp_echo_ignore_broadcasts", 1)), &d);
	CHECK_CAUSE(d, "broadcast ping ignored", WD_CONF_HIGH);

	diag_alone("INVALID_PROTO", "icmp_rcv", 3, false,
		   READINGS(MOVED("IcmpInErrors", 3),
			    SYSCTL("net.ipv4.icmp_echo_ignore_broadcasts", 0)), &d);
	CHECK_HAS(d.text, "ICMP type not allowed");
}

/* No entry at the place: the reason's summary, confirmed by its counters or not. */
static void test_reason_fallback(void)
{
	const struct wd_cat_entry *e = wd_catalogue_find("SOCKET_RCVBUFF");
	struct wd_diagnosis d;

	diag_alone("SOCKET_RCVBUFF", "udp_queue_rcv_one_skb", 199, false,
		   READINGS(MOVED("UdpRcvbufErrors", 199)), &d);
	CHECK_STR(d.text, e->summary);
	CHECK_INT(d.confidence, WD_CONF_HIGH);
	CHECK_HAS(d.evidence, "UdpRcvbufErrors +199");
	CHECK(d.entry == e && !d.cause && !d.site);
	diag("SOCKET_RCVBUFF", NULL, 5, NULL, NULL, 0, &d);
	CHECK_STR(d.text, e->summary);
	CHECK_INT(d.confidence, WD_CONF_LOW);
	CHECK_HAS(d.evidence, "an unknown function");

	/* a call site covers NOT_SPECIFIED there; unknown reasons say nothing */
	diag("NOT_SPECIFIED", "do_xdp_generic", 3, NULL, NULL, 0, &d);
	CHECK_HAS(d.text, "XDP_DROP");
	CHECK(d.site != NULL);
	diag("NO_SUCH_REASON_EVER", "x", 1, NULL, NULL, 0, &d);
	CHECK(d.text == NULL);
	/* kernels without reasons: the place's entry, if any */
	diag(NULL, "ip6_mc_input", 1, NULL, NULL, 0, &d);
	CHECK_HAS(d.text, "multicast");
	diag(NULL, "no_such_function", 1, NULL, NULL, 0, &d);
	CHECK(d.text == NULL);
}

/* A call site's counter confirms it (inet6_csk_xmit moves Ip6OutNoRoutes). */
static void test_callsite_counter(void)
{
	struct wd_diagnosis d;

	diag_alone("NOT_SPECIFIED", "inet6_csk_xmit", 6, false,
		   READINGS(MOVED("Ip6OutNoRoutes", 6)), &d);
	CHECK_CAUSE(d, "no route", WD_CONF_HIGH);
}

static bool counter_name_ok(const char *c)
{
	const char *at = strchr(c, '@');

	if (!*c || strchr(c, ' '))
		return false;
	return !at || (!strncmp(c, "qdisc:drops@", 12) && at[1] && !strchr(at + 1, '@'));
}

/* The causes table: what the catalogue and the engine rely on. */
static void test_table(void)
{
	const char *const *sys = wd_diag_sysctls();
	bool fwd = false;

	CHECK(wd_cause_count() >= 30);
	for (size_t i = 0; i < wd_cause_count(); i++) {
		const struct wd_cause *c = wd_cause_at(i);
		const struct wd_cat_entry *e = wd_catalogue_find(c->reason);
		bool wild = !strcmp(c->function, "*");

		UNIT_RECORD(e && !strcmp(e->name, c->reason), "cause %zu: %s is not a current "
			    "catalogue name", i, c->reason);
		UNIT_RECORD(c->text && *c->text && strlen(c->text) <= WD_CAT_SUMMARY_MAX,
			    "%s at %s: text of %zu chars", c->reason, c->function,
			    c->text ? strlen(c->text) : 0);
		CHECK(c->meaning && *c->meaning && c->remedy && *c->remedy && c->seen && *c->seen);
		CHECK(*c->function && !strchr(c->function, '.'));
		/* "*" is chosen only by counters: it must have one, of a qdisc kind */
		UNIT_RECORD(!wild || (c->counters && c->counters[0]), "%s at *: no counter",
			    c->reason);
		for (const char *const *k = c->counters; k && *k; k++)
			UNIT_RECORD(counter_name_ok(*k) && (!wild || strchr(*k, '@')),
				    "%s at %s: counter '%s'", c->reason, c->function, *k);
		for (const char *const *k = c->sysctls; k && *k; k++)
			UNIT_RECORD(!strncmp(*k, "net.", 4) && !strchr(*k, ' '),
				    "%s at %s: sysctl '%s'", c->reason, c->function, *k);
		for (size_t j = 0; j < i; j++) {
			const struct wd_cause *o = wd_cause_at(j);

			UNIT_RECORD(strcmp(o->reason, c->reason) ||
				    strcmp(o->function, c->function) || strcmp(o->text, c->text),
				    "%s at %s: twice", c->reason, c->function);
		}
	}
	for (size_t i = 0; sys[i]; i++) {
		CHECK(!strchr(sys[i], '=') && !strchr(sys[i], '*'));
		fwd |= !strcmp(sys[i], "net.ipv4.ip_forward");
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(sys[i], sys[j]));
	}
	CHECK(fwd);
	/* call-site counters are counter names too */
	for (size_t i = 0; i < wd_callsite_count(); i++)
		for (const char *const *k = wd_callsite_at(i)->counters; k && *k; k++)
			CHECK(counter_name_ok(*k) && !strchr(*k, '@'));
}

/* A counter of one family is no evidence for drops of the other. */
static void test_families(void)
{
	const struct wd_traced t[] = {
		{ "NO_SOCKET", "__udp6_lib_rcv", 5, false },
		{ "NO_SOCKET", "__udp4_lib_rcv", 5, false },
	};
	struct wd_diagnosis d;
	struct sample s;

	CHECK(wd_diag_family_ok("UdpNoPorts", "__udp4_lib_rcv"));
	CHECK(!wd_diag_family_ok("UdpNoPorts", "__udp6_lib_rcv"));
	CHECK(!wd_diag_family_ok("Udp6NoPorts", "__udp4_lib_rcv"));
	CHECK(!wd_diag_family_ok("IpInHdrErrors", "ip6_forward"));
	CHECK(!wd_diag_family_ok("Ip6InHdrErrors", "ip_forward"));
	CHECK(wd_diag_family_ok("IcmpInErrors", "icmp_rcv"));
	CHECK(!wd_diag_family_ok("IcmpInErrors", "icmpv6_rcv"));
	CHECK(wd_diag_family_ok("TcpExtTCPBacklogDrop", "tcp_v6_rcv"));
	CHECK(wd_diag_family_ok("IpInHdrErrors", "__dev_queue_xmit"));
	CHECK(wd_diag_family_ok("qdisc:drops@tbf", "ip6_output"));
	CHECK(wd_diag_family_ok("Udp6NoPorts", NULL));
	/* v4's moved, v6's did not */
	sample_of(&s, READINGS(MOVED("UdpNoPorts", 5), MOVED("Udp6NoPorts", 0)));
	diag("NO_SOCKET", "__udp6_lib_rcv", 5, &s, t, 2, &d);
	CHECK_CAUSE(d, "no UDP socket", WD_CONF_LOW);
	CHECK_HAS(d.evidence, "Udp6NoPorts did not move");
	diag("NO_SOCKET", "__udp4_lib_rcv", 5, &s, t, 2, &d);
	CHECK_INT(d.confidence, WD_CONF_HIGH);
	CHECK_HAS(d.evidence, "UdpNoPorts +5");
	sample_free(&s);
}

static void test_names(void)
{
	CHECK_STR(wd_confidence_name(WD_CONF_HIGH), "high");
	CHECK_STR(wd_confidence_name(WD_CONF_MEDIUM), "medium");
	CHECK_STR(wd_confidence_name(WD_CONF_LOW), "low");
	CHECK(wd_cause_has_function("ip_forward"));
	CHECK(wd_cause_has_function("ip_forward.cold"));
	CHECK(!wd_cause_has_function("ip_forwar"));
}

UNIT_MAIN(test_ttl_expired, test_shared_counter, test_counters_disagree, test_netfilter,
	  test_qdisc_kind, test_sysctl_required, test_reason_fallback, test_callsite_counter,
	  test_families, test_table, test_names)
