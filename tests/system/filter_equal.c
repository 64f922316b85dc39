// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * filter_equal: the pcap filter translator (src/lib/filter/cbpf_ebpf.c) against
 * libpcap itself, in the running kernel (root).
 *
 * For every expression (and hand-written classic programs with what libpcap
 * rarely emits), the translated program is loaded as a raw_tp program and
 * run by BPF_PROG_TEST_RUN through filter_equal.bpf.c on random IPv4/IPv6
 * packets; its verdict must equal pcap_offline_filter() on the same bytes.
 * Each packet is shown three ways: whole (linear = wirelen = length),
 * truncated (linear < wirelen: bytes past linear are paged, the filter
 * must not match on them and counts them in nonlinear) and padded (linear >
 * wirelen). Every expression must also load as a tp_btf (BPF_PROG_TYPE_TRACING)
 * program for kfree_skb, the longest one near WD_CBPF_MAX_INSNS included.
 *
 * Here: each filter against libpcap, the paged-data cases, the longest
 * expression, main(). The kernel side (filter_equal.bpf.o loaded, a packet
 * run through it) is filter_equal_kernel.c, the expressions and hand-written
 * programs filter_equal_cases.c, the random packets filter_equal_packets.c.
 *
 * WHYDROP_FILTER_SEED=N repeats a run; the seed is printed first.
 * Prints "  ok    ..."/"  FAIL  ..." lines and "N passed, N failed" last.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
/* libpcap's struct bpf_insn (classic) is not the kernel's (eBPF) */
#define bpf_insn pcap_bpf_insn
#include <pcap/pcap.h>
#undef bpf_insn

#include "cbpf_ebpf.h"
#include "filter_equal.h"
#include "filter_equal_cases.h"
#include "filter_equal_kernel.h"
#include "filter_equal_packets.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NPACKETS	500
#define SNAPLEN		262144
#define MAX_SHOWN	4	/* mismatches printed per case */

static int passed, failed;

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("  %-5s ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		passed++;
	else
		failed++;
}

/* ---- one filter against libpcap ---- */

static int pcap_verdict(const struct bpf_program *ref, const struct packet *pk, __u32 caplen)
{
	struct pcap_pkthdr h = { .caplen = caplen, .len = pk->len };

	return pcap_offline_filter(ref, &h, pk->data) != 0;
}

enum view { WHOLE, TRUNCATED, PADDED };
static const char *const view_names[] = { "whole", "truncated", "padded" };

/* One packet in one view; false on a mismatch (printed while shown < MAX_SHOWN). */
static bool compare(struct env *e, const struct bpf_program *ref, const struct packet *pk,
		    enum view view, unsigned int *shown, unsigned int *matched, const char **why)
{
	__u32 linear = pk->len, verdict, caplen = pk->len;
	int want, whole = pcap_verdict(ref, pk, pk->len);
	__u64 delta;
	bool ok;
	int err;

	if (view == TRUNCATED)
		linear = caplen = fe_below(pk->len);
	else if (view == PADDED)
		linear = pk->len + 1 + fe_below(64);
	want = view == TRUNCATED ? pcap_verdict(ref, pk, caplen) : whole;
	err = fe_run_once(e, pk, linear, pk->len, &verdict, &delta);
	if (err) {
		*why = strerror(-err);
		return false;
	}
	*matched += verdict == 1;
	ok = verdict == (__u32)want;
	/* paged bytes: counted once when a load needed them, never on a match */
	if (view != TRUNCATED)
		ok = ok && delta == 0;
	else
		ok = ok && delta <= 1 && !(verdict && delta) && !(whole && !want && delta != 1);
	if (!ok && (*shown)++ < MAX_SHOWN) {
		printf("        %s: length %u linear %u: libpcap %d, translated %u, nonlinear +%llu\n",
		       view_names[view], pk->len, linear, want, verdict, (unsigned long long)delta);
		fe_hexdump(pk->data, pk->len);
	}
	return ok;
}

/* Also as the tp_btf program whydrop loads for kfree_skb. */
static void check_tracing(struct env *e, const char *label, const struct wd_cbpf_insn *in,
			  size_t n)
{
	struct bpf_insn *insns;
	char msg[1024];
	size_t len;
	int fd;

	if (wd_cbpf_to_ebpf(in, n, e->tr_ctx_fd, e->tr_progs_fd, &insns, &len, msg, sizeof(msg))) {
		check(false, "%s: translated for tp_btf: %s", label, msg);
		return;
	}
	fd = wd_filter_prog_load(BPF_PROG_TYPE_TRACING, e->btf_id, insns, len, msg, sizeof(msg));
	check(fd >= 0, "%s: loads as tp_btf/kfree_skb%s%s", label, fd < 0 ? ": " : "",
	      fd < 0 ? msg : "");
	if (fd >= 0)
		close(fd);
	free(insns);
}

/* The translated program of in against libpcap running ref, on every packet. */
static void equal(struct env *e, const char *label, const struct wd_cbpf_insn *in, size_t n,
		  const struct bpf_program *ref)
{
	unsigned int bad = 0, shown = 0, matched = 0, view;
	const char *why = NULL;
	struct bpf_insn *insns;
	char msg[1024];
	size_t len, i;
	int fd;

	if (wd_cbpf_to_ebpf(in, n, e->ctx_fd, e->progs_fd, &insns, &len, msg, sizeof(msg))) {
		check(false, "%s: translated: %s", label, msg);
		return;
	}
	fd = wd_filter_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, insns, len, msg, sizeof(msg));
	free(insns);
	if (fd < 0 || fe_set_filter(e, fd)) {
		check(false, "%s: loads as raw_tp: %s", label, fd < 0 ? msg : strerror(errno));
		goto out;
	}
	e->cbpf_total += n;
	e->ebpf_total += len;
	for (i = 0; i < e->npkts && !why; i++)
		for (view = WHOLE; view <= PADDED && !why; view++)
			bad += !compare(e, ref, &e->pkts[i], view, &shown, &matched, &why);
	check(!bad && !why, "%s: %zu packets x 3 views, %u mismatches, %u matched "
	      "(%zu cBPF -> %zu eBPF insns)%s%s", label, e->npkts, bad, matched, n, len,
	      why ? ": " : "", why ? why : "");
	check_tracing(e, label, in, n);
out:
	if (fd >= 0)
		close(fd);
}

/* ---- expressions and hand-written programs (filter_equal_cases.c) ---- */

/*
 * libpcap up to 1.10.4 leaves M[] uninitialised (1.10.5 zeroes it, as the
 * translation does): its reference program stores 0 into every M[] first.
 */
static int with_zeroed_mem(const struct wd_cbpf_insn *in, size_t n, struct bpf_program *ref)
{
	size_t i, pre = 1 + WD_FILTER_MEMWORDS;

	ref->bf_insns = calloc(pre + n, sizeof(*ref->bf_insns));
	if (!ref->bf_insns)
		return -ENOMEM;
	ref->bf_len = (u_int)(pre + n);
	ref->bf_insns[0].code = BPF_LD | BPF_IMM;
	for (i = 1; i < pre; i++) {
		ref->bf_insns[i].code = BPF_ST;
		ref->bf_insns[i].k = (bpf_u_int32)(i - 1);
	}
	for (i = 0; i < n; i++) {
		ref->bf_insns[pre + i].code = in[i].code;
		ref->bf_insns[pre + i].jt = in[i].jt;
		ref->bf_insns[pre + i].jf = in[i].jf;
		ref->bf_insns[pre + i].k = in[i].k;
	}
	return 0;
}

static struct wd_cbpf_insn *to_cbpf(const struct bpf_program *prog)
{
	struct wd_cbpf_insn *in = calloc(prog->bf_len ? prog->bf_len : 1, sizeof(*in));
	u_int i;

	for (i = 0; in && i < prog->bf_len; i++) {
		in[i].code = prog->bf_insns[i].code;
		in[i].jt = prog->bf_insns[i].jt;
		in[i].jf = prog->bf_insns[i].jf;
		in[i].k = prog->bf_insns[i].k;
	}
	return in;
}

static void expression(struct env *e, pcap_t *dead, const char *expr, enum expect expect)
{
	struct wd_cbpf_insn *in;
	struct bpf_program prog;
	struct bpf_insn *insns;
	char msg[512], label[600];
	size_t len;
	int err;

	snprintf(label, sizeof(label), "'%.500s'", expr);
	if (pcap_compile(dead, &prog, expr, 1, PCAP_NETMASK_UNKNOWN)) {
		check(expect == ANY, "%s: libpcap refuses it: %s", label, pcap_geterr(dead));
		return;
	}
	in = to_cbpf(&prog);
	if (!in) {
		check(false, "%s: %s", label, strerror(ENOMEM));
		goto out;
	}
	if (expect == REFUSED) {
		err = wd_cbpf_to_ebpf(in, prog.bf_len, e->ctx_fd, e->progs_fd, &insns, &len,
				      msg, sizeof(msg));
		check(err == -EINVAL && msg[0], "%s: refused by the translator: %s", label,
		      err ? msg : "(translated)");
		if (!err)
			free(insns);
	} else {
		equal(e, label, in, prog.bf_len, &prog);
	}
	free(in);
out:
	pcap_freecode(&prog);
}

static void hand_program(struct env *e, const struct wd_cbpf_insn *in, size_t n, const char *name)
{
	struct bpf_program ref;
	char label[200];

	snprintf(label, sizeof(label), "cBPF: %s", name);
	if (with_zeroed_mem(in, n, &ref)) {
		check(false, "%s: %s", label, strerror(ENOMEM));
		return;
	}
	equal(e, label, in, n, &ref);
	free(ref.bf_insns);
}

/* ---- paged data, on purpose ---- */

struct paged_case {
	const char *expr;
	__u32 len, linear;
	__u32 verdict;
	__u64 delta;
	const char *what;
};

static const struct paged_case paged[] = {
	{ "ip[200] = 0x7a", 300, 150, 0, 1, "a load past linear, within wirelen: paged, counted" },
	{ "ip[len - 1] = 0x7a", 300, 150, 0, 1, "an indexed load past linear: paged, counted" },
	{ "ip[400] = 0x7a", 300, 150, 0, 0, "a load past wirelen: outside, not counted" },
	{ "ip[100] = 0x7a", 300, 150, 1, 0, "a load within linear still matches" },
	{ "ip[700] = 0x7a", 1000, 1000, 1, 0, "past buf[], within linear: matches" },
	{ "ip[len - 1] = 0x7a", 1000, 1000, 1, 0, "indexed past buf[], within linear: matches" },
	{ "ip[len - 1] = 0x7a", 1000, 999, 0, 1, "the last byte only is paged: counted" },
};

/* An IPv4/UDP packet of len bytes, 0x7a at 100, 200, 700 and the last byte. */
static void paged_packet(struct packet *pk, __u32 len)
{
	memset(pk->data, 0, sizeof(pk->data));
	pk->len = len;
	pk->data[0] = 0x45;
	fe_put16(pk->data + 2, len);
	pk->data[8] = 64;
	pk->data[9] = 17;
	pk->data[100] = pk->data[200] = pk->data[len - 1] = 0x7a;
	if (len > 700)
		pk->data[700] = 0x7a;
}

static void paged_checks(struct env *e, pcap_t *dead)
{
	struct bpf_insn *insns;
	struct bpf_program prog;
	struct wd_cbpf_insn *in;
	struct packet pk;
	char msg[512];
	__u32 verdict;
	__u64 delta;
	size_t i, len;
	int fd, err;

	for (i = 0; i < ARRAY_SIZE(paged); i++) {
		const struct paged_case *c = &paged[i];

		if (pcap_compile(dead, &prog, c->expr, 1, PCAP_NETMASK_UNKNOWN)) {
			check(false, "'%s': libpcap: %s", c->expr, pcap_geterr(dead));
			continue;
		}
		in = to_cbpf(&prog);
		err = !in || wd_cbpf_to_ebpf(in, prog.bf_len, e->ctx_fd, e->progs_fd, &insns,
					     &len, msg, sizeof(msg));
		fd = err ? -1 : wd_filter_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, insns, len,
						    msg, sizeof(msg));
		if (!err)
			free(insns);
		paged_packet(&pk, c->len);
		err = fd < 0 ? -EINVAL : fe_set_filter(e, fd);
		if (!err)
			err = fe_run_once(e, &pk, c->linear, c->len, &verdict, &delta);
		if (err)
			check(false, "'%s', length %u, linear %u: %s", c->expr, c->len, c->linear,
			      fd < 0 ? msg : strerror(-err));
		else
			check(verdict == c->verdict && delta == c->delta,
			      "'%s', length %u, linear %u: verdict %u, nonlinear +%llu (%s)",
			      c->expr, c->len, c->linear, verdict, (unsigned long long)delta,
			      c->what);
		if (fd >= 0)
			close(fd);
		free(in);
		pcap_freecode(&prog);
	}
}

/* ---- the longest expression ---- */

static void clause(char *buf, size_t len, unsigned int i)
{
	switch (i % 6) {
	case 0:
		snprintf(buf, len, "tcp port %u", 1000 + i);
		break;
	case 1:
		snprintf(buf, len, "udp dst port %u", 2000 + i);
		break;
	case 2:
		snprintf(buf, len, "host 192.0.2.%u", i % 256);
		break;
	case 3:
		snprintf(buf, len, "ip6 dst net 2001:db8:%x::/48", i);
		break;
	case 4:
		snprintf(buf, len, "ip[%u] = %u", (i * 37) % 400, i % 256);
		break;
	default:
		snprintf(buf, len, "udp[%u:2] = %u and len > %u", (i * 13) % 300, i, i);
		break;
	}
}

/* Try expr or (c): kept when libpcap's program still fits in WD_CBPF_MAX_INSNS. */
static bool try_append(pcap_t *dead, char *expr, size_t cap, const char *c, u_int *ninsns)
{
	size_t len = strlen(expr);
	struct bpf_program prog;
	bool fits;

	if (len + strlen(c) + 8 >= cap)
		return false;
	snprintf(expr + len, cap - len, "%s(%s)", len ? " or " : "", c);
	if (pcap_compile(dead, &prog, expr, 1, PCAP_NETMASK_UNKNOWN)) {
		expr[len] = '\0';
		return false;
	}
	fits = prog.bf_len <= WD_CBPF_MAX_INSNS;
	if (fits)
		*ninsns = prog.bf_len;
	else
		expr[len] = '\0';
	pcap_freecode(&prog);
	return fits;
}

/* Mixed clauses joined by "or", then small ones to fill up to the limit. */
static char *longest_expression(pcap_t *dead, u_int *ninsns)
{
	size_t cap = 1 << 16;
	char *expr = calloc(1, cap), c[80];
	unsigned int i;

	for (i = 0; expr && i < 1000; i++) {
		clause(c, sizeof(c), i);
		if (try_append(dead, expr, cap, c, ninsns))
			continue;
		snprintf(c, sizeof(c), "ip[%u] = %u", i % 64, i % 256);
		if (!try_append(dead, expr, cap, c, ninsns))
			break;
	}
	return expr;
}

static void longest(struct env *e, pcap_t *dead)
{
	struct bpf_program prog;
	struct wd_cbpf_insn *in;
	struct bpf_insn *insns;
	u_int ninsns = 0;
	char msg[1024];
	struct timespec t0, t1;
	char *expr = longest_expression(dead, &ninsns);
	size_t len;
	int fd;

	if (!expr || !*expr || pcap_compile(dead, &prog, expr, 1, PCAP_NETMASK_UNKNOWN)) {
		check(false, "longest expression: none compiles");
		free(expr);
		return;
	}
	check(ninsns > WD_CBPF_MAX_INSNS - 16, "longest expression: %u cBPF instructions "
	      "(at most %d), %zu characters", ninsns, WD_CBPF_MAX_INSNS, strlen(expr));
	in = to_cbpf(&prog);
	if (!in || wd_cbpf_to_ebpf(in, prog.bf_len, e->tr_ctx_fd, e->tr_progs_fd, &insns, &len,
				   msg, sizeof(msg))) {
		check(false, "longest expression: translated: %s", in ? msg : strerror(ENOMEM));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = wd_filter_prog_load(BPF_PROG_TYPE_TRACING, e->btf_id, insns, len, msg, sizeof(msg));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	check(fd >= 0, "longest expression: %zu eBPF insns load as tp_btf/kfree_skb in %.1f ms%s%s",
	      len, (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
	      fd < 0 ? ": " : "", fd < 0 ? msg : "");
	if (fd >= 0)
		close(fd);
	fe_verifier_stats(e, insns, len);
	free(insns);
	/* and against libpcap, like the others */
	equal(e, "longest expression", in, prog.bf_len, &prog);
out:
	free(in);
	pcap_freecode(&prog);
	free(expr);
}

/* ---- set-up ---- */

static void describe_packets(const struct env *e)
{
	size_t i, v4 = 0, v6 = 0, past_buf = 0, longest = 0;

	for (i = 0; i < e->npkts; i++) {
		const struct packet *pk = &e->pkts[i];

		v4 += pk->data[0] >> 4 == 4;
		v6 += pk->data[0] >> 4 == 6;
		past_buf += pk->len > WD_FILTER_BUF;
		if (pk->len > longest)
			longest = pk->len;
	}
	printf("%zu packets: %zu IPv4, %zu IPv6 (some of them only random bytes), %zu others; "
	       "%zu longer than %d bytes, the longest %zu\n", e->npkts, v4, v6,
	       e->npkts - v4 - v6, past_buf, WD_FILTER_BUF, longest);
}

static __u64 seed(void)
{
	const char *s = getenv("WHYDROP_FILTER_SEED");
	struct timespec ts;

	if (s && *s)
		return strtoull(s, NULL, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((__u64)ts.tv_sec * 1000000007ULL) ^ (__u64)ts.tv_nsec ^ ((__u64)getpid() << 32);
}

int main(void)
{
	struct env e = { .npkts = NPACKETS };
	pcap_t *dead = pcap_open_dead(DLT_RAW, SNAPLEN);
	__u64 s = seed();
	size_t i;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("seed %llu (WHYDROP_FILTER_SEED=%llu repeats this run)\n",
	       (unsigned long long)s, (unsigned long long)s);
	fe_seed(s);
	err = fe_setup(&e);
	e.pkts = calloc(e.npkts, sizeof(*e.pkts));
	if (err || !dead || !e.pkts) {
		check(false, "set-up (root, BPF, libpcap): %s", strerror(err ? -err : ENOMEM));
		goto out;
	}
	for (i = 0; i < e.npkts; i++)
		fe_make_packet(&e.pkts[i]);
	describe_packets(&e);
	for (i = 0; i < fe_nexprs; i++)
		expression(&e, dead, fe_exprs[i].expr, fe_exprs[i].expect);
	for (i = 0; i < fe_nprogs; i++)
		hand_program(&e, fe_progs[i].insns, fe_progs[i].n, fe_progs[i].name);
	paged_checks(&e, dead);
	longest(&e, dead);
	if (e.cbpf_total)
		printf("%zu filter runs compared; %zu cBPF -> %zu eBPF instructions (%.2f per cBPF "
		       "instruction, prologue and epilogue included)\n", e.runs, e.cbpf_total,
		       e.ebpf_total, (double)e.ebpf_total / (double)e.cbpf_total);
out:
	if (dead)
		pcap_close(dead);
	free(e.pkts);
	fe_teardown(&e);
	printf("%d passed, %d failed\n", passed, failed);
	return failed || !passed;
}
