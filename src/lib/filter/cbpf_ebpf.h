/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The classic BPF of a pcap filter (libpcap, DLT_RAW: packets start at the
 * IP header) translated at load time into a standalone eBPF program, which
 * the tracepoint program tail-calls (ABI: struct wd_filter_ctx and the
 * WD_FILTER_* indexes in whydrop.h). No bpf_loop, no kfuncs, nothing newer
 * than 5.5 (bpf_probe_read_kernel; JMP32 is 5.1); verified on 6.1, 6.12
 * and 6.18 (tests/system/filter_equal.c).
 *
 * The generated program, entered with r1 = the tracepoint's context:
 *   - looks up filter_ctx (key 0; NULL: returns 0);
 *   - copies the first min(linear, wirelen, C) bytes at nh into buf[] with
 *     one bpf_probe_read_kernel. C <= WD_FILTER_BUF is the farthest byte a
 *     load can reach, indexed loads with X from MSH (<= 60) included;
 *     WD_FILTER_BUF if an indexed load's X is unbounded ('tcp port 443'
 *     copies 64 bytes; a filter that loads nothing, none). A failed read:
 *     0. Bytes of buf[] past that are stale: only the filter uses it;
 *   - runs the filter with A and X as 32-bit registers (u32 wrap-around as
 *     in classic BPF), M[] in filter_ctx.mem, big-endian loads;
 *   - a load ending within linear and wirelen reads buf[], or past buf[]
 *     bpf_probe_read_kernel into tmp[]; one ending past linear but within
 *     wirelen needs paged data: nonlinear += 1, return 0; one ending past
 *     wirelen is outside the packet: return 0 (as libpcap); LEN is wirelen;
 *   - RET of a non-zero value tail-calls filter_progs[WD_FILTER_MATCHED]
 *     with the context, and returns 1 if that slot is empty; RET 0 returns 0.
 * The semantics are libpcap's bpf_filter() (pcap_offline_filter()), with
 * caplen = min(linear, wirelen): division or modulo by X == 0 ends with 0,
 * a shift by X >= 32 gives 0, an indexed load whose X + k overflows is out
 * of the packet, M[] reads before any store read 0.
 *
 * Registers of the generated code: r6 filter_ctx, r7 A, r8 X,
 * r9 min(linear, wirelen); the context is kept at fp-8, the key at fp-16.
 * A load is a compare with r9 (left out when an earlier load on every path
 * checked as far), a load from buf[] and a byte swap; jumps to a RET of a
 * constant go straight to the end. About 2 eBPF instructions per classic
 * one, plus some 40 of prologue and epilogue (512 classic instructions of
 * mixed clauses: about 1100; 'tcp port 443': 23 -> 90; a chain of 1086
 * hosts, 4096 classic instructions, the most accepted: 4150).
 */
#ifndef WD_CBPF_EBPF_H
#define WD_CBPF_EBPF_H

#include <stddef.h>
#include <linux/bpf.h>
#include <linux/types.h>

#include "whydrop.h"

/*
 * Translate n classic instructions. ctx_map_fd is the per-CPU array
 * filter_ctx, progs_map_fd the program array filter_progs (< 0: no tail
 * call, a match just returns 1). On success returns 0 and *out (caller
 * frees) holds *out_n instructions for bpf_prog_load() (ld_imm64 with
 * BPF_PSEUDO_MAP_FD for the maps). On error returns -EINVAL (a program
 * libpcap's validator or the kernel would refuse: empty or longer than
 * WD_CBPF_MAX_INSNS, an unknown opcode, a jump backwards or past the end,
 * a constant division by 0 or shift by 32 or more, M[k] with k >= 16, no
 * RET at the end), -E2BIG or -ENOMEM, with a message in err.
 */
int wd_cbpf_to_ebpf(const struct wd_cbpf_insn *in, size_t n, int ctx_map_fd,
		    int progs_map_fd, struct bpf_insn **out, size_t *out_n,
		    char *err, size_t errlen);

/*
 * Load a translated filter: type BPF_PROG_TYPE_TRACING (attach_btf_id is
 * the vmlinux BTF id of the typedef btf_trace_kfree_skb; expected attach
 * type BPF_TRACE_RAW_TP) or BPF_PROG_TYPE_RAW_TRACEPOINT (attach_btf_id
 * ignored). License "Dual BSD/GPL" (bpf_probe_read_kernel is GPL-only).
 * Returns the program's fd, or -errno of the load with the end of the
 * verifier's log (where its reason is) in log, if log is given.
 */
int wd_filter_prog_load(enum bpf_prog_type type, __u32 attach_btf_id,
			const struct bpf_insn *insns, size_t n, char *log, size_t loglen);

#endif /* WD_CBPF_EBPF_H */
