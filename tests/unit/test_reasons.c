// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reason tables from the tracefs format files of three real kernels, and
 * from BTF: a vmlinux BTF and split module BTF written here with libbpf,
 * laid out as /sys/kernel/btf is.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <unistd.h>

#include "unit.h"
#include "unit_btf.h"
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

	/* This machine's 6.18.44 build: stable backports inserted and appended. */
	load(FMT_DIR "6.18.44-fc.format", &r);
	CHECK_INT(r.n, 128);
	CHECK(r.has_reason && r.has_rx_sk);
	CHECK_INT(r.source, WD_SRC_TRACEFS);
	expect(&r, "NETFILTER_DROP", 12);
	expect(&r, "TCP_FLAGS", 30);
	expect(&r, "IPV6_BAD_EXTHDR", 98);
	expect(&r, "IPV6_TOO_MANY_EXTHDRS", 99);
	expect(&r, "QUEUE_PURGE", 105);
	expect(&r, "RECURSION_LIMIT", 128);
	expect(&r, "SKB_RX_HEADROOM", 129);
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

/* -r and explain take the numbers the JSON prints: this kernel's, not whydrop's. */
static void test_by_word(void)
{
	struct wd_reasons a, b;

	load(FMT_DIR "6.1.0-57-cloud-amd64.format", &a);
	load(FMT_DIR "6.12.118+deb12-cloud-amd64.format", &b);
	CHECK_STR(wd_reason_by_word(&a, "21") ? wd_reason_by_word(&a, "21")->name : NULL,
		  "TCP_FLAGS");
	CHECK_STR(wd_reason_by_word(&b, "29") ? wd_reason_by_word(&b, "29")->name : NULL,
		  "TCP_FLAGS");
	CHECK_STR(wd_reason_by_word(&b, "0x1d") ? wd_reason_by_word(&b, "0x1d")->name : NULL,
		  "TCP_FLAGS");
	CHECK_STR(wd_reason_by_word(&a, "no_socket") ? wd_reason_by_word(&a, "no_socket")->name
						      : NULL, "NO_SOCKET");
	CHECK(wd_reason_by_word(&a, "9999") == NULL);
	CHECK(wd_reason_by_word(&a, "21x") == NULL);
	CHECK(wd_reason_by_word(&a, "99999999999999999999") == NULL);
	CHECK_STR(wd_reason_by_word(&a, "010") ? wd_reason_by_word(&a, "010")->name : NULL,
		  wd_reason_by_code(&a, 10)->name);	/* ten, not octal eight */
	wd_reasons_free(&a);
	wd_reasons_free(&b);
}

/* As 6.12 numbers them (include/net/dropreason.h). */
enum { SUBSYS_MAC80211_UNUSABLE = 1, SUBSYS_MAC80211_MONITOR, SUBSYS_OPENVSWITCH };

static int write_btf(const char *dir, const char *name, const struct btf *btf)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return unit_write_btf(path, btf);
}

static struct btf *fake_vmlinux(void)
{
	struct btf *btf = btf__new_empty();

	unit_btf_reason_event(btf, "trace_event_raw_kfree_skb",
			      btf__add_int(btf, "unsigned int", 4, 0));
	UNIT_BTF_ENUM(btf, "skb_drop_reason",
		      { "SKB_NOT_DROPPED_YET", 0 }, { "SKB_CONSUMED", 1 },
		      { "SKB_DROP_REASON_NOT_SPECIFIED", 2 }, { "SKB_DROP_REASON_NO_SOCKET", 3 },
		      { "SKB_DROP_REASON_MAX", 4 }, { "SKB_DROP_REASON_SUBSYS_MASK", 0xffff0000 });
	if (UNIT_BTF_ENUM(btf, "skb_drop_reason_subsys",
			  { "SKB_DROP_REASON_SUBSYS_CORE", 0 },
			  { "SKB_DROP_REASON_SUBSYS_MAC80211_UNUSABLE", SUBSYS_MAC80211_UNUSABLE },
			  { "SKB_DROP_REASON_SUBSYS_MAC80211_MONITOR", SUBSYS_MAC80211_MONITOR },
			  { "SKB_DROP_REASON_SUBSYS_OPENVSWITCH", SUBSYS_OPENVSWITCH },
			  { "SKB_DROP_REASON_SUBSYS_NUM", 4 }) <= 0)
		return NULL;
	return btf;
}

/*
 * Split BTF of a module: unrelated enums, one of flags whose bits 16 and 17
 * look like subsystem bases (mac80211 has such: NL80211_FEATURE_USERSPACE_MPM
 * is 1 << 16), then its drop-reason enum, after an internal copy of it
 * ("___" names, as mac80211's ___mac80211_drop_reason) when internal is set.
 */
static int fake_module(const char *dir, const char *name, struct btf *base,
		       const char *enum_name, const char *const *names, int subsys,
		       bool internal)
{
	struct btf *btf = btf__new_empty_split(base);
	char buf[96];
	int err;

	UNIT_BTF_ENUM(btf, "unrelated", { "UNRELATED_ONE", 1 });
	UNIT_BTF_ENUM(btf, "unrelated_flags", { "UNRELATED_BIT16", 1 << 16 },
		      { "UNRELATED_BIT17", 1 << 17 }, { "UNRELATED_BITS16_17", 3 << 16 });
	if (internal) {
		snprintf(buf, sizeof(buf), "___%s", enum_name);
		btf__add_enum(btf, buf, 4);
		for (int i = 0; names[i]; i++) {
			snprintf(buf, sizeof(buf), "%s%s", names[i][0] == '_' ? "" : "___",
				 names[i]);
			btf__add_enum_value(btf, buf, ((__s64)subsys << 16) | i);
		}
	}
	btf__add_enum(btf, enum_name, 4);
	for (int i = 0; names[i]; i++)
		btf__add_enum_value(btf, names[i], ((__s64)subsys << 16) | i);
	err = write_btf(dir, name, btf);
	btf__free(btf);
	return err;
}

/* wd_reason_code: want 0 for "no such reason here". */
static void expect_code(struct wd_reasons *r, const char *word, uint32_t want)
{
	uint32_t code = 0;
	int ret = wd_reason_code(r, word, &code);

	UNIT_RECORD(want ? !ret && code == want : ret == -1, "%s: %d, %#x (want %#x)", word,
		    ret, code, want);
}

/* wd_reason_name of @code is @want. */
static void expect_name(struct wd_reasons *r, uint32_t code, const char *want)
{
	char buf[96];

	CHECK_STR(wd_reason_name(r, code, buf, sizeof(buf)), want);
}

static void test_btf_modules(void)
{
	static const char *const ovs[] = { "__OVS_DROP_REASON", "OVS_DROP_LAST_ACTION",
		"OVS_DROP_ACTION_ERROR", "OVS_DROP_MAX", NULL };
	static const char *const m80211[] = { "___RX_DROP_UNUSABLE",
		"RX_DROP_U_MIC_FAIL", "RX_DROP_U_REPLAY", NULL };
	char dir[] = "/tmp/wd-unit-btf.XXXXXX", path[300], buf[96];
	struct btf *base = fake_vmlinux();
	struct wd_reasons r;

	CHECK(base != NULL);
	CHECK(mkdtemp(dir) != NULL);
	if (!base)
		return;
	CHECK_INT(write_btf(dir, "vmlinux", base), 0);
	CHECK_INT(fake_module(dir, "openvswitch", base, "ovs_drop_reason", ovs,
			      SUBSYS_OPENVSWITCH, false), 0);
	CHECK_INT(fake_module(dir, "mac80211", base, "mac80211_drop_reason", m80211,
			      SUBSYS_MAC80211_UNUSABLE, true), 0);
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	CHECK_INT(wd_reasons_from_btf(&r, path), 0);
	CHECK_INT(r.source, WD_SRC_BTF);
	CHECK(r.has_reason);
	CHECK_INT(r.n, 2);
	expect(&r, "NO_SOCKET", 3);
	CHECK_INT(r.n_subsys, 3);
	CHECK_STR(r.btf_dir, dir);
	expect_name(&r, SUBSYS_OPENVSWITCH << 16 | 1, "OPENVSWITCH:OVS_DROP_LAST_ACTION");
	expect_name(&r, SUBSYS_OPENVSWITCH << 16 | 2, "OPENVSWITCH:OVS_DROP_ACTION_ERROR");
	CHECK_STR(wd_reason_subsys(&r, SUBSYS_OPENVSWITCH << 16 | 1, buf, sizeof(buf)),
		  "openvswitch");
	expect_name(&r, SUBSYS_MAC80211_UNUSABLE << 16 | 2, "MAC80211_UNUSABLE:RX_DROP_U_REPLAY");
	/* Same module, other subsystem id: none of its enumerators carry it. */
	expect_name(&r, SUBSYS_MAC80211_MONITOR << 16 | 1, "MAC80211_MONITOR:0x1");
	expect_name(&r, SUBSYS_OPENVSWITCH << 16 | 9, "OPENVSWITCH:0x9");
	/*
	 * The bases come from the drop-reason enum, never from a flag that
	 * happens to have the same value (seen with the real mac80211 BTF of
	 * 6.12); the public spelling wins over the internal "___" one.
	 */
	expect_name(&r, SUBSYS_OPENVSWITCH << 16, "OPENVSWITCH:__OVS_DROP_REASON");
	expect_name(&r, SUBSYS_MAC80211_UNUSABLE << 16, "MAC80211_UNUSABLE:___RX_DROP_UNUSABLE");
	expect_name(&r, SUBSYS_MAC80211_MONITOR << 16, "MAC80211_MONITOR:0x0");
	expect_name(&r, SUBSYS_MAC80211_UNUSABLE << 16 | 1, "MAC80211_UNUSABLE:RX_DROP_U_MIC_FAIL");
	for (size_t i = 0; i < r.n_subsys; i++)
		for (size_t k = 0; k < r.subsys[i].n_codes; k++)
			UNIT_RECORD(!strstr(r.subsys[i].codes[k].name, "UNRELATED"),
				    "%s: %s taken for a drop reason", r.subsys[i].name,
				    r.subsys[i].codes[k].name);
	CHECK_INT(r.subsys[0].n_codes + r.subsys[1].n_codes + r.subsys[2].n_codes,
		  3 + 0 + 4);
	expect_code(&r, "OPENVSWITCH:OVS_DROP_LAST_ACTION", SUBSYS_OPENVSWITCH << 16 | 1);
	expect_code(&r, "openvswitch:ovs_drop_action_error", SUBSYS_OPENVSWITCH << 16 | 2);
	expect_code(&r, "OVS_DROP_ACTION_ERROR", SUBSYS_OPENVSWITCH << 16 | 2);
	expect_code(&r, "0x30001", SUBSYS_OPENVSWITCH << 16 | 1);
	expect_code(&r, "196610", SUBSYS_OPENVSWITCH << 16 | 2);
	expect_code(&r, "MAC80211_UNUSABLE:RX_DROP_U_REPLAY", SUBSYS_MAC80211_UNUSABLE << 16 | 2);
	expect_code(&r, "no_socket", 3);
	expect_code(&r, "3", 3);
	expect_code(&r, "OPENVSWITCH:OVS_DROP_NOPE", 0);
	expect_code(&r, "MAC80211_UNUSABLE:OVS_DROP_LAST_ACTION", 0);
	expect_code(&r, "0x30009", 0);
	expect_code(&r, "0x30001x", 0);
	wd_reasons_free(&r);

	/* Module not loaded (no BTF file): the number, nothing invented. */
	snprintf(path, sizeof(path), "%s/openvswitch", dir);
	CHECK_INT(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	CHECK_INT(wd_reasons_from_btf(&r, path), 0);
	expect_name(&r, SUBSYS_OPENVSWITCH << 16 | 1, "OPENVSWITCH:0x1");
	expect_code(&r, "OPENVSWITCH:OVS_DROP_LAST_ACTION", 0);
	expect_code(&r, "0x30001", 0);
	wd_reasons_free(&r);

	/* A BTF file not named vmlinux has no module BTF beside it. */
	snprintf(path, sizeof(path), "%s/stripped.btf", dir);
	CHECK_INT(write_btf(dir, "stripped.btf", base), 0);
	CHECK_INT(wd_reasons_from_btf(&r, path), 0);
	CHECK(r.btf_dir == NULL);
	expect_name(&r, SUBSYS_MAC80211_UNUSABLE << 16 | 1, "MAC80211_UNUSABLE:0x1");
	wd_reasons_free(&r);

	for (const char *f = "vmlinux\0mac80211\0stripped.btf\0"; *f; f += strlen(f) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, f);
		unlink(path);
	}
	CHECK_INT(rmdir(dir), 0);
	btf__free(base);
}

UNIT_MAIN(test_by_word, test_6_1, test_6_12, test_6_18, test_bad_formats, test_suggest,
	  test_btf_modules)
