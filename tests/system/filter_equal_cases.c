// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What filter_equal compares with libpcap: the pcap filter expressions
 * (and what the translator must do with each), and hand-written classic
 * programs with what libpcap rarely emits.
 */
#include <stddef.h>
#include <linux/filter.h>

#include "cbpf_ebpf.h"
#include "filter_equal_cases.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const struct fe_expr fe_exprs[] = {
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
const size_t fe_nexprs = ARRAY_SIZE(fe_exprs);

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

const struct fe_prog fe_progs[] = {
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
const size_t fe_nprogs = ARRAY_SIZE(fe_progs);
