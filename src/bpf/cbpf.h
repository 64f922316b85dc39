/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A classic BPF interpreter for pcap filters (compiled by libpcap in user
 * space for DLT_RAW), run over the first bytes of the dropped packet so
 * that a filter decides what is counted, not only what is shown. One
 * instruction per bpf_loop() step: the verifier checks the step once.
 * Semantics follow the kernel's sk_filter: out-of-range loads and
 * division by zero end the program with 0 (no match).
 */
#ifndef WHYDROP_CBPF_H
#define WHYDROP_CBPF_H

#define CBPF_BUF	(WD_HDR_BYTES + 8)	/* slack for 4-byte loads at the edge */

/* Instruction fields (uapi linux/bpf_common.h). */
#define C_CLASS(c)	((c) & 0x07)
#define C_SIZE(c)	((c) & 0x18)
#define C_MODE(c)	((c) & 0xe0)
#define C_OP(c)		((c) & 0xf0)
#define C_SRC(c)	((c) & 0x08)
#define C_RVAL(c)	((c) & 0x18)

enum { C_LD, C_LDX, C_ST, C_STX, C_ALU, C_JMP, C_RET, C_MISC };
enum { C_W = 0x00, C_H = 0x08, C_B = 0x10 };
enum { C_IMM = 0x00, C_ABS = 0x20, C_IND = 0x40, C_MEM = 0x60, C_LEN = 0x80, C_MSH = 0xa0 };
enum { C_K = 0x00, C_X = 0x08, C_A = 0x10 };

const volatile __u32 cbpf_len;	/* 0: no filter */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, WD_CBPF_MAX_INSNS);
	__type(key, __u32);
	__type(value, struct wd_cbpf_insn);
} cbpf_prog SEC(".maps");

struct cbpf_buf {
	__u8 b[CBPF_BUF];
};

/* The packet bytes the filter looks at, per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cbpf_buf);
} cbpf_pkt SEC(".maps");

struct cbpf_vm {
	__u32 A, X, pc, ret;
	__u32 caplen, wirelen;
	__u32 M[16];
	struct cbpf_buf *pkt;
};

static __always_inline bool cbpf_load(struct cbpf_vm *vm, __u32 off, __u32 size, __u32 *val)
{
	__u8 *p;

	if (off >= vm->caplen || size > vm->caplen - off)
		return false;
	p = &vm->pkt->b[off & (WD_HDR_BYTES - 1)];
	if (size == 1)
		*val = p[0];
	else if (size == 2)
		*val = (__u32)p[0] << 8 | p[1];
	else
		*val = (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
	return true;
}

static __always_inline __u32 cbpf_size(__u16 code)
{
	return C_SIZE(code) == C_B ? 1 : C_SIZE(code) == C_H ? 2 : 4;
}

/* Returns false when the program ends (ret set). */
static __always_inline bool cbpf_ld(struct cbpf_vm *vm, const struct wd_cbpf_insn *in, __u32 *dst)
{
	__u32 v = 0;

	switch (C_MODE(in->code)) {
	case C_IMM:
		v = in->k;
		break;
	case C_LEN:
		v = vm->wirelen;
		break;
	case C_MEM:
		v = vm->M[in->k & 15];
		break;
	case C_ABS:
		if (!cbpf_load(vm, in->k, cbpf_size(in->code), &v))
			return false;
		break;
	case C_IND:
		if (!cbpf_load(vm, vm->X + in->k, cbpf_size(in->code), &v))
			return false;
		break;
	case C_MSH:
		if (!cbpf_load(vm, in->k, 1, &v))
			return false;
		v = (v & 0xf) << 2;
		break;
	default:
		return false;
	}
	*dst = v;
	return true;
}

static __always_inline bool cbpf_alu(struct cbpf_vm *vm, const struct wd_cbpf_insn *in)
{
	__u32 src = C_SRC(in->code) == C_X ? vm->X : in->k;

	switch (C_OP(in->code)) {
	case 0x00: vm->A += src; break;
	case 0x10: vm->A -= src; break;
	case 0x20: vm->A *= src; break;
	case 0x30:
		if (!src)
			return false;
		vm->A /= src;
		break;
	case 0x90:
		if (!src)
			return false;
		vm->A %= src;
		break;
	case 0x40: vm->A |= src; break;
	case 0x50: vm->A &= src; break;
	case 0xa0: vm->A ^= src; break;
	case 0x60: vm->A = src < 32 ? vm->A << src : 0; break;
	case 0x70: vm->A = src < 32 ? vm->A >> src : 0; break;
	case 0x80: vm->A = -vm->A; break;
	default: return false;
	}
	return true;
}

static __always_inline void cbpf_jmp(struct cbpf_vm *vm, const struct wd_cbpf_insn *in)
{
	__u32 src = C_SRC(in->code) == C_X ? vm->X : in->k;
	bool taken;

	switch (C_OP(in->code)) {
	case 0x00:
		vm->pc += in->k;
		return;
	case 0x10: taken = vm->A == src; break;
	case 0x20: taken = vm->A > src; break;
	case 0x30: taken = vm->A >= src; break;
	case 0x40: taken = vm->A & src; break;
	default:
		vm->pc = WD_CBPF_MAX_INSNS;	/* invalid: ends with 0 */
		return;
	}
	vm->pc += taken ? in->jt : in->jf;
}

/* One instruction; 1 stops bpf_loop. */
static long cbpf_step(__u32 i, void *ctx)
{
	struct cbpf_vm *vm = ctx;
	const struct wd_cbpf_insn *in;
	__u32 pc = vm->pc;

	(void)i;
	in = pc < cbpf_len ? bpf_map_lookup_elem(&cbpf_prog, &pc) : NULL;
	if (!in)
		return 1;	/* fell off the end: ret stays 0 */
	vm->pc++;
	switch (C_CLASS(in->code)) {
	case C_LD:
		return cbpf_ld(vm, in, &vm->A) ? 0 : 1;
	case C_LDX:
		return cbpf_ld(vm, in, &vm->X) ? 0 : 1;
	case C_ST:
		vm->M[in->k & 15] = vm->A;
		return 0;
	case C_STX:
		vm->M[in->k & 15] = vm->X;
		return 0;
	case C_ALU:
		return cbpf_alu(vm, in) ? 0 : 1;
	case C_JMP:
		cbpf_jmp(vm, in);
		return 0;
	case C_RET:
		vm->ret = C_RVAL(in->code) == C_A ? vm->A : in->k;
		return 1;
	case C_MISC:
		if (in->code & 0x80)
			vm->A = vm->X;	/* TXA */
		else
			vm->X = vm->A;	/* TAX */
		return 0;
	}
	return 1;
}

/*
 * pcap's `len` is the packet's length. skb->len at the drop site may have
 * lost headers already (UDP pulls its header before queueing), so use the
 * IP header's own length when there is one.
 */
static __always_inline __u32 ip_length(const __u8 *b, __u32 caplen, __u32 fallback)
{
	if (caplen >= 4 && b[0] >> 4 == 4)
		return (__u32)b[2] << 8 | b[3];
	if (caplen >= 6 && b[0] >> 4 == 6)
		return 40 + ((__u32)b[4] << 8 | b[5]);
	return fallback;
}

/* Does the filter accept the packet whose network header is at nh? */
static __always_inline bool cbpf_match(const unsigned char *nh, __u32 caplen, __u32 skb_len)
{
	struct cbpf_vm vm = {};
	__u32 zero = 0;

	vm.pkt = bpf_map_lookup_elem(&cbpf_pkt, &zero);
	if (!vm.pkt || !nh)
		return false;
	if (bpf_probe_read_kernel(vm.pkt->b, WD_HDR_BYTES, nh))
		return false;
	vm.caplen = caplen > WD_HDR_BYTES ? WD_HDR_BYTES : caplen;
	vm.wirelen = ip_length(vm.pkt->b, vm.caplen, skb_len);
	bpf_loop(WD_CBPF_MAX_INSNS, cbpf_step, &vm, 0);
	return vm.ret != 0;
}

#endif /* WHYDROP_CBPF_H */
