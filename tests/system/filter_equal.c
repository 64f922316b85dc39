// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * filter_equal: the pcap filter translator (src/lib/cbpf_ebpf.c) against
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
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "cbpf_ebpf.h"
#include "filter_equal.h"
#include "filter_equal_packets.h"
#include "filter_equal.skel.h"

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

/* ---- the kernel side ---- */

struct env {
	struct filter_equal_bpf *skel;
	int setup_fd, pkt_fd, ctx_fd, progs_fd;
	int tr_ctx_fd, tr_progs_fd;	/* maps of the tp_btf loads */
	__u32 btf_id;			/* btf_trace_kfree_skb */
	int ncpus;
	struct wd_filter_ctx *percpu;
	struct packet *pkts;
	size_t npkts;
	size_t runs, cbpf_total, ebpf_total;
};

static int nonlinear(struct env *e, __u64 *sum)
{
	__u32 zero = 0;
	int i;

	if (bpf_map_lookup_elem(e->ctx_fd, &zero, e->percpu))
		return -errno;
	for (*sum = 0, i = 0; i < e->ncpus; i++)
		*sum += e->percpu[i].nonlinear;
	return 0;
}

/*
 * Run the filter in filter_progs on pk, as linear bytes out of wirelen.
 * Bytes past min(linear, length) are junk: a filter reading them shows.
 */
static int run_once(struct env *e, const struct packet *pk, __u32 linear, __u32 wirelen,
		    __u32 *verdict, __u64 *delta)
{
	static struct fe_pkt v;
	__u64 args[2] = { 0, 0 }, before, after;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	__u32 zero = 0, real = linear < pk->len ? linear : pk->len, i;
	int err;

	memcpy(v.data, pk->data, real);
	for (i = real; i < FE_PKT_MAX; i++)
		v.data[i] = (__u8)fe_rnd();
	v.linear = linear;
	v.wirelen = wirelen;
	if (bpf_map_update_elem(e->pkt_fd, &zero, &v, BPF_ANY))
		return -errno;
	err = nonlinear(e, &before);
	if (!err)
		err = bpf_prog_test_run_opts(e->setup_fd, &opts);
	if (!err)
		err = nonlinear(e, &after);
	if (err)
		return err;
	e->runs++;
	*verdict = opts.retval;
	*delta = after - before;
	return 0;
}

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
	err = run_once(e, pk, linear, pk->len, &verdict, &delta);
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

static int set_filter(struct env *e, int fd)
{
	__u32 slot = WD_FILTER_PROG;

	return bpf_map_update_elem(e->progs_fd, &slot, &fd, BPF_ANY) ? -errno : 0;
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
	if (fd < 0 || set_filter(e, fd)) {
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

/* ---- what is compared ---- */

/* EQUAL or REFUSED by the translator; ANY: equal if libpcap compiles it. */
enum expect { EQUAL, REFUSED, ANY };

static const struct {
	const char *expr;
	enum expect expect;
} exprs[] = {
	{ "udp[150:2] = 0x4142", EQUAL },	/* past byte 128 */
	{ "ip[200] = 0x7a", EQUAL },
	{ "ip[300] = 0x7a or ip6[700:2] > 0x8000", EQUAL },	/* past buf[] */
	{ "tcp port 443", EQUAL },
	{ "udp and dst port 53", EQUAL },
	{ "ip6", EQUAL },
	{ "icmp6", EQUAL },
	{ "icmp", EQUAL },
	{ "ip", EQUAL },
	{ "tcp", EQUAL },
	{ "udp", EQUAL },
	{ "tcp[tcpflags] & tcp-syn != 0", EQUAL },
	{ "tcp[tcpflags] & (tcp-syn|tcp-ack) = tcp-syn", EQUAL },
	{ "ip[6:2] & 0x1fff = 0", EQUAL },
	{ "len > 200", EQUAL },
	{ "less 100", EQUAL },
	{ "greater 1000", EQUAL },
	{ "net 192.0.2.0/24", EQUAL },
	{ "host 192.0.2.7", EQUAL },
	{ "src host 10.1.2.3 or dst net 198.51.100.0/24", EQUAL },
	{ "ip6 dst net 2001:db8::/32", EQUAL },
	{ "ip6 src net 2001:db8::/32 and udp", EQUAL },
	{ "ip6 and tcp port 80", EQUAL },
	{ "portrange 1000-2000", EQUAL },
	{ "tcp src portrange 1000-2000 or udp dst port 22", EQUAL },
	{ "ip[0] & 0xf > 5", EQUAL },
	{ "udp[8:4] = 0", EQUAL },
	{ "tcp[((tcp[12:1] & 0xf0) >> 2):4] = 0x47455420", EQUAL },	/* "GET " */
	{ "ip[2:2] % ip[8] = 0", EQUAL },	/* modulo by X, X = TTL may be 0 */
	{ "ip[2:2] / ip[8] > 3", EQUAL },	/* division by X */
	{ "ip[8] << ip[9] = 0x600", EQUAL },	/* shift by X, often >= 32 */
	{ "ip[2:2] >> (ip[8] & 0x3f) = 0", EQUAL },
	{ "ip[4:2] ^ ip[6:2] = 0x4000 or ip[1] * 3 - 1 > 300", EQUAL },
	{ "-ip[1] = 0xffffff00 or (ip[0] | 1) & 0xf1 = 0x41", EQUAL },
	{ "len - 20 > 180 and ip", EQUAL },
	{ "ip[len - 1] & 1 = 1", EQUAL },	/* indexed, past buf[] in long packets */
	{ "ip6[len - 2:2] > 0x1000", EQUAL },
	{ "udp[len - 60:2] = 0x4142 or tcp[len - 80] = 0x7a", EQUAL },
	{ "ip6 protochain 6", REFUSED },	/* backward jumps */
	{ "ether proto \\ip", ANY },	/* no link layer on DLT_RAW: 1.10.3 takes it */
	{ "ether host 02:00:00:00:00:01", ANY },
};

#define I(c, k)		{ (c), 0, 0, (k) }
#define J(c, k, t, f)	{ (c), (t), (f), (k) }

static const struct wd_cbpf_insn p_div[] = {
	I(BPF_LD | BPF_B | BPF_ABS, 8), I(BPF_MISC | BPF_TAX, 0), I(BPF_LD | BPF_H | BPF_ABS, 2),
	I(BPF_ALU | BPF_DIV | BPF_X, 0), J(BPF_JMP | BPF_JGT | BPF_K, 3, 0, 1),
	I(BPF_RET | BPF_K, 1), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_mod[] = {
	I(BPF_LD | BPF_B | BPF_ABS, 8), I(BPF_MISC | BPF_TAX, 0), I(BPF_LD | BPF_H | BPF_ABS, 2),
	I(BPF_ALU | BPF_MOD | BPF_X, 0), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_lsh[] = {
	I(BPF_LD | BPF_B | BPF_ABS, 9), I(BPF_MISC | BPF_TAX, 0), I(BPF_LD | BPF_IMM, 0xdeadbeef),
	I(BPF_ALU | BPF_LSH | BPF_X, 0), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_rsh[] = {
	I(BPF_LD | BPF_B | BPF_ABS, 1), I(BPF_ALU | BPF_AND | BPF_K, 0x3f), I(BPF_MISC | BPF_TAX, 0),
	I(BPF_LD | BPF_IMM, 0xfedcba98), I(BPF_ALU | BPF_RSH | BPF_X, 0), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_mem[] = {
	I(BPF_LD | BPF_H | BPF_ABS, 2), I(BPF_ST, 0), I(BPF_LD | BPF_B | BPF_ABS, 9),
	I(BPF_MISC | BPF_TAX, 0), I(BPF_STX, 15), I(BPF_LD | BPF_IMM, 0), I(BPF_MISC | BPF_TAX, 0),
	I(BPF_LDX | BPF_MEM, 15), I(BPF_LD | BPF_MEM, 0), I(BPF_ALU | BPF_SUB | BPF_X, 0),
	I(BPF_ALU | BPF_AND | BPF_K, 3), J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),
	I(BPF_RET | BPF_K, 1), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_jset[] = {
	I(BPF_LD | BPF_B | BPF_ABS, 1), I(BPF_MISC | BPF_TAX, 0), I(BPF_LD | BPF_B | BPF_ABS, 8),
	J(BPF_JMP | BPF_JSET | BPF_X, 0, 0, 1), J(BPF_JMP | BPF_JSET | BPF_K, 0x81, 1, 2),
	J(BPF_JMP | BPF_JSET | BPF_K, 0x100, 0, 1), I(BPF_RET | BPF_A, 0), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_alu[] = {
	I(BPF_LD | BPF_B | BPF_ABS, 8), I(BPF_ALU | BPF_NEG, 0),
	I(BPF_ALU | BPF_XOR | BPF_K, 0x5a5a5a5a), I(BPF_ALU | BPF_MUL | BPF_K, 0x9e3779b9),
	I(BPF_MISC | BPF_TAX, 0), I(BPF_LD | BPF_W | BPF_ABS, 4), I(BPF_ALU | BPF_SUB | BPF_X, 0),
	I(BPF_ALU | BPF_OR | BPF_K, 1), I(BPF_ALU | BPF_AND | BPF_X, 0),
	I(BPF_ALU | BPF_MUL | BPF_X, 0), I(BPF_ALU | BPF_XOR | BPF_X, 0),
	I(BPF_ALU | BPF_ADD | BPF_K, 0x80000000), I(BPF_ALU | BPF_OR | BPF_X, 0),
	I(BPF_ALU | BPF_RSH | BPF_K, 3), I(BPF_ALU | BPF_LSH | BPF_K, 5),
	I(BPF_ALU | BPF_ADD | BPF_X, 0), I(BPF_ALU | BPF_SUB | BPF_K, 7),
	I(BPF_ALU | BPF_DIV | BPF_K, 3), I(BPF_ALU | BPF_MOD | BPF_K, 0x10001),
	I(BPF_ALU | BPF_MUL | BPF_K, 0xfff1),
	J(BPF_JMP | BPF_JGE | BPF_K, 0x7fff0000, 0, 1), I(BPF_RET | BPF_K, 1), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_bigk[] = {	/* constants >= 2^31 are unsigned */
	I(BPF_LD | BPF_W | BPF_ABS, 12), I(BPF_ST, 0), I(BPF_ALU | BPF_DIV | BPF_K, 0x80000001),
	J(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0), I(BPF_LD | BPF_MEM, 0),
	I(BPF_ALU | BPF_MOD | BPF_K, 0x90000000), J(BPF_JMP | BPF_JGT | BPF_K, 0x7fffffff, 0, 1),
	I(BPF_RET | BPF_A, 0), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_len[] = {
	I(BPF_LDX | BPF_W | BPF_LEN, 0), I(BPF_LD | BPF_H | BPF_ABS, 2),
	J(BPF_JMP | BPF_JEQ | BPF_X, 0, 1, 0), J(BPF_JMP | BPF_JGT | BPF_X, 0, 2, 3),
	I(BPF_MISC | BPF_TXA, 0), J(BPF_JMP | BPF_JGE | BPF_K, 150, 2, 1),
	I(BPF_RET | BPF_K, 2), I(BPF_RET | BPF_K, 0), I(BPF_RET | BPF_K, 3),
};
static const struct wd_cbpf_insn p_ind[] = {
	I(BPF_LDX | BPF_MSH | BPF_B, 0), I(BPF_LD | BPF_B | BPF_IND, 9), I(BPF_MISC | BPF_TAX, 0),
	I(BPF_LD | BPF_H | BPF_IND, 20), I(BPF_ALU | BPF_ADD | BPF_X, 0),
	I(BPF_ALU | BPF_AND | BPF_K, 0x7ff), I(BPF_MISC | BPF_TAX, 0),
	I(BPF_LD | BPF_W | BPF_IND, 0), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_wrap[] = {	/* X + k past 2^32: out, never wrapped */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JSET | BPF_K, 0x10, 0, 3),
	I(BPF_LDX | BPF_IMM, 0xfffffff0), I(BPF_LD | BPF_W | BPF_IND, 0x14), I(BPF_RET | BPF_K, 1),
	J(BPF_JMP | BPF_JSET | BPF_K, 0x20, 0, 3),
	I(BPF_LDX | BPF_IMM, 0xffffffff), I(BPF_LD | BPF_H | BPF_IND, 2), I(BPF_RET | BPF_K, 1),
	I(BPF_LDX | BPF_IMM, 0x10), I(BPF_LD | BPF_B | BPF_IND, 0xfffffff8), I(BPF_RET | BPF_K, 1),
};
static const struct wd_cbpf_insn p_far[] = {	/* fixed offsets no packet has */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JGT | BPF_K, 0x50, 0, 2),
	I(BPF_LD | BPF_W | BPF_ABS, 0xfffffffe), I(BPF_RET | BPF_K, 1),
	J(BPF_JMP | BPF_JGT | BPF_K, 0x40, 0, 2),
	I(BPF_LD | BPF_B | BPF_ABS, 0xffffffff), I(BPF_RET | BPF_K, 1),
	I(BPF_LD | BPF_H | BPF_ABS, 0xfffffff0), I(BPF_RET | BPF_K, 1),
};
static const struct wd_cbpf_insn p_join[] = {	/* [50:4] is not checked by [99] */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1),
	I(BPF_LD | BPF_B | BPF_ABS, 99), I(BPF_LD | BPF_W | BPF_ABS, 50), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_xjoin[] = {	/* X = 0 or 0..60 from MSH, then [x + 100] */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JSET | BPF_K, 0x10, 0, 2),
	I(BPF_LDX | BPF_IMM, 0), I(BPF_JMP | BPF_JA, 1), I(BPF_LDX | BPF_MSH | BPF_B, 0),
	I(BPF_LD | BPF_B | BPF_IND, 100), J(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1),
	I(BPF_RET | BPF_K, 1), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_ja[] = {	/* JA, RET A, unreachable code */
	I(BPF_JMP | BPF_JA, 2), I(BPF_RET | BPF_K, 7), I(BPF_RET | BPF_K, 0),
	I(BPF_LD | BPF_B | BPF_ABS, 9), J(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 1),
	I(BPF_RET | BPF_A, 0), I(BPF_JMP | BPF_JA, 0), I(BPF_RET | BPF_K, 0),
};
static const struct wd_cbpf_insn p_uninit[] = {	/* M[5] read before a store: 0 */
	I(BPF_LD | BPF_B | BPF_ABS, 0), J(BPF_JMP | BPF_JGT | BPF_K, 0x50, 0, 2),
	I(BPF_LD | BPF_IMM, 7), I(BPF_ST, 5), I(BPF_LD | BPF_MEM, 5), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_big[] = {	/* RET of 2^31, A and X at start are 0 */
	I(BPF_LD | BPF_B | BPF_ABS, 1), J(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1),
	I(BPF_RET | BPF_K, 0x80000000), I(BPF_MISC | BPF_TXA, 0), I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_past[] = {	/* MSH and loads past buf[] */
	I(BPF_LDX | BPF_MSH | BPF_B, 300), I(BPF_LD | BPF_W | BPF_IND, 260),
	I(BPF_MISC | BPF_TAX, 0), I(BPF_LD | BPF_H | BPF_ABS, 1000), I(BPF_ALU | BPF_ADD | BPF_X, 0),
	I(BPF_RET | BPF_A, 0),
};
static const struct wd_cbpf_insn p_last[] = {	/* the last byte: buf[], or read past it */
	I(BPF_LD | BPF_H | BPF_ABS, 2), I(BPF_ALU | BPF_SUB | BPF_K, 1), I(BPF_MISC | BPF_TAX, 0),
	I(BPF_LD | BPF_B | BPF_IND, 0), I(BPF_RET | BPF_A, 0),
};

#define PROG(p, what)	{ p, ARRAY_SIZE(p), what }

static const struct {
	const struct wd_cbpf_insn *insns;
	size_t n;
	const char *name;
} progs[] = {
	PROG(p_div, "division by X (TTL, may be 0)"),
	PROG(p_mod, "modulo by X (TTL, may be 0)"),
	PROG(p_lsh, "left shift by X (protocol, often >= 32)"),
	PROG(p_rsh, "right shift by X (0..63)"),
	PROG(p_mem, "M[] store, STX, load into A and X"),
	PROG(p_jset, "JSET with X and K"),
	PROG(p_alu, "NEG XOR MUL SUB OR AND ADD DIV MOD with K and X, wrapping"),
	PROG(p_bigk, "DIV, MOD, JGT by constants >= 2^31"),
	PROG(p_len, "LEN into A and X, TXA, JEQ/JGT with X"),
	PROG(p_ind, "indexed W/H/B loads, X from MSH"),
	PROG(p_wrap, "indexed loads whose X + k passes 2^32"),
	PROG(p_far, "fixed-offset loads no packet holds"),
	PROG(p_join, "a bounds check after paths that checked less"),
	PROG(p_xjoin, "an indexed load after paths with different X"),
	PROG(p_ja, "JA, RET A, unreachable instructions"),
	PROG(p_uninit, "M[] read before any store"),
	PROG(p_big, "RET 2^31, A and X start at 0"),
	PROG(p_past, "MSH and W/H loads past buf[]"),
	PROG(p_last, "the last byte, in buf[] or past it"),
};

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
		err = fd < 0 ? -EINVAL : set_filter(e, fd);
		if (!err)
			err = run_once(e, &pk, c->linear, c->len, &verdict, &delta);
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

/* The verifier's own statistics (BPF_LOG_STATS) of a tp_btf load. */
static void verifier_stats(struct env *e, const struct bpf_insn *insns, size_t n)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP,
		    .attach_btf_id = e->btf_id, .log_level = 4);
	char log[4096] = "", *line, *save = NULL;
	int fd;

	opts.log_buf = log;
	opts.log_size = sizeof(log);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "wd_filter", "Dual BSD/GPL", insns, n, &opts);
	if (fd >= 0)
		close(fd);
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("        verifier: %s\n", line);
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
	verifier_stats(e, insns, len);
	free(insns);
	/* and against libpcap, like the others */
	equal(e, "longest expression", in, prog.bf_len, &prog);
out:
	free(in);
	pcap_freecode(&prog);
	free(expr);
}

/* ---- set-up ---- */

static int setup(struct env *e)
{
	struct btf *vmlinux;
	int id;

	e->skel = filter_equal_bpf__open_and_load();
	if (!e->skel)
		return -errno;
	e->setup_fd = bpf_program__fd(e->skel->progs.setup);
	e->pkt_fd = bpf_map__fd(e->skel->maps.pkt);
	e->ctx_fd = bpf_map__fd(e->skel->maps.filter_ctx);
	e->progs_fd = bpf_map__fd(e->skel->maps.filter_progs);
	e->ncpus = libbpf_num_possible_cpus();
	if (e->ncpus <= 0)
		return -EINVAL;
	e->percpu = calloc((size_t)e->ncpus, sizeof(*e->percpu));
	/* tp_btf loads get maps of their own: a program array has one program type */
	e->tr_ctx_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "fe_tr_ctx", 4,
				      sizeof(struct wd_filter_ctx), 1, NULL);
	e->tr_progs_fd = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "fe_tr_progs", 4, 4, 2, NULL);
	if (!e->percpu || e->tr_ctx_fd < 0 || e->tr_progs_fd < 0)
		return -ENOMEM;
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return -errno;
	id = btf__find_by_name_kind(vmlinux, "btf_trace_kfree_skb", BTF_KIND_TYPEDEF);
	btf__free(vmlinux);
	if (id <= 0)
		return -ENOENT;
	e->btf_id = (__u32)id;
	return 0;
}

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
	err = setup(&e);
	e.pkts = calloc(e.npkts, sizeof(*e.pkts));
	if (err || !dead || !e.pkts) {
		check(false, "set-up (root, BPF, libpcap): %s", strerror(err ? -err : ENOMEM));
		goto out;
	}
	for (i = 0; i < e.npkts; i++)
		fe_make_packet(&e.pkts[i]);
	describe_packets(&e);
	for (i = 0; i < ARRAY_SIZE(exprs); i++)
		expression(&e, dead, exprs[i].expr, exprs[i].expect);
	for (i = 0; i < ARRAY_SIZE(progs); i++)
		hand_program(&e, progs[i].insns, progs[i].n, progs[i].name);
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
	free(e.percpu);
	filter_equal_bpf__destroy(e.skel);
	printf("%d passed, %d failed\n", passed, failed);
	return failed || !passed;
}
