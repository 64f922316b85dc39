/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A small eBPF interpreter for test_cbpf_ebpf.c: it runs a translated
 * filter the way the kernel would let it run. The program may touch only
 * its stack and filter_ctx; bpf_probe_read_kernel reads only the packet's
 * linear bytes; a tail call to filter_progs is recorded, not made.
 */
#ifndef WD_EBPF_VM_H
#define WD_EBPF_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/bpf.h>

#include "whydrop.h"

/* The map fds a translation is given: the interpreter knows its maps by them. */
#define CTX_FD		1000
#define PROGS_FD	1001

struct vm {
	struct wd_filter_ctx fc;
	__u8 stack[512];
	const __u8 *pkt;	/* ctx.nh */
	__u32 linear;
	bool tail_called;
	const char *fault;
};

static bool inside(const void *p, size_t len, const void *base, size_t size)
{
	const __u8 *a = p, *b = base;

	return a >= b && len <= size && a - b <= (ptrdiff_t)(size - len);
}

/* Memory the verifier would let it touch: its stack and filter_ctx. */
static void *mem(struct vm *vm, __u64 addr, size_t len)
{
	void *p = (void *)(uintptr_t)addr;

	if (inside(p, len, vm->stack, sizeof(vm->stack)) || inside(p, len, &vm->fc, sizeof(vm->fc)))
		return p;
	vm->fault = "memory outside the stack and filter_ctx";
	return NULL;
}

static __u64 call(struct vm *vm, __s32 func, __u64 *r)
{
	void *dst;

	switch (func) {
	case BPF_FUNC_map_lookup_elem:
		if (r[1] != CTX_FD || !mem(vm, r[2], 4) || *(__u32 *)(uintptr_t)r[2])
			vm->fault = "lookup: not filter_ctx, key 0";
		return (__u64)(uintptr_t)&vm->fc;
	case BPF_FUNC_probe_read_kernel:
		dst = mem(vm, r[1], r[2]);
		if (!dst)
			return 0;
		/* the packet's linear bytes only */
		if (!inside((void *)(uintptr_t)r[3], r[2], vm->pkt, vm->linear)) {
			vm->fault = "bpf_probe_read_kernel past linear";
			return (__u64)-EFAULT;
		}
		memcpy(dst, (void *)(uintptr_t)r[3], r[2]);
		return 0;
	case BPF_FUNC_tail_call:
		if (r[2] != PROGS_FD || r[3] != WD_FILTER_MATCHED)
			vm->fault = "tail call: not filter_progs[WD_FILTER_MATCHED]";
		vm->tail_called = true;
		return 0;	/* the slot is empty: the program goes on */
	}
	vm->fault = "unknown helper";
	return 0;
}

static __u64 alu(__u8 op, __u64 a, __u64 b, bool is64)
{
	if (!is64) {
		a = (__u32)a;
		b = (__u32)b;
	}
	switch (op) {
	case BPF_ADD: a += b; break;
	case BPF_SUB: a -= b; break;
	case BPF_MUL: a *= b; break;
	case BPF_DIV: a = b ? a / b : 0; break;
	case BPF_MOD: a = b ? a % b : a; break;
	case BPF_OR: a |= b; break;
	case BPF_AND: a &= b; break;
	case BPF_XOR: a ^= b; break;
	case BPF_LSH: a <<= b & (is64 ? 63 : 31); break;
	case BPF_RSH: a >>= b & (is64 ? 63 : 31); break;
	case BPF_NEG: a = -a; break;
	case BPF_MOV: a = b; break;
	}
	return is64 ? a : (__u32)a;
}

static bool cond(__u8 op, __u64 a, __u64 b, bool is64)
{
	if (!is64) {
		a = (__u32)a;
		b = (__u32)b;
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return a & b;
	}
	return false;
}

static size_t bytes(__u8 size);

/* Unaligned, as the kernel allows (little-endian host) */
static __u64 load(const void *p, __u8 size)
{
	__u64 v = 0;

	memcpy(&v, p, bytes(size));
	return v;
}

static void store(void *p, __u8 size, __u64 v)
{
	memcpy(p, &v, bytes(size));
}

static size_t bytes(__u8 size)
{
	return size == BPF_B ? 1 : size == BPF_H ? 2 : size == BPF_W ? 4 : 8;
}

/* One eBPF instruction; returns the next pc, or -1 at exit. */
static long step(struct vm *vm, const struct bpf_insn *p, long pc, __u64 *r)
{
	const struct bpf_insn *in = &p[pc];
	__u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	__u64 src = BPF_SRC(in->code) == BPF_X ? r[in->src_reg] : (__u64)(__s64)in->imm;
	void *m;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_END) {	/* to big-endian on this little-endian host */
			r[in->dst_reg] = in->imm == 16 ? __builtin_bswap16((__u16)r[in->dst_reg]) :
				in->imm == 32 ? __builtin_bswap32((__u32)r[in->dst_reg]) :
				__builtin_bswap64(r[in->dst_reg]);
			break;
		}
		if (cls == BPF_ALU && BPF_SRC(in->code) == BPF_K)
			src = (__u32)in->imm;
		r[in->dst_reg] = alu(op, r[in->dst_reg], src, cls == BPF_ALU64);
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_EXIT)
			return -1;
		if (op == BPF_CALL) {
			r[0] = call(vm, in->imm, r);
			break;
		}
		if (op == BPF_JA || cond(op, r[in->dst_reg], src, cls == BPF_JMP))
			return pc + 1 + in->off;
		break;
	case BPF_LD:
		r[in->dst_reg] = (__u32)in->imm | (__u64)(__u32)p[pc + 1].imm << 32;
		return pc + 2;
	case BPF_LDX:
		m = mem(vm, r[in->src_reg] + (__u64)(__s64)in->off, bytes(BPF_SIZE(in->code)));
		if (m)
			r[in->dst_reg] = load(m, BPF_SIZE(in->code));
		break;
	case BPF_STX:
	case BPF_ST:
		m = mem(vm, r[in->dst_reg] + (__u64)(__s64)in->off, bytes(BPF_SIZE(in->code)));
		if (m)
			store(m, BPF_SIZE(in->code), cls == BPF_STX ? r[in->src_reg] : (__u64)in->imm);
		break;
	default:
		vm->fault = "unknown instruction class";
	}
	return pc + 1;
}

/* The program's return value (1 after a tail call), or -1 on a fault. */
static int run(struct vm *vm, const struct bpf_insn *p, size_t n)
{
	__u64 r[11] = { 0 };
	long pc = 0, steps = 0;

	r[1] = 0xc0ffee;	/* the context: only passed on */
	r[10] = (__u64)(uintptr_t)(vm->stack + sizeof(vm->stack));
	vm->tail_called = false;
	vm->fault = NULL;
	while (pc >= 0 && !vm->fault) {
		if ((size_t)pc >= n || ++steps > 100000) {
			vm->fault = "ran away";
			break;
		}
		pc = step(vm, p, pc, r);
	}
	if (vm->fault)
		return -1;
	if (vm->tail_called && r[0] != 1)
		vm->fault = "no return 1 after the tail call";
	return vm->fault ? -1 : (int)r[0];
}

#endif /* WD_EBPF_VM_H */
