// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Stacks (symbolising, folded lines), the call-site catalogue and noise rules. */
#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callsites.h"
#include "noise.h"
#include "stack.h"
#include "unit.h"

static const char kallsyms[] =
	"ffffffff81000000 T bpf_trace_run3\n"
	"ffffffff81001000 T sk_skb_reason_drop\n"
	"ffffffff81002000 T __udp4_lib_rcv\n"
	"ffffffff81003000 t ip_local_deliver_finish\n"
	"ffffffffc0001000 t veth_xmit\t[veth]\n";

static char *folded(struct wd_folded *fo)
{
	struct unit_stream s;

	wd_folded_write(unit_stream_open(&s), fo);
	return unit_stream_text(&s);
}

static void test_symbolise(void)
{
	uint64_t ips[] = { 0xffffffff81000010, 0xffffffff81001090, 0xffffffff810024bc,
			   0xffffffffc0001010, 0xffffffff70000000, 0 , 0xffffffff81003000 };
	struct wd_ksyms k = { 0 };
	struct wd_stack st;

	CHECK_INT(wd_ksyms_parse(&k, kallsyms), 0);
	CHECK_INT(wd_stack_symbolise(&k, ips, 7, &st), 0);
	/* the tracer's frame left out, the zero address ends the stack */
	CHECK_INT(st.n, 4);
	CHECK_STR(st.frames[0], "sk_skb_reason_drop+0x90");
	CHECK_STR(st.functions[1], "__udp4_lib_rcv");
	CHECK_STR(st.frames[2], "veth_xmit+0x10 [veth]");
	CHECK_STR(st.functions[2], "veth_xmit");
	CHECK_STR(st.frames[3], "0xffffffff70000000");
	wd_stack_free(&st);
	wd_ksyms_free(&k);
}

static void test_folded(void)
{
	char *a[] = { "sk_skb_reason_drop", "__udp4_lib_rcv", "ip_local_deliver_finish" };
	char *b[] = { "odd;name", "with space" };
	struct wd_stack s1 = { a, a, 3 }, s2 = { b, b, 2 }, s3 = { a, a, 1 };
	struct wd_folded fo = { 0 };
	char *out;

	CHECK_INT(wd_folded_add(&fo, "NO_SOCKET", &s1, 5), 0);
	CHECK_INT(wd_folded_add(&fo, "NOT_SPECIFIED", &s2, 2), 0);
	CHECK_INT(wd_folded_add(&fo, "NO_SOCKET", &s1, 2), 0);	/* merged */
	CHECK_INT(wd_folded_add(&fo, NULL, &s3, 1), 0);
	CHECK_INT(wd_folded_add(&fo, "ZERO", &s3, 0), 0);	/* left out */
	out = folded(&fo);
	CHECK_STR(out, "NOT_SPECIFIED;with_space;odd_name 2\n"
		       "NO_SOCKET;ip_local_deliver_finish;__udp4_lib_rcv;sk_skb_reason_drop 7\n"
		       "sk_skb_reason_drop 1\n");
	free(out);
	wd_folded_free(&fo);
}

static void test_stack_errors(void)
{
	char buf[64];

	CHECK_STR(wd_stack_error_frame(-EEXIST, buf, sizeof(buf)),
		  "[stack lost: bucket collision]");
	CHECK_STR(wd_stack_error_frame(-ENOMEM, buf, sizeof(buf)), "[stack lost: stack map full]");
}

static void test_callsites(void)
{
	const char *prev = "";

	CHECK(wd_callsite_count() >= 10);
	for (size_t i = 0; i < wd_callsite_count(); i++) {
		const struct wd_callsite *c = wd_callsite_at(i);

		UNIT_RECORD(strcmp(prev, c->function) < 0, "%s not sorted", c->function);
		UNIT_RECORD(c->reasons && c->reasons[0] && c->kernels && c->meaning && c->check &&
			    c->seen, "%s: a field is missing", c->function);
		UNIT_RECORD(strlen(c->summary) <= WD_CAT_SUMMARY_MAX, "%s: summary too long",
			    c->function);
		for (const char *const *r = c->reasons; *r; r++)
			UNIT_RECORD(wd_catalogue_find(*r) != NULL, "%s: reason %s not in catalogue",
				    c->function, *r);
		prev = c->function;
	}
	CHECK(wd_callsite_find("ip6_mc_input") != NULL);
	CHECK(wd_callsite_find("ip_defrag.cold") == wd_callsite_find("ip_defrag"));
	CHECK(wd_callsite_for("NOT_SPECIFIED", "do_xdp_generic") != NULL);
	CHECK(wd_callsite_for("SKB_DROP_REASON_NOT_SPECIFIED", "do_xdp_generic") != NULL);
	CHECK(wd_callsite_for("NO_SOCKET", "do_xdp_generic") == NULL);
	CHECK_STR(wd_callsite_suggest("ip6_mc_inptu"), "ip6_mc_input");
}

/* "6.1" in "6.1, 6.12: ..." as a version of its own, not inside 6.12 or 16.1. */
static bool names_kernel(const char *kernels, const char *series)
{
	size_t n = strlen(series);

	for (const char *p = strstr(kernels, series); p; p = strstr(p + 1, series))
		if ((p == kernels || (!isdigit((unsigned char)p[-1]) && p[-1] != '.')) &&
		    !isdigit((unsigned char)p[n]))
			return true;
	return false;
}

/*
 * What the VM test's workload (tests/vm/guest.sh callsite_workload) reported
 * on 6.1 and 6.12, and the same workload on the 6.18 host, as NOT_SPECIFIED
 * or a generic reason, by function: each needs an entry that lists the
 * reason, whose kernels line names that kernel and that reason, and that does
 * not claim to come from the kernel source only.
 */
static void test_callsites_observed(void)
{
	static const char *const seen[][3] = {
		{ "6.1", "NOT_SPECIFIED", "__dev_forward_skb2" },
		{ "6.1", "NOT_SPECIFIED", "__rtnl_unlock" },
		{ "6.1", "NOT_SPECIFIED", "icmpv6_rcv" },
		{ "6.1", "NOT_SPECIFIED", "ip6_mc_input" },
		{ "6.1", "NOT_SPECIFIED", "neigh_destroy" },
		{ "6.1", "NOT_SPECIFIED", "skb_queue_purge" },
		{ "6.1", "NOT_SPECIFIED", "tcp_disconnect" },
		{ "6.1", "NOT_SPECIFIED", "tcp_v4_rcv" },
		{ "6.1", "NOT_SPECIFIED", "tcp_v6_rcv" },
		{ "6.1", "NOT_SPECIFIED", "udp_destruct_common" },
		{ "6.1", "NOT_SPECIFIED", "unix_release_sock" },
		{ "6.1", "QDISC_DROP", "kfree_skb_list_reason" },
		{ "6.12", "NOT_SPECIFIED", "__dev_forward_skb2" },
		{ "6.12", "NOT_SPECIFIED", "__rtnl_unlock" },
		{ "6.12", "NOT_SPECIFIED", "ip6_mc_input" },
		{ "6.12", "NOT_SPECIFIED", "tcp_v4_rcv" },
		{ "6.12", "NOT_SPECIFIED", "tcp_v6_rcv" },
		{ "6.12", "NOT_SPECIFIED", "udp_destruct_common" },
		{ "6.12", "QUEUE_PURGE", "neigh_destroy" },
		{ "6.12", "QUEUE_PURGE", "skb_queue_purge_reason" },
		{ "6.12", "QUEUE_PURGE", "tcp_disconnect" },
		{ "6.12", "SOCKET_CLOSE", "unix_release_sock" },
		{ "6.18", "NOT_SPECIFIED", "ip6_mc_input" },
		{ "6.18", "NOT_SPECIFIED", "tcp_v4_rcv" },
		{ "6.18", "NOT_SPECIFIED", "tcp_v6_rcv" },
		{ "6.18", "NOT_SPECIFIED", "udp_destruct_common" },
		{ "6.18", "QUEUE_PURGE", "neigh_destroy" },
		{ "6.18", "QUEUE_PURGE", "skb_queue_purge_reason" },
		{ "6.18", "QUEUE_PURGE", "tcp_disconnect" },
		{ "6.18", "SOCKET_CLOSE", "unix_release_sock" },
	};

	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		const char *k = seen[i][0], *reason = seen[i][1], *fn = seen[i][2];
		const struct wd_callsite *c = wd_callsite_for(reason, fn);

		UNIT_RECORD(c != NULL, "%s at %s (%s): no call-site entry", reason, fn, k);
		if (!c)
			continue;
		UNIT_RECORD(names_kernel(c->kernels, k) && strstr(c->kernels, reason),
			    "%s: %s on %s, but kernels says '%s'", fn, reason, k, c->kernels);
		UNIT_RECORD(!strstr(c->seen, "not reproduced"),
			    "%s: seen in a run, yet marked '%s'", fn, c->seen);
	}
	CHECK(names_kernel("6.1, 6.12: X", "6.12") && !names_kernel("6.12, 6.18: X", "6.1"));
	CHECK(names_kernel("6.12.118 (stable)", "6.12") && !names_kernel("16.1", "6.1"));
	/* the suffixes kallsyms adds to a local copy */
	CHECK(wd_callsite_for("NOT_SPECIFIED", "udp_destruct_common.isra.0") != NULL);
}

static void test_noise_spec(void)
{
	char r[64], f[128];

	CHECK_INT(wd_noise_spec("not_specified@ip6_mc_input", r, sizeof(r), f, sizeof(f)), 0);
	CHECK_STR(r, "NOT_SPECIFIED");
	CHECK_STR(f, "ip6_mc_input");
	CHECK_INT(wd_noise_spec("*", r, sizeof(r), f, sizeof(f)), 0);
	CHECK_STR(f, "");
	CHECK_INT(wd_noise_spec("OPENVSWITCH:OVS_DROP_LAST_ACTION", r, sizeof(r), f, sizeof(f)), 0);
	CHECK_INT(wd_noise_spec("", r, sizeof(r), f, sizeof(f)), -1);
	CHECK_INT(wd_noise_spec("NO_SOCKET@", r, sizeof(r), f, sizeof(f)), -1);
	CHECK_INT(wd_noise_spec("@tcp_v4_rcv", r, sizeof(r), f, sizeof(f)), -1);
	CHECK_INT(wd_noise_spec("NO SOCKET", r, sizeof(r), f, sizeof(f)), -1);
	CHECK_INT(wd_noise_spec("**", r, sizeof(r), f, sizeof(f)), -1);
}

static void test_noise_file(void)
{
	char err[512], *text = NULL;
	struct wd_noise nz = { 0 };
	bool nodef;

	CHECK_INT(wd_noise_read("tests/unit/fixtures/noise/good.conf", true, &text, err,
				sizeof(err)), 0);
	CHECK_INT(wd_noise_parse(&nz, text, "good.conf", &nodef, err, sizeof(err)), 0);
	free(text);
	CHECK(nodef);
	CHECK_INT(nz.n, 4);
	CHECK_STR(nz.v[0].source, "good.conf:3");
	CHECK_STR(nz.v[0].why, "MLD from the lab switch");
	CHECK_STR(nz.v[1].reason, "NO_SOCKET");
	CHECK(nz.v[2].show);
	/* a show rule wins; the first hide rule that matches takes the count */
	CHECK(wd_noise_hide(&nz, "NO_SOCKET", "tcp_v4_rcv", 3) == NULL);
	CHECK(wd_noise_hide(&nz, "NO_SOCKET", "__udp4_lib_rcv", 4) == &nz.v[1]);
	CHECK(wd_noise_hide(&nz, "SOCKET_CLOSE", "unix_release_sock", 2) == &nz.v[3]);
	CHECK(wd_noise_hide(&nz, "NOT_SPECIFIED", "ip6_mc_input", 1) == &nz.v[0]);
	CHECK(wd_noise_hide(&nz, "NOT_SPECIFIED", "do_xdp_generic", 1) == NULL);
	CHECK_INT(nz.v[1].hidden, 4);
	CHECK_INT(nz.v[3].hidden, 2);
	nz.off = true;	/* --show-all */
	CHECK(wd_noise_hide(&nz, "NO_SOCKET", "__udp4_lib_rcv", 4) == NULL);
	wd_noise_free(&nz);
}

static void expect_bad(const char *path, const char *msg)
{
	char err[512], *text = NULL;
	struct wd_noise nz = { 0 };
	bool nodef;

	CHECK_INT(wd_noise_read(path, true, &text, err, sizeof(err)), 0);
	CHECK_INT(wd_noise_parse(&nz, text ? text : "", "f", &nodef, err, sizeof(err)), -1);
	UNIT_RECORD(strstr(err, msg) != NULL, "%s: '%s' lacks '%s'", path, err, msg);
	free(text);
	wd_noise_free(&nz);
}

static void test_noise_errors(void)
{
	char err[512], *text = NULL, tmpl[] = "/tmp/wd-noise-XXXXXX";

	expect_bad("tests/unit/fixtures/noise/bad-word.conf", "f:2: 'hidee' is no rule");
	expect_bad("tests/unit/fixtures/noise/bad-spec.conf", "f:1: hide takes one");
	expect_bad("tests/unit/fixtures/noise/bad-func.conf", "f:1: bad rule 'NO_SOCKET@tcp;v4'");
	CHECK_INT(wd_noise_read("/nonexistent/noise.conf", false, &text, err, sizeof(err)), 1);
	CHECK_INT(wd_noise_read("/nonexistent/noise.conf", true, &text, err, sizeof(err)), -1);
	CHECK_INT(wd_noise_read("tests/unit/fixtures", true, &text, err, sizeof(err)), -1);
	CHECK(strstr(err, "not a regular file") != NULL);
	/* a symbolic link is refused, not followed */
	CHECK(mkdtemp(tmpl) != NULL);
	{
		char link[64];

		snprintf(link, sizeof(link), "%s/l", tmpl);
		CHECK_INT(symlink("/etc/hostname", link), 0);
		CHECK_INT(wd_noise_read(link, true, &text, err, sizeof(err)), -1);
		CHECK(strstr(err, "symbolic link") != NULL);
		unlink(link);
	}
	rmdir(tmpl);
}

static void test_noise_defaults(void)
{
	struct wd_noise nz = { 0 };

	wd_noise_defaults(&nz);
	CHECK(nz.n > 0);
	CHECK(wd_noise_hide(&nz, "NOT_SPECIFIED", "ip6_mc_input", 1) != NULL);
	CHECK(wd_noise_hide(&nz, "NOT_SPECIFIED", "do_xdp_generic", 1) == NULL);
	CHECK(wd_noise_hide(&nz, "NO_SOCKET", "__udp4_lib_rcv", 1) == NULL);
	wd_noise_free(&nz);
}

static void test_docs_fresh(void)
{
	char *want, *have = unit_slurp("docs/callsites.md");
	struct unit_stream s;

	wd_callsites_markdown(unit_stream_open(&s));
	want = unit_stream_text(&s);
	UNIT_RECORD(have && !strcmp(have, want), "docs/callsites.md is stale: run `make docs`");
	free(have);
	free(want);
}

UNIT_MAIN(test_symbolise, test_folded, test_stack_errors, test_callsites,
	  test_callsites_observed, test_noise_spec,
	  test_noise_file, test_noise_errors, test_noise_defaults, test_docs_fresh)
