// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Classic BPF (a libpcap filter for DLT_RAW) into straight eBPF: one pass
 * over the classic program emits the main code in order, binding a label
 * at each classic instruction; rare paths (a load outside buf[], the
 * accounting of a load past the packet) go to cold blocks emitted after it;
 * jumps are patched once every label has a place. See cbpf_ebpf.h for the
 * program's shape and semantics; the classic program is checked and
 * analysed first (cbpf_check.c), and loaded by cbpf_load.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cbpf_xlat.h"
#include "grow.h"

/* Registers of the generated program. */
#define R_FC	BPF_REG_6	/* struct wd_filter_ctx * */
#define R_A	BPF_REG_7
#define R_X	BPF_REG_8
#define R_LEN	BPF_REG_9	/* min(linear, wirelen): bytes a load may read */

#define STACK_CTX	(-8)
#define STACK_KEY	(-16)

#define OFF(f)	((__s16)offsetof(struct wd_filter_ctx, f))

static void emit(struct xlat *x, __u8 code, __u8 dst, __u8 src, __s16 off, __s32 imm)
{
	struct bpf_insn *i;

	if (x->nomem || wd_grow(&x->out, &x->cap, x->len, sizeof(*x->out), 64)) {
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
	if (x->nomem || wd_grow(&x->labels, &x->labels_cap, x->nlabels, sizeof(*x->labels), 64)) {
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
	if (x->nomem || wd_grow(&x->fix, &x->fix_cap, x->nfix, sizeof(*x->fix), 64)) {
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

/* ---- emission ---- */

static int add_cold(struct xlat *x, enum cold_kind kind, __u32 end, __u8 size, int back)
{
	int label = new_label(x);
	struct cold *c;

	if (x->nomem || wd_grow(&x->cold, &x->cold_cap, x->ncold, sizeof(*x->cold), 64)) {
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
	if (wd_cbpf_ind_end_max(p, x->st[x->cur].xmax)) {
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

	if (wd_cbpf_never_fits(p)) {
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
			return wd_cbpf_error(err, errlen, -EINVAL, "filter translation: "
				     "unbound label %d", x->fix[i].label);
		off = to - (long)(x->fix[i].at + 1);
		if (off < INT16_MIN || off > INT16_MAX)
			return wd_cbpf_error(err, errlen, -E2BIG, "filter program too large: "
				     "a jump of %ld instructions", off);
		x->out[x->fix[i].at].off = (__s16)off;
	}
	return 0;
}

static int translate(struct xlat *x, char *err, size_t errlen)
{
	size_t i;
	int ret;

	ret = wd_cbpf_analyse(x);
	if (ret)
		return ret;
	for (i = 0; i < x->n + L_FIXED; i++)
		new_label(x);
	if (x->nomem)
		return -ENOMEM;
	emit_prologue(x, wd_cbpf_any_load(x));
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
		return wd_cbpf_error(err, errlen, -EINVAL, "filter translation: bad arguments");
	*out = NULL;
	*out_n = 0;
	ret = wd_cbpf_check(in, n, err, errlen);
	if (ret)
		return ret;
	ret = translate(&x, err, errlen);
	if (ret == -ENOMEM)
		wd_cbpf_error(err, errlen, ret, "filter translation: %s", strerror(ENOMEM));
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
