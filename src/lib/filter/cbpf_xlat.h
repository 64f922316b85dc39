/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The classic-to-eBPF translator's own: the state of one translation and
 * what its two halves share, the checks and analysis of the classic
 * program (cbpf_check.c) and the emission of eBPF (cbpf_ebpf.c). Not for
 * use outside them.
 */
#ifndef WD_CBPF_XLAT_H
#define WD_CBPF_XLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/filter.h>

#include "cbpf_ebpf.h"

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

static inline __u8 size_bytes(__u16 code)
{
	return BPF_SIZE(code) == BPF_B ? 1 : BPF_SIZE(code) == BPF_H ? 2 : 4;
}

/* A message into err (if given); returns ret. */
int wd_cbpf_error(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* src/lib/filter/cbpf_check.c */
/* libpcap's validator's checks, and more (see wd_cbpf_to_ebpf): 0 or -EINVAL. */
int wd_cbpf_check(const struct wd_cbpf_insn *in, size_t n, char *err, size_t errlen);
/* A fixed-offset load that no packet can hold (k + size > 2^32 - 1). */
bool wd_cbpf_never_fits(const struct wd_cbpf_insn *p);
/* The end of an indexed load as far as X's bound tells, 0 if unbounded. */
__u32 wd_cbpf_ind_end_max(const struct wd_cbpf_insn *p, __u32 xmax);
/* What holds on every path to each instruction, into x->st; x->copy, x->uninit_mem. */
int wd_cbpf_analyse(struct xlat *x);
/* Whether any instruction that runs loads packet bytes. */
bool wd_cbpf_any_load(const struct xlat *x);

#endif /* WD_CBPF_XLAT_H */
