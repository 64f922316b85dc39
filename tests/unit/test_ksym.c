// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* /proc/kallsyms parsing and address lookup. */
#include "unit.h"
#include "ksym.h"

static void test_lookup(void)
{
	struct wd_ksyms k;
	const struct wd_ksym *s;
	uint64_t off = 0;
	char buf[96];

	CHECK_INT(wd_ksyms_load(&k, "tests/unit/fixtures/kallsyms/sample.kallsyms"), 0);
	/* Data, absolute and malformed lines are skipped. */
	CHECK_INT(k.n, 9);
	s = wd_ksym_format(&k, 0xffffffff82094eb0 + 0x99, false, buf, sizeof(buf));
	CHECK_STR(buf, "tcp_v4_rcv+0x99");
	CHECK(s && !strcmp(s->name, "tcp_v4_rcv"));
	wd_ksym_format(&k, 0xffffffff82096500, true, buf, sizeof(buf));
	CHECK_STR(buf, "tcp_v4_do_rcv+0x0");
	/* A module's symbol: its module after the offset when asked for. */
	wd_ksym_format(&k, 0xffffffffc0a01404, false, buf, sizeof(buf));
	CHECK_STR(buf, "veth_xdp_rcv_skb+0x4");
	wd_ksym_format(&k, 0xffffffffc0a01404, true, buf, sizeof(buf));
	CHECK_STR(buf, "veth_xdp_rcv_skb+0x4 [veth]");
	s = wd_ksym_find(&k, 0xffffffffc0a01404, &off);
	CHECK(s != NULL);
	if (s) {
		CHECK_STR(s->name, "veth_xdp_rcv_skb");
		CHECK_STR(s->module, "veth");
		CHECK_INT(off, 4);
	}
	s = wd_ksym_find(&k, 0xffffffff82000100, &off);
	CHECK(s && !s->module && off == 0);
	CHECK(!wd_ksym_format(&k, 0x1000, true, buf, sizeof(buf)));
	CHECK_STR(buf, "0x1000");
	wd_ksyms_free(&k);
}

static void test_hidden_addresses(void)
{
	struct wd_ksyms k;

	/* kptr_restrict shows zeros to the unprivileged: nothing to resolve. */
	CHECK_INT(wd_ksyms_parse(&k, "0000000000000000 T tcp_v4_rcv\n0000000000000000 t x [m]\n"), 0);
	CHECK_INT(k.n, 0);
	wd_ksyms_free(&k);
	CHECK(wd_ksyms_load(&k, "/nonexistent/kallsyms") < 0);
}

UNIT_MAIN(test_lookup, test_hidden_addresses)
