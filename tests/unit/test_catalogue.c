// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The catalogue: every reason of every fixture kernel has a complete entry,
 * lookups by any spelling work, and the committed docs are what the
 * catalogue generates (run `make docs` when this fails).
 */
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "json.h"
#include "reasons.h"
#include "unit.h"
#include "entry_text.h"

#define FMT_DIR "tests/unit/fixtures/kfree_skb-format/"

static const char *const formats[] = {
	FMT_DIR "6.1.0-57-cloud-amd64.format",
	FMT_DIR "6.12.118+deb12-cloud-amd64.format",
	FMT_DIR "6.18.44-fc.format",
};

static bool filled(const char *s)
{
	return s && *s;
}

static void test_fixture_coverage(void)
{
	for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		struct wd_reasons r;
		char *text = unit_slurp(formats[f]);
		size_t covered = 0;

		CHECK(text != NULL);
		if (!text)
			continue;
		memset(&r, 0, sizeof(r));
		CHECK_INT(wd_reasons_from_format(&r, text), 0);
		CHECK(r.n > 60);
		for (size_t i = 0; i < r.n; i++) {
			const char *name = r.v[i].name;
			const struct wd_cat_entry *e;

			if (wd_catalogue_is_sentinel(name))
				continue;
			e = wd_catalogue_find(name);
			UNIT_RECORD(e != NULL, "%s: reason %s has no catalogue entry",
				    formats[f], name);
			covered += e != NULL;
		}
		CHECK(covered + 1 >= r.n);	/* at most MAX is skipped */
		wd_reasons_free(&r);
		free(text);
	}
}

static void check_list(const struct wd_cat_entry *e, const char *what,
		       const char *const *v, bool need_one)
{
	UNIT_RECORD(v != NULL, "%s: %s list missing", e->name, what);
	if (v && need_one)
		UNIT_RECORD(v[0] && *v[0], "%s: %s list empty", e->name, what);
	for (; v && *v; v++)
		UNIT_RECORD(**v && !strchr(*v, ' '), "%s: bad %s '%s'",
			    e->name, what, *v);
}

static void test_entries_complete(void)
{
	CHECK(wd_catalogue_count() >= 190);
	for (size_t i = 0; i < wd_catalogue_count(); i++) {
		const struct wd_cat_entry *e = wd_catalogue_at(i);

		UNIT_RECORD(filled(e->name) && filled(e->subsys) &&
			    filled(e->layer) && filled(e->since) &&
			    filled(e->summary) && filled(e->meaning) &&
			    filled(e->settings) && filled(e->action) &&
			    filled(e->severity_note),
			    "%s: a text field is empty", e->name);
		UNIT_RECORD(strlen(e->summary) <= WD_CAT_SUMMARY_MAX,
			    "%s: summary longer than %d", e->name,
			    WD_CAT_SUMMARY_MAX);
		check_list(e, "functions", e->functions, true);
		check_list(e, "counters", e->counters, false);
		check_list(e, "sysctls", e->sysctls, false);
		UNIT_RECORD(!strcmp(e->subsys, "core") ||
			    !strcmp(e->subsys, "openvswitch") ||
			    !strcmp(e->subsys, "mac80211"),
			    "%s: subsystem '%s'", e->name, e->subsys);
		UNIT_RECORD(wd_catalogue_find(e->name) == e,
			    "%s: duplicate or shadowed name", e->name);
		UNIT_RECORD(!wd_catalogue_is_sentinel(e->name),
			    "%s: looks like a sentinel", e->name);
	}
	CHECK(wd_catalogue_at(wd_catalogue_count()) == NULL);
}

static bool has(const char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return true;
	return false;
}

/* A reason's entry names the counter or sysctl that goes with it. */
static void test_known_mappings(void)
{
	static const struct {
		const char *reason;
		bool sysctl;
		const char *name;
	} m[] = {
		{ "TCP_ZEROWINDOW", false, "TcpExtTCPZeroWindowDrop" },
		{ "SOCKET_BACKLOG", false, "TcpExtTCPBacklogDrop" },
		{ "TCP_MD5NOTFOUND", false, "TcpExtTCPMD5NotFound" },
		{ "TCP_MD5UNEXPECTED", false, "TcpExtTCPMD5Unexpected" },
		{ "TCP_MD5FAILURE", false, "TcpExtTCPMD5Failure" },
		{ "CPU_BACKLOG", true, "net.core.netdev_max_backlog" },
		{ "IP_RPFILTER", true, "net.ipv4.conf.all.rp_filter" },
		{ "PROTO_MEM", true, "net.ipv4.tcp_mem" },
	};
	const struct wd_cat_entry *e;

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		e = wd_catalogue_find(m[i].reason);
		UNIT_RECORD(e && has(m[i].sysctl ? e->sysctls : e->counters, m[i].name),
			    "%s lacks %s", m[i].reason, m[i].name);
	}
	e = wd_catalogue_find("NO_SOCKET");
	CHECK(e && e->severity == WD_SEV_BENIGN);
	/* a stable backport first seen on 6.18.44 (code 99 there) */
	e = wd_catalogue_find("IPV6_TOO_MANY_EXTHDRS");
	CHECK(e && has(e->counters, "Ip6InDiscards") &&
	      has(e->functions, "ip6_protocol_deliver_rcu"));
}

static void test_find_spellings(void)
{
	const struct wd_cat_entry *e = wd_catalogue_find("NO_SOCKET");

	CHECK(e != NULL);
	CHECK(wd_catalogue_find("no_socket") == e);
	CHECK(wd_catalogue_find("SKB_DROP_REASON_NO_SOCKET") == e);
	CHECK(wd_catalogue_find("skb_drop_reason_no_socket") == e);
	CHECK(wd_catalogue_find("") == NULL);
	CHECK(wd_catalogue_find(NULL) == NULL);
	CHECK(wd_catalogue_find("NO_SUCH_REASON") == NULL);

	CHECK_STR(wd_catalogue_find("TCP_FILTER")->name, "SOCKET_FILTER");
	CHECK_STR(wd_catalogue_find("PTYPE_ABSENT")->name, "UNHANDLED_PROTO");
	CHECK_STR(wd_catalogue_find("VXLAN_NO_REMOTE")->name, "NO_TX_TARGET");
	CHECK_STR(wd_catalogue_find("OPENVSWITCH:OVS_DROP_LAST_ACTION")->name,
		  "OVS_DROP_LAST_ACTION");
	CHECK_STR(wd_catalogue_find("MAC80211_UNUSABLE:RX_DROP_U_MIC_FAIL")->name,
		  "RX_DROP_U_MIC_FAIL");
	CHECK_STR(wd_catalogue_find("MAC80211_MONITOR:RX_DROP_M_BAD_BCN_KEYIDX")->name,
		  "RX_DROP_U_BAD_BCN_KEYIDX");
	CHECK_STR(wd_catalogue_find("RX_DROP_MONITOR")->name, "RX_DROP");
}

static void test_sentinels_and_suggest(void)
{
	CHECK(wd_catalogue_is_sentinel("MAX"));
	CHECK(wd_catalogue_is_sentinel("SKB_DROP_REASON_MAX"));
	CHECK(wd_catalogue_is_sentinel("SKB_CONSUMED"));
	CHECK(wd_catalogue_is_sentinel("SKB_NOT_DROPPED_YET"));
	CHECK(wd_catalogue_is_sentinel("OPENVSWITCH:OVS_DROP_MAX"));
	CHECK(wd_catalogue_is_sentinel("__OVS_DROP_REASON"));
	CHECK(!wd_catalogue_is_sentinel("NO_SOCKET"));

	CHECK_STR(wd_catalogue_suggest("TCP_ZEROWINDO"), "TCP_ZEROWINDOW");
	CHECK_STR(wd_catalogue_suggest("socket_rcvbuf"), "SOCKET_RCVBUFF");
	CHECK_STR(wd_catalogue_suggest("zerowindow"), "TCP_ZEROWINDOW");
	CHECK(wd_catalogue_suggest("QQQQQQQQQQQQQQQQQQQQ") == NULL);
}

static void test_print(void)
{
	CHECK_ENTRY_TEXT(wd_catalogue_print, wd_catalogue_json_fields,
			 wd_catalogue_find("TCP_ZEROWINDOW"), wd_catalogue_find("SOCKET_FILTER"),
			 "TCP_ZEROWINDOW: ", "TcpExtTCPZeroWindowDrop",
			 "{\"name\": \"SOCKET_FILTER\"", "\"old_names\": [\"TCP_FILTER\"]");
}

/* Generated text vs the committed file (man: only the generated region). */
static void check_doc(const char *path, void (*gen)(FILE *), bool region)
{
	char *want, *have = unit_slurp(path), *b, *e;
	struct unit_stream s;

	gen(unit_stream_open(&s));
	want = unit_stream_text(&s);
	UNIT_RECORD(have != NULL, "%s missing: run `make docs`", path);
	if (have && region) {
		b = strstr(have, WD_MAN_BEGIN);
		e = b ? strstr(b, WD_MAN_END) : NULL;
		if (b && e && e[strlen(WD_MAN_END)] == '\n')
			e[strlen(WD_MAN_END) + 1] = '\0';
		UNIT_RECORD(b && e && !strcmp(b, want),
			    "%s is stale: run `make docs`", path);
	} else if (have) {
		UNIT_RECORD(!strcmp(have, want), "%s is stale: run `make docs`",
			    path);
	}
	free(have);
	free(want);
}

static void test_docs_fresh(void)
{
	check_doc("docs/reasons.md", wd_catalogue_markdown, false);
	check_doc("docs/whydrop.8", wd_catalogue_man, true);
}

UNIT_MAIN(test_fixture_coverage, test_entries_complete, test_known_mappings,
	  test_find_spellings, test_sentinels_and_suggest, test_print,
	  test_docs_fresh)
