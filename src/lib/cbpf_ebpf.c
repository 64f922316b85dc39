// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Classic BPF (a libpcap filter for DLT_RAW) into straight eBPF: one pass
 * over the classic program emits the main code in order, binding a label
 * at each classic instruction; rare paths (a load outside buf[], the
 * accounting of a load past the packet) go to cold blocks emitted after it;
 * jumps are patched once every label has a place. See cbpf_ebpf.h for the
 * program's shape and semantics.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <bpf/bpf.h>

#include "cbpf_ebpf.h"

/* Registers of the generated program. */
#define R_FC	BPF_REG_6	/* struct wd_filter_ctx * */
#define R_A	BPF_REG_7
#define R_X	BPF_REG_8
#define R_LEN	BPF_REG_9	/* min(linear, wirelen): bytes a load may read */

#define STACK_CTX	(-8)
#define STACK_KEY	(-16)

#define OFF(f)	((__s16)offsetof(struct wd_filter_ctx, f))

/* Labels after the n of the classic instructions. */
enum { L_RET0, L_MATCH, L_OOB, L_FIXED };

enum cold_kind {
	COLD_STUB,	/* r2 = end; to the out-of-packet accounting */
	COLD_READ,	/* an indexed load past buf[]: read into tmp[], go back */
};

struct cold {
	enum cold_kind kind;
	int label;
	int back;	/* COLD_READ: where the load continues */
	__u32 end;	/* COLD_STUB */
	__u8 size;	/* COLD_READ */
};

struct fixup {
	size_t at;
	int label;
};

struct label {
	long at;		/* eBPF index, -1 until bound */
	unsigned int refs;	/* jumps to it */
};

/* What holds on every path to a classic instruction. */
struct state {
	bool reach;
	__u32 stored;		/* M[] words stored */
	__u32 known;		/* min(linear, wirelen) is at least this */
	__u32 xmax;		/* X is at most this (as the verifier sees it too) */
};

struct xlat {
	const struct wd_cbpf_insn *in;
	size_t n;
	int ctx_fd, progs_fd;
	struct bpf_insn *out;
	size_t len, cap;
	struct label *labels;
	size_t nlabels, labels_cap;
	struct fixup *fix;
	size_t nfix, fix_cap;
	struct cold *cold;
	size_t ncold, cold_cap;
	struct state *st;
	size_t cur;			/* the classic instruction being emitted */
	bool falls;			/* the last instruction emitted may fall through */
	__u32 copy;			/* bytes copied into buf[] */
	__u32 uninit_mem;		/* M[] words read before any store */
	bool nomem;
};

/* Grow an array of elements of size sz so that it holds one more. */
static bool grow(void *arrp, size_t *cap, size_t len, size_t sz)
{
	void **arr = arrp;
	size_t ncap;
	void *p;

	if (len < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, ncap * sz);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static void emit(struct xlat *x, __u8 code, __u8 dst, __u8 src, __s16 off, __s32 imm)
{
	struct bpf_insn *i;

	if (x->nomem || !grow(&x->out, &x->cap, x->len, sizeof(*x->out))) {
		x->nomem = true;
		return;
	}
	i = &x->out[x->len++];
	memset(i, 0, sizeof(*i));
	x->falls = code != (BPF_JMP | BPF_JA) && code != (BPF_JMP | BPF_EXIT);
	i->code = code;
	i->dst_reg = dst;
	i->src_reg = src;
	i->off = off;
	i->imm = imm;
}

static int new_label(struct xlat *x)
{
	if (x->nomem || !grow(&x->labels, &x->labels_cap, x->nlabels, sizeof(*x->labels))) {
		x->nomem = true;
		return 0;
	}
	x->labels[x->nlabels].at = -1;
	x->labels[x->nlabels].refs = 0;
	return (int)x->nlabels++;
}

static void bind(struct xlat *x, int label)
{
	if (!x->nomem)
		x->labels[label].at = (long)x->len;
}

static int fixed(const struct xlat *x, int which)
{
	return (int)x->n + which;
}

/* A jump to label: the offset is patched by resolve(). */
static void emit_jmp(struct xlat *x, __u8 code, __u8 dst, __u8 src, __s32 imm, int label)
{
	if (x->nomem || !grow(&x->fix, &x->fix_cap, x->nfix, sizeof(*x->fix))) {
		x->nomem = true;
		return;
	}
	x->labels[label].refs++;
	x->fix[x->nfix].at = x->len;
	x->fix[x->nfix++].label = label;
	emit(x, code, dst, src, 0, imm);
}

static void emit_ja(struct xlat *x, int label)
{
	emit_jmp(x, BPF_JMP | BPF_JA, 0, 0, 0, label);
}

static void emit_ld_map(struct xlat *x, __u8 dst, int fd)
{
	emit(x, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
	emit(x, 0, 0, 0, 0, 0);
}

static void emit_ld_imm64(struct xlat *x, __u8 dst, __u64 v)
{
	emit(x, BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, (__s32)(__u32)v);
	emit(x, 0, 0, 0, 0, (__s32)(__u32)(v >> 32));
}

static void emit_call(struct xlat *x, __s32 func)
{
	emit(x, BPF_JMP | BPF_CALL, 0, 0, 0, func);
}

static __u8 size_bytes(__u16 code)
{
	return BPF_SIZE(code) == BPF_B ? 1 : BPF_SIZE(code) == BPF_H ? 2 : 4;
}

static __u8 ldx_size(__u8 size)
{
	return size == 1 ? BPF_B : size == 2 ? BPF_H : BPF_W;
}

/* Classic loads are big-endian. */
static void emit_be(struct xlat *x, __u8 size, __u8 dst)
{
	if (size > 1)
		emit(x, BPF_ALU | BPF_END | BPF_TO_BE, dst, 0, 0, size * 8);
}

static int error(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int error(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* ---- checks on the classic program ---- */

static bool is_load_mem(__u16 code)
{
	return code == (BPF_LD | BPF_MEM) || code == (BPF_LDX | BPF_MEM);
}

static bool is_store(__u16 code)
{
	return code == BPF_ST || code == BPF_STX;
}

/* The opcodes of libpcap's bpf_filter(); 0 if valid, else why not. */
static const char *bad_insn(const struct wd_cbpf_insn *i)
{
	switch (i->code) {
	case BPF_RET | BPF_K: case BPF_RET | BPF_A:
	case BPF_LD | BPF_W | BPF_ABS: case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS: case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN: case BPF_LD | BPF_W | BPF_IND:
	case BPF_LD | BPF_H | BPF_IND: case BPF_LD | BPF_B | BPF_IND:
	case BPF_LDX | BPF_MSH | BPF_B: case BPF_LD | BPF_IMM: case BPF_LDX | BPF_IMM:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X: case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JEQ | BPF_X: case BPF_JMP | BPF_JSET | BPF_X:
	case BPF_ALU | BPF_ADD | BPF_X: case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_X: case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_MOD | BPF_X: case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_X: case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_X: case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU | BPF_SUB | BPF_K:
	case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_OR | BPF_K: case BPF_ALU | BPF_XOR | BPF_K:
	case BPF_ALU | BPF_NEG: case BPF_MISC | BPF_TAX: case BPF_MISC | BPF_TXA:
		return NULL;
	case BPF_LD | BPF_MEM: case BPF_LDX | BPF_MEM: case BPF_ST: case BPF_STX:
		return i->k < WD_FILTER_MEMWORDS ? NULL : "M[k] with k >= 16";
	case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU | BPF_MOD | BPF_K:
		return i->k ? NULL : "division by the constant 0";
	case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU | BPF_RSH | BPF_K:
		return i->k < 32 ? NULL : "constant shift by 32 or more";
	}
	return "unknown opcode";
}

/* A fixed-offset load that no packet can hold (k + size > 2^32 - 1). */
static bool never_fits(const struct wd_cbpf_insn *p)
{
	if (BPF_CLASS(p->code) != BPF_LD && BPF_CLASS(p->code) != BPF_LDX)
		return false;
	if (BPF_MODE(p->code) != BPF_ABS && BPF_MODE(p->code) != BPF_MSH)
		return false;
	return (__u64)p->k + size_bytes(p->code) > UINT32_MAX;
}

/* Where instruction i goes next: none after a RET or a load that cannot fit. */
static int targets(const struct wd_cbpf_insn *in, size_t i, __u64 t[2])
{
	const struct wd_cbpf_insn *p = &in[i];

	if (BPF_CLASS(p->code) == BPF_RET || never_fits(p))
		return 0;
	if (BPF_CLASS(p->code) != BPF_JMP) {
		t[0] = i + 1;
		return 1;
	}
	if (BPF_OP(p->code) == BPF_JA) {
		t[0] = i + 1 + (__u64)p->k;
		return 1;
	}
	t[0] = i + 1 + p->jt;
	t[1] = i + 1 + p->jf;
	return 2;
}

static int check_insns(const struct wd_cbpf_insn *in, size_t n, char *err, size_t errlen)
{
	const char *why;
	__u64 t[2];
	size_t i;
	int k, nt;

	if (!n || n > WD_CBPF_MAX_INSNS)
		return error(err, errlen, -EINVAL, "filter program of %zu instructions: "
			     "1 to %d allowed", n, WD_CBPF_MAX_INSNS);
	for (i = 0; i < n; i++) {
		why = bad_insn(&in[i]);
		if (why)
			return error(err, errlen, -EINVAL, "filter instruction %zu (code 0x%02x "
				     "k %u): %s", i, in[i].code, in[i].k, why);
		if (in[i].code == (BPF_JMP | BPF_JA) && (__s32)in[i].k < 0)
			return error(err, errlen, -EINVAL, "filter instruction %zu: backward jump "
				     "(ip6 protochain?): not supported", i);
		nt = BPF_CLASS(in[i].code) == BPF_JMP ? targets(in, i, t) : 0;
		for (k = 0; k < nt; k++)
			if (t[k] >= n)
				return error(err, errlen, -EINVAL, "filter instruction %zu: "
					     "jumps past the end", i);
	}
	if (BPF_CLASS(in[n - 1].code) != BPF_RET)
		return error(err, errlen, -EINVAL, "filter program does not end with a return");
	return 0;
}

static bool is_load_ind(__u16 code)
{
	return BPF_CLASS(code) == BPF_LD && BPF_MODE(code) == BPF_IND;
}

/*
 * The end of a packet load, which min(linear, wirelen) reaches once it
 * succeeded (an indexed one: at least k + size); 0 for other instructions.
 */
static __u32 load_end(const struct wd_cbpf_insn *p)
{
	__u64 end = (__u64)p->k + size_bytes(p->code);

	if (BPF_CLASS(p->code) != BPF_LD && BPF_CLASS(p->code) != BPF_LDX)
		return 0;
	if (BPF_MODE(p->code) != BPF_ABS && BPF_MODE(p->code) != BPF_IND &&
	    BPF_MODE(p->code) != BPF_MSH)
		return 0;
	return end > UINT32_MAX ? 0 : (__u32)end;
}

static void merge(struct state *to, const struct state *from)
{
	if (!to->reach) {
		*to = *from;
		return;
	}
	to->stored &= from->stored;
	if (from->known < to->known)
		to->known = from->known;
	if (from->xmax > to->xmax)
		to->xmax = from->xmax;
}

/* The largest X after p: a constant, 4 * a nibble (MSH), or anything. */
static __u32 xmax_after(const struct wd_cbpf_insn *p, __u32 xmax)
{
	if (p->code == (BPF_LDX | BPF_IMM))
		return p->k;
	if (p->code == (BPF_LDX | BPF_MSH | BPF_B))
		return 60;
	if (BPF_CLASS(p->code) == BPF_LDX || p->code == (BPF_MISC | BPF_TAX))
		return UINT32_MAX;
	return xmax;
}

/* The end of an indexed load as far as X's bound tells, 0 if unbounded. */
static __u32 ind_end_max(const struct wd_cbpf_insn *p, __u32 xmax)
{
	__u64 end = (__u64)xmax + p->k + size_bytes(p->code);

	return end > WD_FILTER_BUF ? 0 : (__u32)end;
}

/*
 * Forward over the classic program (its jumps only go forward): which
 * instructions run at all, which M[] words may be read before a store
 * (zeroed first, as libpcap does), which bounds checks earlier loads
 * already made, how large X can be (an indexed load with X from MSH
 * stays within buf[] without a check), and how many bytes buf[] needs:
 * the farthest any load can reach, WD_FILTER_BUF if an indexed one is
 * unbounded.
 */
static int analyse(struct xlat *x)
{
	bool ind = false;
	__u64 t[2];
	size_t i;
	int k, nt;

	x->st = calloc(x->n, sizeof(*x->st));
	if (!x->st)
		return -ENOMEM;
	x->st[0].reach = true;
	for (i = 0; i < x->n; i++) {
		const struct wd_cbpf_insn *p = &x->in[i];
		struct state out = x->st[i];
		__u32 end = load_end(p);

		if (!out.reach)
			continue;
		if (is_load_mem(p->code) && !(out.stored & 1u << p->k))
			x->uninit_mem |= 1u << p->k;
		if (is_store(p->code))
			out.stored |= 1u << p->k;
		if (end > out.known)
			out.known = end;
		out.xmax = xmax_after(p, out.xmax);
		nt = targets(x->in, i, t);
		for (k = 0; k < nt; k++)
			merge(&x->st[t[k]], &out);
		if (is_load_ind(p->code)) {
			end = ind_end_max(p, x->st[i].xmax);
			ind |= !end;
		}
		if (end <= WD_FILTER_BUF && end > x->copy)
			x->copy = end;
	}
	if (ind)
		x->copy = WD_FILTER_BUF;
	return 0;
}

/* ---- emission ---- */

static int add_cold(struct xlat *x, enum cold_kind kind, __u32 end, __u8 size, int back)
{
	int label = new_label(x);
	struct cold *c;

	if (x->nomem || !grow(&x->cold, &x->cold_cap, x->ncold, sizeof(*x->cold))) {
		x->nomem = true;
		return label;
	}
	c = &x->cold[x->ncold++];
	c->kind = kind;
	c->label = label;
	c->back = back;
	c->end = end;
	c->size = size;
	return label;
}

/* The stub reporting a load that ends at end, past min(linear, wirelen). */
static int stub_label(struct xlat *x, __u32 end)
{
	size_t i;

	for (i = 0; i < x->ncold; i++)
		if (x->cold[i].kind == COLD_STUB && x->cold[i].end == end)
			return x->cold[i].label;
	return add_cold(x, COLD_STUB, end, 0, -1);
}

/* reg += v, for any v < 2^33 (scratch is clobbered when v > INT32_MAX). */
static void emit_add64(struct xlat *x, __u8 reg, __u8 scratch, __u64 v)
{
	if (v <= INT32_MAX) {
		emit(x, BPF_ALU64 | BPF_ADD | BPF_K, reg, 0, 0, (__s32)v);
		return;
	}
	emit_ld_imm64(x, scratch, v);
	emit(x, BPF_ALU64 | BPF_ADD | BPF_X, reg, scratch, 0, 0);
}

/* r3 = a kernel address: dst = the size bytes there, through tmp[]. */
static void emit_read_tmp(struct xlat *x, __u8 size, __u8 dst)
{
	emit(x, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, R_FC, 0, 0);
	emit(x, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, OFF(tmp));
	emit(x, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, size);
	emit_call(x, BPF_FUNC_probe_read_kernel);
	emit_jmp(x, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, 0, fixed(x, L_RET0));
	emit(x, BPF_LDX | BPF_MEM | ldx_size(size), dst, R_FC, OFF(tmp), 0);
}

/* r2 = end of an indexed load: its bytes through tmp[] into A. */
static void emit_read_ind(struct xlat *x, __u8 size)
{
	emit(x, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, R_FC, OFF(nh), 0);
	emit(x, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_3, BPF_REG_2, 0, 0);
	emit(x, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -(__s32)size);
	emit_read_tmp(x, size, R_A);
}

/* dst = the size bytes at offset k (ABS, and the byte of MSH); end fits in u32. */
static void emit_load_abs(struct xlat *x, __u32 k, __u8 size, __u8 dst)
{
	__u32 end = k + size;

	if (end > x->st[x->cur].known)	/* not checked by an earlier load */
		emit_jmp(x, BPF_JMP32 | BPF_JLT | BPF_K, R_LEN, 0, (__s32)end,
			 stub_label(x, end));
	if (end <= x->copy) {
		emit(x, BPF_LDX | BPF_MEM | ldx_size(size), dst, R_FC, OFF(buf) + (__s16)k, 0);
	} else {
		emit(x, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, R_FC, OFF(nh), 0);
		emit_add64(x, BPF_REG_3, BPF_REG_2, k);
		emit_read_tmp(x, size, dst);
	}
	emit_be(x, size, dst);
}

/*
 * A = the size bytes at X + k. The end, X + k + size, is computed in 64
 * bits, so an offset that overflows 32 bits is simply past the packet.
 * Within buf[] for every X it can be (X from MSH): no more than that.
 */
static void emit_load_ind(struct xlat *x, const struct wd_cbpf_insn *p)
{
	__u8 size = size_bytes(p->code);
	__u64 kend = (__u64)p->k + size;
	int back, big;

	emit(x, BPF_ALU | BPF_MOV | BPF_X, BPF_REG_2, R_X, 0, 0);
	emit_add64(x, BPF_REG_2, BPF_REG_3, kend);
	emit_jmp(x, BPF_JMP | BPF_JGT | BPF_X, BPF_REG_2, R_LEN, 0, fixed(x, L_OOB));
	if (ind_end_max(p, x->st[x->cur].xmax)) {
		emit(x, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_2, R_FC, 0, 0);
		emit(x, BPF_LDX | BPF_MEM | ldx_size(size), R_A, BPF_REG_2, OFF(buf) - size, 0);
	} else if (kend <= x->copy) {
		back = new_label(x);
		big = add_cold(x, COLD_READ, 0, size, back);
		emit_jmp(x, BPF_JMP | BPF_JGT | BPF_K, BPF_REG_2, 0, (__s32)x->copy, big);
		emit(x, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_2, R_FC, 0, 0);
		emit(x, BPF_LDX | BPF_MEM | ldx_size(size), R_A, BPF_REG_2, OFF(buf) - size, 0);
		bind(x, back);
	} else {
		emit_read_ind(x, size);
	}
	emit_be(x, size, R_A);
}

static void emit_ld(struct xlat *x, const struct wd_cbpf_insn *p)
{
	__u8 dst = BPF_CLASS(p->code) == BPF_LD ? R_A : R_X;

	if (never_fits(p)) {
		emit_ja(x, fixed(x, L_RET0));
		return;
	}
	switch (BPF_MODE(p->code)) {
	case BPF_IMM:
		emit(x, BPF_ALU | BPF_MOV | BPF_K, dst, 0, 0, (__s32)p->k);
		break;
	case BPF_LEN:
		emit(x, BPF_LDX | BPF_MEM | BPF_W, dst, R_FC, OFF(wirelen), 0);
		break;
	case BPF_MEM:
		emit(x, BPF_LDX | BPF_MEM | BPF_W, dst, R_FC, OFF(mem) + 4 * (__s16)p->k, 0);
		break;
	case BPF_ABS:
		emit_load_abs(x, p->k, size_bytes(p->code), R_A);
		break;
	case BPF_IND:
		emit_load_ind(x, p);
		break;
	case BPF_MSH:
		emit_load_abs(x, p->k, 1, R_X);
		emit(x, BPF_ALU | BPF_AND | BPF_K, R_X, 0, 0, 0xf);
		emit(x, BPF_ALU | BPF_LSH | BPF_K, R_X, 0, 0, 2);
		break;
	}
}

static void emit_alu(struct xlat *x, const struct wd_cbpf_insn *p)
{
	__u8 op = BPF_OP(p->code);
	int zero, done;

	if (op == BPF_NEG) {
		emit(x, BPF_ALU | BPF_NEG, R_A, 0, 0, 0);
		return;
	}
	if (BPF_SRC(p->code) == BPF_K) {
		emit(x, BPF_ALU | op | BPF_K, R_A, 0, 0, (__s32)p->k);
		return;
	}
	if (op == BPF_DIV || op == BPF_MOD)
		emit_jmp(x, BPF_JMP32 | BPF_JEQ | BPF_K, R_X, 0, 0, fixed(x, L_RET0));
	if (op != BPF_LSH && op != BPF_RSH) {
		emit(x, BPF_ALU | op | BPF_X, R_A, R_X, 0, 0);
		return;
	}
	/* a shift by X >= 32 gives 0 */
	zero = new_label(x);
	done = new_label(x);
	emit_jmp(x, BPF_JMP32 | BPF_JGE | BPF_K, R_X, 0, 32, zero);
	emit(x, BPF_ALU | op | BPF_X, R_A, R_X, 0, 0);
	emit_ja(x, done);
	bind(x, zero);
	emit(x, BPF_ALU | BPF_MOV | BPF_K, R_A, 0, 0, 0);
	bind(x, done);
}

/* Where a jump to classic instruction t goes: a RET of a constant, straight to its end. */
static int target(const struct xlat *x, size_t t)
{
	const struct wd_cbpf_insn *p = &x->in[t];

	if (p->code == (BPF_RET | BPF_K))
		return fixed(x, p->k ? L_MATCH : L_RET0);
	return (int)t;
}

static __u8 inverse(__u8 op)
{
	return op == BPF_JEQ ? BPF_JNE : op == BPF_JGT ? BPF_JLE : BPF_JLT;
}

/* if (A op K/X) goto t else goto f, with the fall-through on the next one. */
static void emit_cond(struct xlat *x, size_t i)
{
	const struct wd_cbpf_insn *p = &x->in[i];
	size_t t = i + 1 + p->jt, f = i + 1 + p->jf, next = i + 1;
	__u8 op = BPF_OP(p->code), src = BPF_SRC(p->code);
	__u8 sreg = src == BPF_X ? R_X : 0;
	__s32 imm = src == BPF_K ? (__s32)p->k : 0;

	if (t == f) {
		if (t != next)
			emit_ja(x, target(x, t));
		return;
	}
	if (t == next && op != BPF_JSET) {
		emit_jmp(x, BPF_JMP32 | inverse(op) | src, R_A, sreg, imm, target(x, f));
		return;
	}
	emit_jmp(x, BPF_JMP32 | op | src, R_A, sreg, imm, target(x, t));
	if (f != next)
		emit_ja(x, target(x, f));
}

static void emit_insn(struct xlat *x, size_t i)
{
	const struct wd_cbpf_insn *p = &x->in[i];

	switch (BPF_CLASS(p->code)) {
	case BPF_LD:
	case BPF_LDX:
		emit_ld(x, p);
		break;
	case BPF_ST:
	case BPF_STX:
		emit(x, BPF_STX | BPF_MEM | BPF_W, R_FC, p->code == BPF_ST ? R_A : R_X,
		     OFF(mem) + 4 * (__s16)p->k, 0);
		break;
	case BPF_ALU:
		emit_alu(x, p);
		break;
	case BPF_JMP:
		if (BPF_OP(p->code) != BPF_JA)
			emit_cond(x, i);
		else if (p->k)
			emit_ja(x, target(x, i + 1 + p->k));
		break;
	case BPF_RET:
		if (BPF_RVAL(p->code) == BPF_A) {
			emit_jmp(x, BPF_JMP32 | BPF_JNE | BPF_K, R_A, 0, 0, fixed(x, L_MATCH));
			emit_ja(x, fixed(x, L_RET0));
		} else {
			emit_ja(x, fixed(x, p->k ? L_MATCH : L_RET0));
		}
		break;
	case BPF_MISC:
		if (BPF_MISCOP(p->code) == BPF_TAX)
			emit(x, BPF_ALU | BPF_MOV | BPF_X, R_X, R_A, 0, 0);
		else
			emit(x, BPF_ALU | BPF_MOV | BPF_X, R_A, R_X, 0, 0);
		break;
	}
}

/* buf[] = the first min(linear, wirelen, copy) bytes; a failed read: 0. */
static void emit_copy(struct xlat *x)
{
	emit(x, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, R_LEN, 0, 0);
	emit(x, BPF_JMP | BPF_JLE | BPF_K, BPF_REG_2, 0, 1, (__s32)x->copy);
	emit(x, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, (__s32)x->copy);
	emit(x, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, R_FC, 0, 0);
	emit(x, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, OFF(buf));
	emit(x, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, R_FC, OFF(nh), 0);
	emit_call(x, BPF_FUNC_probe_read_kernel);
	emit_jmp(x, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, 0, fixed(x, L_RET0));
}

static void emit_prologue(struct xlat *x, bool loads)
{
	int k;

	emit(x, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_1, STACK_CTX, 0);
	emit(x, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, STACK_KEY, 0);
	emit_ld_map(x, BPF_REG_1, x->ctx_fd);
	emit(x, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	emit(x, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, STACK_KEY);
	emit_call(x, BPF_FUNC_map_lookup_elem);
	emit_jmp(x, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, fixed(x, L_RET0));
	emit(x, BPF_ALU64 | BPF_MOV | BPF_X, R_FC, BPF_REG_0, 0, 0);
	if (loads) {
		/* R_LEN = min(linear, wirelen) */
		emit(x, BPF_LDX | BPF_MEM | BPF_W, R_LEN, R_FC, OFF(linear), 0);
		emit(x, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, R_FC, OFF(wirelen), 0);
		emit(x, BPF_JMP | BPF_JLE | BPF_X, R_LEN, BPF_REG_2, 1, 0);
		emit(x, BPF_ALU64 | BPF_MOV | BPF_X, R_LEN, BPF_REG_2, 0, 0);
	}
	if (x->copy)
		emit_copy(x);
	for (k = 0; k < WD_FILTER_MEMWORDS; k++)
		if (x->uninit_mem & 1u << k)
			emit(x, BPF_ST | BPF_MEM | BPF_W, R_FC, 0, OFF(mem) + 4 * k, 0);
	emit(x, BPF_ALU | BPF_MOV | BPF_K, R_A, 0, 0, 0);
	emit(x, BPF_ALU | BPF_MOV | BPF_K, R_X, 0, 0, 0);
}

static void emit_cold(struct xlat *x)
{
	size_t i;

	for (i = 0; i < x->ncold; i++) {
		const struct cold *c = &x->cold[i];

		bind(x, c->label);
		if (c->kind == COLD_STUB) {
			emit(x, BPF_ALU | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, (__s32)c->end);
			emit_ja(x, fixed(x, L_OOB));
			continue;
		}
		emit_read_ind(x, c->size);
		emit_ja(x, c->back);
	}
}

/*
 * OOB (r2 = the end of a load past min(linear, wirelen)): within wirelen
 * the bytes are in paged data, counted in nonlinear; either way 0. Then
 * RET0, and MATCH: the counting program, or 1 when its slot is empty.
 */
static void emit_tail(struct xlat *x)
{
	if (x->labels[fixed(x, L_OOB)].refs) {
		bind(x, fixed(x, L_OOB));
		emit(x, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_3, R_FC, OFF(wirelen), 0);
		emit_jmp(x, BPF_JMP | BPF_JGT | BPF_X, BPF_REG_2, BPF_REG_3, 0, fixed(x, L_RET0));
		emit(x, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, R_FC, OFF(nonlinear), 0);
		emit(x, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, 1);
		emit(x, BPF_STX | BPF_MEM | BPF_DW, R_FC, BPF_REG_3, OFF(nonlinear), 0);
	}
	bind(x, fixed(x, L_RET0));
	emit(x, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(x, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	if (!x->labels[fixed(x, L_MATCH)].refs)
		return;
	bind(x, fixed(x, L_MATCH));
	if (x->progs_fd >= 0) {
		emit(x, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_10, STACK_CTX, 0);
		emit_ld_map(x, BPF_REG_2, x->progs_fd);
		emit(x, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, WD_FILTER_MATCHED);
		emit_call(x, BPF_FUNC_tail_call);
	}
	emit(x, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 1);
	emit(x, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static int resolve(struct xlat *x, char *err, size_t errlen)
{
	size_t i;
	long off;

	for (i = 0; i < x->nfix; i++) {
		long to = x->labels[x->fix[i].label].at;

		if (to < 0)
			return error(err, errlen, -EINVAL, "filter translation: "
				     "unbound label %d", x->fix[i].label);
		off = to - (long)(x->fix[i].at + 1);
		if (off < INT16_MIN || off > INT16_MAX)
			return error(err, errlen, -E2BIG, "filter program too large: "
				     "a jump of %ld instructions", off);
		x->out[x->fix[i].at].off = (__s16)off;
	}
	return 0;
}

static bool any_load(const struct xlat *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		__u16 c = x->in[i].code;

		if (x->st[i].reach && (BPF_CLASS(c) == BPF_LD || BPF_CLASS(c) == BPF_LDX) &&
		    (BPF_MODE(c) == BPF_ABS || BPF_MODE(c) == BPF_IND || BPF_MODE(c) == BPF_MSH))
			return true;
	}
	return false;
}

static int translate(struct xlat *x, char *err, size_t errlen)
{
	size_t i;
	int ret;

	ret = analyse(x);
	if (ret)
		return ret;
	for (i = 0; i < x->n + L_FIXED; i++)
		new_label(x);
	if (x->nomem)
		return -ENOMEM;
	emit_prologue(x, any_load(x));
	/* code for what the code so far reaches: by falling through or a jump */
	for (i = 0; i < x->n; i++) {
		bind(x, (int)i);
		if (!x->falls && !x->labels[i].refs)
			continue;
		x->cur = i;
		x->falls = true;	/* an instruction may emit nothing (JA 0) */
		emit_insn(x, i);
	}
	emit_cold(x);
	emit_tail(x);
	if (x->nomem)
		return -ENOMEM;
	return resolve(x, err, errlen);
}

int wd_cbpf_to_ebpf(const struct wd_cbpf_insn *in, size_t n, int ctx_map_fd,
		    int progs_map_fd, struct bpf_insn **out, size_t *out_n,
		    char *err, size_t errlen)
{
	struct xlat x = {
		.in = in, .n = n, .ctx_fd = ctx_map_fd, .progs_fd = progs_map_fd,
	};
	int ret;

	if (!out || !out_n || (!in && n))
		return error(err, errlen, -EINVAL, "filter translation: bad arguments");
	*out = NULL;
	*out_n = 0;
	ret = check_insns(in, n, err, errlen);
	if (ret)
		return ret;
	ret = translate(&x, err, errlen);
	if (ret == -ENOMEM)
		error(err, errlen, ret, "filter translation: %s", strerror(ENOMEM));
	if (!ret) {
		*out = x.out;
		*out_n = x.len;
		x.out = NULL;
	}
	free(x.out);
	free(x.labels);
	free(x.fix);
	free(x.cold);
	free(x.st);
	return ret;
}

/* ---- loading ---- */

#define LOAD_LOG_BYTES	(1 << 20)

/*
 * The last lines of the verifier's log, where it says why, into log;
 * without its closing statistics ("processed N insns ...").
 */
static void log_tail(const char *vlog, char *log, size_t loglen)
{
	size_t len = strlen(vlog);
	const char *from = vlog, *stats;

	while (len && vlog[len - 1] == '\n')
		len--;
	stats = memrchr(vlog, '\n', len);
	if (stats && !strncmp(stats + 1, "processed ", 10))
		len = (size_t)(stats - vlog);
	if (len >= loglen) {
		from = vlog + len - (loglen - 1);
		if (memchr(from, '\n', len - (size_t)(from - vlog)))
			from = (const char *)memchr(from, '\n', len - (size_t)(from - vlog)) + 1;
	}
	snprintf(log, loglen, "%.*s", (int)(len - (size_t)(from - vlog)), from);
}

int wd_filter_prog_load(enum bpf_prog_type type, __u32 attach_btf_id,
			const struct bpf_insn *insns, size_t n, char *log, size_t loglen)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	char *vlog;
	int fd, ret;

	if (log && loglen)
		log[0] = '\0';
	if (type == BPF_PROG_TYPE_TRACING) {
		opts.expected_attach_type = BPF_TRACE_RAW_TP;
		opts.attach_btf_id = attach_btf_id;
	}
	fd = bpf_prog_load(type, "wd_filter", "Dual BSD/GPL", insns, n, &opts);
	if (fd >= 0)
		return fd;
	ret = fd;	/* libbpf 1.x: -errno */
	if (!log || !loglen)
		return ret;
	/* again for the verifier's log (level 1: the failing path only) */
	vlog = calloc(1, LOAD_LOG_BYTES);
	if (vlog) {
		opts.log_buf = vlog;
		opts.log_size = LOAD_LOG_BYTES;
		opts.log_level = 1;
		fd = bpf_prog_load(type, "wd_filter", "Dual BSD/GPL", insns, n, &opts);
		if (fd >= 0)
			close(fd);	/* loads now: report the first error */
		log_tail(vlog, log, loglen);
		free(vlog);
	}
	if (!log[0])
		snprintf(log, loglen, "%s", strerror(-ret));
	return ret;
}
