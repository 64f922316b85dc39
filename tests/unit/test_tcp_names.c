// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reset reasons and TCP states named as the running kernel names them
 * (src/lib/names/tcp_names.c): from 6.18's tcp:tcp_send_reset tracefs format
 * (captured), from a format without a reason field (before 6.10), and from
 * BTF written here with libbpf, with and without enum sk_rst_reason.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <unistd.h>

#include "unit.h"
#include "unit_btf.h"
#include "reasons.h"
#include "tcp_names.h"

#define FMT_DIR		"tests/unit/fixtures/tcp-format/"
#define KFREE_DIR	"tests/unit/fixtures/kfree_skb-format/"

/* The fields of tcp_send_reset before 6.10 (class tcp_event_sk_skb), no reason. */
static const char no_reason_format[] =
	"name: tcp_send_reset\n"
	"format:\n"
	"\tfield:const void * skbaddr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * skaddr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int state;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__u16 sport;\toffset:28;\tsize:2;\tsigned:0;\n"
	"\tfield:__u16 dport;\toffset:30;\tsize:2;\tsigned:0;\n"
	"\n"
	"print fmt: \"skbaddr=%p skaddr=%p state=%s\", REC->skbaddr, REC->skaddr, "
	"__print_symbolic(REC->state, { TCP_ESTABLISHED, \"TCP_ESTABLISHED\" })\n";

static void expect_rst(const struct wd_tcp_names *t, const char *name, uint32_t code)
{
	const struct wd_reason *r = wd_tcp_rst_by_name(t, name);
	char buf[64];

	CHECK(r != NULL);
	if (r)
		CHECK_INT(r->code, code);
	CHECK_STR(wd_tcp_rst_name(t, code, buf, sizeof(buf)), wd_rst_strip(name));
}

static void test_format_6_18(void)
{
	char *text = unit_slurp(FMT_DIR "6.18.44-fc.tcp_send_reset.format");
	struct wd_tcp_names t;
	char buf[64];

	CHECK(text != NULL);
	CHECK_INT(wd_tcp_names_from_format(&t, text ? text : ""), 0);
	CHECK(t.has_rst_reason);
	CHECK_INT(t.source, WD_SRC_TRACEFS);
	CHECK_INT(t.n_rst, 25);		/* NOT_SPECIFIED .. ERROR; MAX is none */
	expect_rst(&t, "NOT_SPECIFIED", 0);
	expect_rst(&t, "NO_SOCKET", 1);
	expect_rst(&t, "TCP_ABORT_ON_DATA", 8);
	expect_rst(&t, "TCP_TIMEWAIT_SOCKET", 9);
	expect_rst(&t, "INVALID_SYN", 10);
	expect_rst(&t, "TCP_ABORT_ON_CLOSE", 11);
	expect_rst(&t, "TCP_ABORT_ON_LINGER", 12);
	expect_rst(&t, "TCP_STATE", 14);
	expect_rst(&t, "TCP_DISCONNECT_WITH_DATA", 16);
	expect_rst(&t, "MPTCP_RST_EMIDDLEBOX", 23);
	expect_rst(&t, "ERROR", 24);
	CHECK(wd_tcp_rst_by_name(&t, "MAX") == NULL);
	CHECK(wd_tcp_rst_by_name(&t, "rst:tcp_abort_on_close") != NULL);
	CHECK(wd_tcp_rst_by_name(&t, "SK_RST_REASON_NO_SOCKET") != NULL);
	CHECK(wd_tcp_rst_by_name(&t, "NO_SOCKETS") == NULL);
	CHECK_STR(wd_tcp_rst_name(&t, 25, buf, sizeof(buf)), "0x19");
	CHECK_STR(wd_tcp_rst_name(&t, 0xffff, buf, sizeof(buf)), "unknown");
	/* the format names states symbolically: the fixed ones serve */
	CHECK(!t.states_from_btf);
	CHECK_STR(wd_tcp_state_name(&t, 1), "ESTABLISHED");
	CHECK_STR(wd_tcp_state_name(&t, 12), "NEW_SYN_RECV");
	CHECK_STR(wd_tcp_state_name(&t, 0), "-");
	CHECK_STR(wd_tcp_state_name(&t, 200), "?");
	wd_tcp_names_free(&t);
	free(text);
}

static void test_format_without_reason(void)
{
	struct wd_tcp_names t;
	char buf[64];

	CHECK_INT(wd_tcp_names_from_format(&t, no_reason_format), 0);
	CHECK(!t.has_rst_reason);
	CHECK_INT(t.source, WD_SRC_NONE);
	CHECK_INT(t.n_rst, 0);
	CHECK_STR(wd_tcp_rst_name(&t, 0xffff, buf, sizeof(buf)), "unknown");
	CHECK(wd_tcp_rst_by_name(&t, "NO_SOCKET") == NULL);
	wd_tcp_names_free(&t);
	/* a reason field whose list cannot be read is an error, not "none" */
	CHECK(wd_tcp_names_from_format(&t, "field:enum sk_rst_reason reason;") != 0);
}

/* The generic format reader gives what the drop-reason reader gives. */
static void test_generic_reader_agrees(void)
{
	char *text = unit_slurp(KFREE_DIR "6.18.44-fc.format");
	struct wd_reason *v = NULL;
	struct wd_reasons r;
	size_t n = 0;

	CHECK(text != NULL);
	CHECK_INT(wd_reasons_from_format(&r, text ? text : ""), 0);
	CHECK_INT(wd_format_symbols(text ? text : "", "reason", &v, &n), 0);
	CHECK_INT(n, r.n);
	for (size_t i = 0; i < n && i < r.n; i++) {
		CHECK_INT(v[i].code, r.v[i].code);
		CHECK_STR(v[i].name, r.v[i].name);
	}
	CHECK(wd_format_has_field(text ? text : "", "rx_sk"));
	CHECK(!wd_format_has_field(text ? text : "", "sk_rst"));
	CHECK_INT(wd_format_symbols(text ? text : "", "nothing", &v, &n), -ENOENT);
	wd_reason_list_free(v, n);
	wd_reasons_free(&r);
	free(text);
}

/* A vmlinux BTF with the TCP states, and with or without the reset reasons. */
static struct btf *make_btf(bool reasons)
{
	struct btf *btf = btf__new_empty();
	int u32 = btf__add_int(btf, "unsigned int", 4, 0);

	/* an unrelated anonymous enum first */
	UNIT_BTF_ENUM(btf, "", { "CSD_FLAG_LOCK", 1 });
	UNIT_BTF_ENUM(btf, "", { "TCP_ESTABLISHED", 1 }, { "TCP_SYN_SENT", 2 },
		      { "TCP_NEW_SYN_RECV", 12 }, { "TCP_BOUND_INACTIVE", 13 },
		      { "TCP_MAX_STATES", 14 });
	if (!reasons)
		return btf;
	unit_btf_reason_event(btf, "trace_event_raw_tcp_send_reset", u32);
	UNIT_BTF_ENUM(btf, "sk_rst_reason", { "SK_RST_REASON_NOT_SPECIFIED", 0 },
		      { "SK_RST_REASON_NO_SOCKET", 1 }, { "SK_RST_REASON_TCP_ABORT_ON_CLOSE", 11 },
		      { "SK_RST_REASON_MAX", 12 });
	return btf;
}

static void test_btf(void)
{
	char path[] = "/tmp/wd-test-tcp-names-XXXXXX";
	int fd = mkstemp(path);
	struct wd_tcp_names t;
	struct btf *btf;
	char buf[64];

	CHECK(fd >= 0);
	close(fd);
	btf = make_btf(true);
	CHECK_INT(unit_write_btf(path, btf), 0);
	btf__free(btf);
	CHECK_INT(wd_tcp_names_from_btf(&t, path), 0);
	CHECK(t.has_rst_reason);
	CHECK_INT(t.source, WD_SRC_BTF);
	CHECK_INT(t.n_rst, 3);
	expect_rst(&t, "TCP_ABORT_ON_CLOSE", 11);
	CHECK_STR(wd_tcp_rst_name(&t, 12, buf, sizeof(buf)), "0xc");
	CHECK(t.states_from_btf);
	CHECK_INT(t.n_states, 4);	/* TCP_MAX_STATES is no state */
	CHECK_STR(wd_tcp_state_name(&t, 2), "SYN_SENT");
	CHECK_STR(wd_tcp_state_name(&t, 13), "BOUND_INACTIVE");
	CHECK_STR(wd_tcp_state_name(&t, 14), "?");
	/* a state this BTF lacks: the fixed names */
	CHECK_STR(wd_tcp_state_name(&t, 3), "SYN_RECV");
	wd_tcp_names_free(&t);

	/* before 6.10: states, no reasons, no error */
	btf = make_btf(false);
	CHECK_INT(unit_write_btf(path, btf), 0);
	btf__free(btf);
	CHECK_INT(wd_tcp_names_from_btf(&t, path), 0);
	CHECK(!t.has_rst_reason);
	CHECK_INT(t.source, WD_SRC_NONE);
	CHECK_INT(t.n_rst, 0);
	CHECK(t.states_from_btf);
	wd_tcp_names_free(&t);
	unlink(path);
	CHECK(wd_tcp_names_from_btf(&t, path) == -ENOENT);
}

UNIT_MAIN(test_format_6_18, test_format_without_reason, test_generic_reader_agrees, test_btf)
