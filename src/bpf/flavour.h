/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One program written once for two ways of reading the kernel. A tp_btf
 * program gets typed (BTF) pointers in its arguments and reads through them
 * with direct loads, which the kernel guards against faults like
 * bpf_probe_read_kernel but at the cost of a plain load; a raw_tp program
 * gets plain numbers and must use the helper (BPF_CORE_READ). Code that
 * reads the kernel takes a bool btf, a constant in each program (every
 * function is __always_inline), so the compiler keeps one of the two.
 */
#ifndef WHYDROP_FLAVOUR_H
#define WHYDROP_FLAVOUR_H

/*
 * src->a->b...: a direct load in tp_btf, a probe read in raw_tp. src must
 * be a local variable: BPF_CORE_READ relocates every member access in it,
 * and only the kernel's types can be relocated.
 */
#define RD(btf, src, a, ...)						\
	((btf) ? ___arrow(src, a, ##__VA_ARGS__)			\
	       : BPF_CORE_READ(src, a, ##__VA_ARGS__))

/*
 * A program on tracepoint tp in both flavours: name##_btf (tp_btf: the
 * arguments are its context) and name##_raw (raw_tp: they are in
 * ctx->args). Both call fn(args, ctx, btf, ...); user space loads one.
 */
#define BOTH_FLAVOURS(tp, name, fn, ...)				\
SEC("tp_btf/" #tp)							\
int name##_btf(__u64 *ctx)						\
{									\
	return fn(ctx, ctx, true, ##__VA_ARGS__);			\
}									\
									\
SEC("raw_tp/" #tp)							\
int name##_raw(struct bpf_raw_tracepoint_args *ctx)			\
{									\
	return fn(ctx->args, ctx, false, ##__VA_ARGS__);		\
}

#endif /* WHYDROP_FLAVOUR_H */
