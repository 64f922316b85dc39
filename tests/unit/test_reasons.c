// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reason tables from the tracefs format files of three real kernels. */
#include "unit.h"
#include "reasons.h"

#define FMT_DIR "tests/unit/fixtures/kfree_skb-format/"

static void load(const char *file, struct wd_reasons *r)
{
	char *text = unit_slurp(file);

	CHECK(text != NULL);
	CHECK_INT(wd_reasons_from_format(r, text ? text : ""), 0);
	free(text);
}

static void expect(struct wd_reasons *r, const char *name, uint32_t code)
{
	const struct wd_reason *by_name = wd_reason_by_name(r, name);
	const struct wd_reason *by_code = wd_reason_by_code(r, code);

	CHECK(by_name != NULL);
	CHECK(by_code != NULL);
	if (by_name)
		CHECK_INT(by_name->code, code);
	if (by_code)
		CHECK_STR(by_code->name, name);
}

static void test_6_1(void)
{
	struct wd_reasons r;

	load(FMT_DIR "6.1.0-57-cloud-amd64.format", &r);
	CHECK_INT(r.n, 65);
	CHECK(r.has_reason);
	CHECK(!r.has_rx_sk);
	expect(&r, "NOT_SPECIFIED", 1);
	expect(&r, "NO_SOCKET", 2);
	expect(&r, "NETFILTER_DROP", 7);
	expect(&r, "TCP_FLAGS", 21);
	CHECK(wd_reason_by_name(&r, "MAX") == NULL);
	CHECK(wd_reason_by_name(&r, "TCP_AOFAILURE") == NULL);
	wd_reasons_free(&r);
}

static void test_6_12(void)
{
	struct wd_reasons r;

	load(FMT_DIR "6.12.118+deb12-cloud-amd64.format", &r);
	CHECK_INT(r.n, 102);
	CHECK(r.has_rx_sk);
	expect(&r, "NOT_SPECIFIED", 2);
	expect(&r, "NETFILTER_DROP", 11);
	expect(&r, "TCP_FLAGS", 29);
	wd_reasons_free(&r);
}

static void test_6_18(void)
{
	struct wd_reasons r;
	char buf[64];

	load(FMT_DIR "6.18.44-fc.format", &r);
	CHECK_INT(r.n, 127);
	CHECK(r.has_reason && r.has_rx_sk);
	CHECK_INT(r.source, WD_SRC_TRACEFS);
	expect(&r, "NETFILTER_DROP", 12);
	expect(&r, "TCP_FLAGS", 30);
	expect(&r, "SKB_RX_HEADROOM", 128);
	/* Any case, with or without the enum prefix. */
	CHECK(wd_reason_by_name(&r, "skb_drop_reason_tcp_csum") == wd_reason_by_name(&r, "TCP_CSUM"));
	CHECK(wd_reason_by_name(&r, "tcp_csum") != NULL);
	CHECK_STR(wd_reason_name(&r, 3, buf, sizeof(buf)), "NO_SOCKET");
	CHECK_STR(wd_reason_name(&r, 999, buf, sizeof(buf)), "0x3e7");
	/* Subsystem bits without BTF: id and code still printed. */
	CHECK_STR(wd_reason_name(&r, 0x20001, buf, sizeof(buf)), "SUBSYS_2:0x1");
	CHECK_STR(wd_reason_subsys(&r, 3, buf, sizeof(buf)), "core");
	wd_reasons_free(&r);
}

static void test_bad_formats(void)
{
	struct wd_reasons r;
	static const char pre_5_17[] =
		"name: kfree_skb\nformat:\n\tfield:void * skbaddr;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:void * location;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned short protocol;\toffset:24;\tsize:2;\tsigned:0;\n\n"
		"print fmt: \"skbaddr=%p protocol=%u location=%p\", REC->skbaddr, REC->protocol, REC->location\n";
	static const char truncated[] =
		"\tfield:enum skb_drop_reason reason;\toffset:28;\tsize:4;\tsigned:0;\n"
		"print fmt: \"reason: %s\", __print_symbolic(REC->reason, { 1, \"NOT_SPEC";

	/* Before 5.17: no reason field, location-only mode, not an error. */
	CHECK_INT(wd_reasons_from_format(&r, pre_5_17), 0);
	CHECK(!r.has_reason);
	CHECK_INT(r.n, 0);
	wd_reasons_free(&r);
	CHECK(wd_reasons_from_format(&r, truncated) < 0);
	CHECK(wd_reasons_from_format(&r, "") == 0 && !r.has_reason);
	wd_reasons_free(&r);
}

static void test_suggest(void)
{
	struct wd_reasons r;

	load(FMT_DIR "6.18.44-fc.format", &r);
	CHECK_STR(wd_reason_suggest(&r, "NO_SOKET"), "NO_SOCKET");
	CHECK_STR(wd_reason_suggest(&r, "tcp_csun"), "TCP_CSUM");
	CHECK_STR(wd_reason_suggest(&r, "SKB_DROP_REASON_NETFILTER_DRP"), "NETFILTER_DROP");
	CHECK_STR(wd_reason_suggest(&r, "rcvbuff"), "SOCKET_RCVBUFF");
	CHECK(wd_reason_suggest(&r, "completely_unrelated_words") == NULL);
	wd_reasons_free(&r);
}

UNIT_MAIN(test_6_1, test_6_12, test_6_18, test_bad_formats, test_suggest)
