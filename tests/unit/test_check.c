// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* count --fail-on: the thresholds as written, refusals, and which were crossed. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "unit.h"

static void test_parse(void)
{
	struct wd_check c;
	char err[512];

	CHECK_INT(wd_check_parse("NO_SOCKET>100/s,NETFILTER_DROP>0", &c, err, sizeof(err)), 0);
	CHECK_INT(c.n, 2);
	CHECK(c.t[0].what == WD_CHECK_REASON && c.t[0].per_second && !c.t[0].or_equal);
	CHECK(c.t[0].limit == 100.0);
	CHECK_STR(c.t[1].reason, "NETFILTER_DROP");
	CHECK(!c.t[1].per_second && c.t[1].limit == 0.0);
	CHECK_STR(c.spec, "NO_SOCKET>100/s,NETFILTER_DROP>0");
	/* any case, the prefix, old names, blanks, >=, fractions of a rate */
	CHECK_INT(wd_check_parse(" skb_drop_reason_no_socket >= 5 , unexpected>0.5/s,ANY>1000",
				 &c, err, sizeof(err)), 0);
	CHECK_STR(c.spec, "NO_SOCKET>=5,unexpected>0.5/s,any>1000");
	CHECK(c.t[0].or_equal && c.t[1].what == WD_CHECK_UNEXPECTED && c.t[2].what == WD_CHECK_ANY);
	CHECK(c.t[1].limit == 0.5);
}

static void refused(const char *spec, const char *part)
{
	struct wd_check c;
	char err[512] = "";

	UNIT_RECORD(wd_check_parse(spec, &c, err, sizeof(err)) == -1 && strstr(err, part),
		    "'%s': \"%s\" lacks \"%s\"", spec, err, part);
	UNIT_RECORD(!strchr(err, '\n'), "'%s': one line", spec);
}

static void test_refused(void)
{
	refused("", "at least one threshold");
	refused("  ", "at least one threshold");
	refused("NO_SOCKET", "is no threshold");
	refused(">5", "is no threshold");
	refused("NO_SOKET>5", "did you mean 'NO_SOCKET'?");
	refused("NOPE_NOT_A_REASON>5", "unknown reason 'NOPE_NOT_A_REASON'");
	refused("NO_SOCKET<5", "only > and >=");
	refused("NO_SOCKET=5", "only > and >=");
	refused("NO_SOCKET>", "must be a number");
	refused("NO_SOCKET>abc", "must be a number");
	refused("NO_SOCKET>-1", "must be a number");
	refused("NO_SOCKET>1.5", "must be a number");	/* a count is whole */
	refused("NO_SOCKET>0x10", "must be a number");
	refused("NO_SOCKET>1e3", "must be a number");
	refused("NO_SOCKET>inf/s", "must be a number");
	refused("NO_SOCKET>5/m", "must be a number");
	refused("NO_SOCKET>5,,any>1", "empty threshold between commas");
	refused("NO_SOCKET>5,", "after the last comma");
	refused("A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1,A>1",
		"unknown reason");
	{
		char big[1100];

		memset(big, ' ', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		memcpy(big, "NO_SOCKET>10", 12);	/* never cut into NO_SOCKET>1 */
		refused(big, "at most 1023");
	}
	refused("NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,"
		"NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,"
		"NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1,NO_SOCKET>1", "at most 16");
}

/* A document: 100 NO_SOCKET in two rows, 3 TCP_CSUM, 40 hidden SOCKET_CLOSE, 10 s. */
static void doc_init(struct wd_count_doc *d, struct wd_count_row *shown,
		     struct wd_count_row *hidden)
{
	shown[0] = (struct wd_count_row){ .reason = "NO_SOCKET", .function = "__udp4_lib_rcv",
					  .location = "__udp4_lib_rcv+0x1", .count = 60 };
	shown[1] = (struct wd_count_row){ .reason = "TCP_CSUM", .function = "tcp_v4_rcv",
					  .location = "tcp_v4_rcv+0x2", .count = 3 };
	shown[2] = (struct wd_count_row){ .reason = "NO_SOCKET", .function = "tcp_v4_rcv",
					  .location = "tcp_v4_rcv+0x3", .count = 40 };
	hidden[0] = (struct wd_count_row){ .reason = "SOCKET_CLOSE",
					   .function = "unix_release_sock",
					   .location = "unix_release_sock+0x4", .count = 40 };
	*d = (struct wd_count_doc){ .duration_s = 10.0, .total = 143, .rows = shown,
				    .n_rows = 3, .hidden_rows = hidden, .n_hidden_rows = 1,
				    .noise = true };
}

static void eval(const char *spec, const struct wd_count_doc *d, struct wd_check_result *r)
{
	static struct wd_check c;
	char err[256];

	CHECK_INT(wd_check_parse(spec, &c, err, sizeof(err)), 0);
	wd_check_eval(&c, d, r);
}

static void test_eval(void)
{
	struct wd_count_row shown[3], hidden[1];
	struct wd_check_result r;
	struct wd_count_doc d;

	doc_init(&d, shown, hidden);
	/* 100 NO_SOCKET in 10 s: 10/s */
	eval("NO_SOCKET>9/s", &d, &r);
	CHECK(r.crossed && r.o[0].crossed && r.o[0].count == 100 && r.o[0].rate == 10.0);
	CHECK(r.o[0].n_reasons == 1 && r.o[0].reasons[0].n_rows == 2);
	CHECK(r.o[0].reasons[0].rows[0]->count == 60);	/* largest first */
	eval("NO_SOCKET>10/s", &d, &r);
	CHECK(!r.crossed);
	eval("NO_SOCKET>=10/s", &d, &r);
	CHECK(r.crossed);
	eval("NO_SOCKET>100", &d, &r);
	CHECK(!r.crossed);
	eval("NO_SOCKET>99", &d, &r);
	CHECK(r.crossed);
	eval("NETFILTER_DROP>0", &d, &r);
	CHECK(!r.crossed && r.o[0].count == 0 && r.o[0].n_reasons == 0);
	/* a named reason counts its hidden drops too */
	eval("SOCKET_CLOSE>39", &d, &r);
	CHECK(r.crossed && r.o[0].count == 40);
	/* unexpected: each shown reason alone, never the hidden ones */
	eval("unexpected>50", &d, &r);
	CHECK(r.crossed && r.o[0].count == 100);
	CHECK(r.o[0].n_reasons == 2 && r.o[0].reasons[0].crossed && !r.o[0].reasons[1].crossed);
	eval("unexpected>100", &d, &r);
	CHECK(!r.crossed);
	eval("unexpected>=3", &d, &r);
	CHECK(r.crossed && r.o[0].reasons[1].crossed);
	/* any: the sum of every drop */
	eval("any>142", &d, &r);
	CHECK(r.crossed && r.o[0].count == 143);
	eval("any>143", &d, &r);
	CHECK(!r.crossed);
	/* several: crossed when one is */
	eval("NETFILTER_DROP>0,TCP_CSUM>2", &d, &r);
	CHECK(r.crossed && r.n == 2 && !r.o[0].crossed && r.o[1].crossed);
	/* no duration: rates are 0, counts still count */
	d.duration_s = 0;
	eval("NO_SOCKET>0/s,NO_SOCKET>0", &d, &r);
	CHECK(!r.o[0].crossed && r.o[1].crossed);
}

UNIT_MAIN(test_parse, test_refused, test_eval)
