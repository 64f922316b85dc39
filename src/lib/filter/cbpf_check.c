// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The classic program before it is translated: checked as libpcap's
 * validator and the kernel would check it (cbpf_ebpf.h), then analysed
 * forward over its jumps (which only go forward) for what the emission
 * may leave out or must add.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cbpf_xlat.h"

int wd_cbpf_error(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

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

bool wd_cbpf_never_fits(const struct wd_cbpf_insn *p)
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

	if (BPF_CLASS(p->code) == BPF_RET || wd_cbpf_never_fits(p))
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

int wd_cbpf_check(const struct wd_cbpf_insn *in, size_t n, char *err, size_t errlen)
{
	const char *why;
	__u64 t[2];
	size_t i;
	int k, nt;

	if (!n || n > WD_CBPF_MAX_INSNS)
		return wd_cbpf_error(err, errlen, -EINVAL, "filter program of %zu instructions: "
			     "1 to %d allowed", n, WD_CBPF_MAX_INSNS);
	for (i = 0; i < n; i++) {
		why = bad_insn(&in[i]);
		if (why)
			return wd_cbpf_error(err, errlen, -EINVAL, "filter instruction %zu (code 0x%02x "
				     "k %u): %s", i, in[i].code, in[i].k, why);
		if (in[i].code == (BPF_JMP | BPF_JA) && (__s32)in[i].k < 0)
			return wd_cbpf_error(err, errlen, -EINVAL, "filter instruction %zu: backward jump "
				     "(ip6 protochain?): not supported", i);
		nt = BPF_CLASS(in[i].code) == BPF_JMP ? targets(in, i, t) : 0;
		for (k = 0; k < nt; k++)
			if (t[k] >= n)
				return wd_cbpf_error(err, errlen, -EINVAL, "filter instruction %zu: "
					     "jumps past the end", i);
	}
	if (BPF_CLASS(in[n - 1].code) != BPF_RET)
		return wd_cbpf_error(err, errlen, -EINVAL, "filter program does not end with a return");
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

__u32 wd_cbpf_ind_end_max(const struct wd_cbpf_insn *p, __u32 xmax)
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
int wd_cbpf_analyse(struct xlat *x)
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
			end = wd_cbpf_ind_end_max(p, x->st[i].xmax);
			ind |= !end;
		}
		if (end <= WD_FILTER_BUF && end > x->copy)
			x->copy = end;
	}
	if (ind)
		x->copy = WD_FILTER_BUF;
	return 0;
}

bool wd_cbpf_any_load(const struct xlat *x)
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
